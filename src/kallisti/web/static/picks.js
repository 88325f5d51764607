// Which legal moves a picked card starts, and the request that makes one: the cards from a picked card to the top
// of its pile (an ordinary move), or, where the rules let cards leave from below the top (`take_from`), the cards
// from that place only (a move whose `start` says it, sent by its text, `c1@1 f`). A pick is {from, index, count}:
// the pile's tag, the card's place from the pile's bottom (from 0) and how many cards it takes.

function pileOf(state, tag) {
  return state.piles.find((p) => p.tag === tag) || null;
}

/** The legal moves of cards starting at place `index` of pile `tag`. */
export function movesFrom(state, tag, index) {
  const pile = pileOf(state, tag);
  if (!pile) return [];
  return state.legal.filter((m) => m.kind === "move" && m.from === tag &&
    (m.start ? m.start - 1 === index : pile.size - m.count === index));
}

/** The places of pile `tag` below its top that a legal move takes cards from (`take_from`), in order. */
export function reachPlaces(state, tag) {
  const places = state.legal.filter((m) => m.kind === "move" && m.start && m.from === tag).map((m) => m.start - 1);
  return [...new Set(places)].sort((a, b) => a - b);
}

/** The pick of the face-up card at place `index` of `pile`: as many cards as the longest legal move from there
 * takes; with none, the card alone where its group gives single cards from there (`bottom`, `any`), else every card
 * from it to the top. */
export function pickAt(state, pile, index) {
  const counts = movesFrom(state, pile.tag, index).map((m) => m.count);
  if (counts.length) return {from: pile.tag, index, count: Math.max(...counts)};
  const modes = state.groups.find((g) => g.name === pile.group)?.take_from || ["top"];
  const single = modes.includes("any") || (modes.includes("bottom") && index === 0);
  return {from: pile.tag, index, count: single && index < pile.size - 1 ? 1 : pile.size - index};
}

/** The piles a pick may go to now. */
export function targetsOf(state, pick) {
  return [...new Set(movesFrom(state, pick.from, pick.index).map((m) => m.to))];
}

/** The request that moves a pick to pile `to`: the legal move there of most cards (as `kallisti play` reads `t3 t5`),
 * by its fields, or by its text when it takes cards from below the top; with none legal, the request the engine
 * refuses with its reason. */
export function moveFor(state, pick, to) {
  const m = movesFrom(state, pick.from, pick.index).filter((x) => x.to === to)
    .reduce((best, x) => (best && best.count >= x.count ? best : x), null);
  if (m) return m.start ? {text: m.text} : {from: pick.from, to, count: m.count};
  const pile = pileOf(state, pick.from);
  if (!pile || pick.index + pick.count >= pile.size) return {from: pick.from, to, count: pick.count};
  return {text: `${pick.from}@${pick.index + 1} ${to}${pick.count > 1 ? ` ${pick.count}` : ""}`};
}

/** Double-click: the single card at place `index` of pile `tag` to the lowest-numbered foundation that takes it, as
 * `t7 f` and the automatic moves choose (never the first move listed: the engine's order of legal moves is not the
 * piles' order); else the request the engine refuses with its reason. Null in a game without a foundation. */
export function homeMove(state, tag, index) {
  const roleOf = new Map(state.piles.map((p) => [p.tag, p.role]));
  const number = new Map(state.piles.map((p, i) => [p.tag, i]));  // the piles in the engine's numbering
  const legal = movesFrom(state, tag, index).filter((m) => m.count === 1 && roleOf.get(m.to) === "foundation")
    .reduce((best, m) => (best && number.get(best.to) <= number.get(m.to) ? best : m), null);
  if (legal) return {text: legal.text};
  const group = state.groups.find((g) => g.role === "foundation");
  return group ? moveFor(state, {from: tag, index, count: 1}, group.tag || group.tags[0]) : null;
}
