// Cards that move: each card shown face up travels from where it lay before a new state to where it lies now.

const MOVE_MS = 200;  // how long a card takes to travel to where it goes (none under prefers-reduced-motion)
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Where every card shown face up in `root` is now (by its physical card), and each pile's top, before a new state;
 * null when motion is reduced. */
export function positions(root) {
  if (reducedMotion.matches) return null;
  const cards = new Map(), piles = new Map();
  for (const c of root.querySelectorAll(".card[data-card-id]")) cards.set(c.dataset.cardId, c.getBoundingClientRect());
  for (const p of root.querySelectorAll(".pile")) {
    const top = p.querySelector(".card:last-of-type") || p.querySelector(".slot");
    if (top) piles.set(p.dataset.pile, top.getBoundingClientRect());
  }
  return {cards, piles};
}

/** Each card that moved travels from where it was (or, newly shown, from the pile `from`: a deal's stock) to where
 * it lies now: a short animation of its transform alone, so the layout is final from the first frame. */
export function travel(root, before, from) {
  const origin = from ? before.piles.get(from) : null;
  for (const c of root.querySelectorAll(".card[data-card-id]")) {
    const was = before.cards.get(c.dataset.cardId) || origin;
    if (!was) continue;
    const now = c.getBoundingClientRect();
    const dx = was.left - now.left, dy = was.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    c.classList.add("moving");
    const anim = c.animate([{transform: `translate(${dx}px, ${dy}px)`}, {transform: "none"}],
      {duration: MOVE_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)"});
    anim.finished.then(() => c.classList.remove("moving"), () => c.classList.remove("moving"));
  }
}
