// Drawing one card: its face (rank and suit in the corners, pips or a picture frame in the middle) or its back.
// Cards are plain elements styled by style.css; nothing here knows of piles or moves.

const RANK_WORDS = {A: "ace", J: "jack", Q: "queen", K: "king", C: "knight"};

// Where the pips of a number card go: [x, y] in percent of the pip area (x 0/50/100, y 0 top to 100 bottom).
const PIPS = {
  2: [[50, 0], [50, 100]],
  3: [[50, 0], [50, 50], [50, 100]],
  4: [[0, 0], [100, 0], [0, 100], [100, 100]],
  5: [[0, 0], [100, 0], [50, 50], [0, 100], [100, 100]],
  6: [[0, 0], [100, 0], [0, 50], [100, 50], [0, 100], [100, 100]],
  7: [[0, 0], [100, 0], [50, 25], [0, 50], [100, 50], [0, 100], [100, 100]],
  8: [[0, 0], [100, 0], [50, 25], [0, 50], [100, 50], [50, 75], [0, 100], [100, 100]],
  9: [[0, 0], [100, 0], [0, 33.3], [100, 33.3], [50, 50], [0, 66.7], [100, 66.7], [0, 100], [100, 100]],
  10: [[0, 0], [100, 0], [50, 16.7], [0, 33.3], [100, 33.3], [0, 66.7], [100, 66.7], [50, 83.3], [0, 100], [100, 100]],
};

/** "7 of hearts", "queen of spades"; "a face-down card" when nothing of it shows. */
export function cardLabel(card) {
  if (card.rank == null) return "face-down card";
  const rank = RANK_WORDS[card.rank] || card.rank;
  const name = card.suit ? `${rank} of ${card.suit}` : rank;
  return card.face_up ? name : `face-down ${name}`;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** A colour name the stylesheet knows (red, black) or, for other decks, a plain CSS colour word. */
function colourOf(card) {
  const c = String(card.colour || "black").toLowerCase();
  return /^[a-z]{1,20}$/.test(c) ? c : "black";
}

/** The strip along a card's top edge (and, turned round, its bottom): the rank on the left, the suit on the right. */
function strip(card, where) {
  const c = el("span", `strip ${where}`);
  c.append(el("span", "rank", card.rank), el("span", "suit", card.symbol || ""));
  c.setAttribute("aria-hidden", "true");
  return c;
}

function middle(card) {
  const m = el("span", "middle");
  m.setAttribute("aria-hidden", "true");
  const pips = PIPS[card.rank];
  if (pips) {
    const area = el("span", "pips");
    for (const [x, y] of pips) {
      const p = el("span", y > 50 ? "pip flip" : "pip", card.symbol || "");
      p.style.left = `${x}%`;
      p.style.top = `${y}%`;
      area.append(p);
    }
    m.append(area);
  } else if (card.rank === "A" || !card.symbol) {
    m.append(el("span", "ace", card.symbol || card.rank));
  } else {
    const frame = el("span", "frame");
    frame.append(el("span", "picture-rank", card.rank), el("span", "picture-suit", card.symbol));
    m.append(frame);
  }
  return m;
}

/**
 * A card element: `data-card-id` (the physical card; none for a face-down card), an aria-label in words,
 * and classes `face` or `back`, `red`/`black` (or another suit colour).
 */
export function cardElement(card) {
  const shown = card.rank != null;
  const e = el("div", "card");
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", cardLabel(card));
  if (card.id != null) e.dataset.cardId = String(card.id);
  if (!card.face_up) {
    e.classList.add("back");
    if (shown) {  // a face-down card the rules let the player look at: its back, its name in a corner
      e.classList.add("peek");
      e.append(el("span", "peek-name", card.text.replace(/[()]/g, "")));
    }
    return e;
  }
  const colour = colourOf(card);
  e.classList.add("face", colour);
  if (colour !== "red" && colour !== "black") e.style.color = colour;
  e.dataset.rank = card.rank;
  e.title = card.text;
  e.append(strip(card, "top"), middle(card), strip(card, "bottom"));
  return e;
}
