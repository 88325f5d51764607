// The card table: rows of pile groups placed by the state's `groups[].layout`, cards fanned to fit the window,
// and the ways a player moves cards — drag and drop (pointer events: mouse, pen and touch alike),
// click a card then click where it goes, double-click a card to send it to a foundation, click the stock to deal.

import {cardElement, cardLabel} from "./cards.js";
import {positions, travel} from "./motion.js";
import {moveFor, pickAt, reachPlaces, targetsOf} from "./picks.js";

const DRAG_START = 5;        // pixels the pointer travels before a press becomes a drag
const GAPS = {pile: 0.18, group: 0.7};        // space between piles of a group, and between groups, in card widths...
const TIGHT_GAPS = {pile: 0.08, group: 0.15}; // ...and on a narrow screen, where every pixel goes to the cards
const NARROW = 600;          // a table narrower than this (a phone) has tight gaps and cards down to CARD_MIN
const RIGHT_UNITS = 2;       // card widths a pile fanned rightwards asks for (a packet of a few cards)...
const RIGHT_ALONE = 5;       // ...or, alone in its group, a line of many (Decade's line, Blockade's hand)
const WRAP_BELOW = 72;       // on a wide screen, a row whose cards would be narrower than this puts its groups on lines of their own
const CARD_MIN = 34, CARD_MAX = 108;   // card width, pixels (34: as narrow as a phone's patience apps draw them)
const TOUCH_CARD = 56;       // cards narrower than this are a finger's: a fanned face-up card shows a strip of TOUCH px
const TOUCH = 32;            // pixels of a touch target, the least a finger can hit
const ASPECT = 1.4;          // card height / width
const STEP = {up: 0.23, down: 0.1, upMin: 0.19, downMin: 0.05, right: 0.42, rightMin: 0.12, rightDown: 0.06};  // fan steps, in card heights (widths for right)
const EDGE_SCROLL = 36;      // a drag this near the window's top or bottom edge scrolls the page
const ROLE_ORDER = ["tableau", "field", "line", "reserve", "hand", "cell"];  // where the keyboard starts on a new table
const coarsePointer = window.matchMedia("(pointer: coarse)");

function el(tag, cls) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  return e;
}

export class Table {
  /**
   * `root`: the element the table is drawn in. `on`: what the player asked for —
   * on.move({from, to, count} or {text}), on.deal(tag), on.foundation(tag, index), on.select(text or null).
   */
  constructor(root, on) {
    this.root = root;
    this.on = on;
    this.state = null;
    this.selection = null;   // a pick (picks.js), or a range of a line's cards (range: true)
    this.hint = null;        // a move of the state's kind, to highlight
    this.press = null;       // a pointer pressed on a card, perhaps becoming a drag
    this.drag = null;
    this.suppressClick = false;
    root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    root.addEventListener("click", (e) => this.click(e));
    root.addEventListener("dblclick", (e) => this.doubleClick(e));
    root.addEventListener("keydown", (e) => this.key(e));
    this.moveListener = (e) => this.pointerMove(e);
    this.upListener = (e) => this.pointerUp(e);
    this.cancelListener = () => this.cancelPress();
    let width = 0;
    new ResizeObserver(() => {  // a new width resizes the cards; a new height (the piles' own doing) does not
      if (root.clientWidth !== width) {
        width = root.clientWidth;
        this.fit();
      }
    }).observe(root);
    window.addEventListener("resize", () => this.fit());
  }

  // -- drawing ------------------------------------------------------------------------------------------

  /** Draw `state` (the API's state); the selection is dropped, a hint kept only when asked. */
  render(state, {hint = null, note = "", animate = false, from = null} = {}) {
    this.cancelPress();
    const before = animate ? positions(this.root) : null;
    this.state = state;
    this.selection = null;
    this.hint = hint;
    // Between the turns of a match there are no piles: the groups' empty places are drawn instead.
    const piles = state.piles.length ? state.piles : state.groups.flatMap((g) => g.tags.map((tag, index) =>
      ({tag, group: g.name, role: g.role, index, size: 0, cards: []})));
    this.piles = new Map(piles.map((p) => [p.tag, p]));
    // Piles a click deals from: the stock, and whatever pile a legal deal comes from (a hand, in Blockade).
    this.stocks = new Set([...piles.filter((p) => p.role === "stock").map((p) => p.tag),
      ...state.legal.filter((m) => m.kind === "deal" || m.kind === "redeal").map((m) => m.from)]);
    const root = this.root;
    const focused = root.contains(document.activeElement) ? document.activeElement.dataset.pile : null;
    root.replaceChildren();
    root.classList.toggle("between", state.piles.length === 0);
    const rows = new Map();
    for (const g of state.groups) {
      const r = g.layout.row;
      if (!rows.has(r)) rows.set(r, []);
      rows.get(r).push(g);
    }
    this.rows = [...rows.keys()].sort((a, b) => a - b).map((r) => rows.get(r).sort((a, b) => a.layout.column - b.layout.column));
    for (const groups of this.rows) {
      const row = el("div", "row");
      for (const g of groups) row.append(this.groupElement(g));
      root.append(row);
    }
    if (note) {
      const n = el("div", "table-note");
      n.textContent = note;
      root.prepend(n);
    }
    this.fit();
    this.mark();
    if (!this.cursor || !this.piles.has(this.cursor)) this.cursor = this.startPile();
    this.roving();
    if (focused) this.pileEl(focused)?.focus({preventScroll: true});  // keyboard play goes on where it was
    if (before) travel(this.root, before, from);
  }

  // -- the keyboard ---------------------------------------------------------------------------------------

  /** The pile the keyboard starts on: the first of the table's main piles (a tableau, a field, a line). */
  startPile() {
    const piles = [...this.piles.values()];
    for (const role of ROLE_ORDER) {
      const p = piles.find((x) => x.role === role);
      if (p) return p.tag;
    }
    return piles.length ? piles[0].tag : null;
  }

  /** One pile in the tab order (the cursor); arrow keys move it among the others. */
  roving() {
    for (const p of this.root.querySelectorAll(".pile")) p.tabIndex = p.dataset.pile === this.cursor ? 0 : -1;
  }

  /** Put the keyboard on the table: focus the cursor's pile. */
  focus() {
    const p = this.cursor && this.pileEl(this.cursor);
    if (p) p.focus({preventScroll: true});
  }

  /** The pile an arrow key leads to from `pileEl`: left and right along the piles in order, up and down to the
   * nearest pile of the row above or below. */
  neighbour(pileEl, key) {
    const all = [...this.root.querySelectorAll(".pile")];
    const i = all.indexOf(pileEl);
    if (key === "ArrowLeft") return all[i - 1] || null;
    if (key === "ArrowRight") return all[i + 1] || null;
    if (key === "Home") return all[0];
    if (key === "End") return all[all.length - 1];
    const here = pileEl.getBoundingClientRect();
    const cx = here.left + here.width / 2;
    const down = key === "ArrowDown";
    let best = null, bestRow = null, bestDx = Infinity;
    for (const p of all) {
      const r = p.getBoundingClientRect();
      if (down ? r.top <= here.top + 1 : r.top >= here.top - 1) continue;
      // the nearest row first, then the pile of that row nearest across
      if (bestRow !== null && (down ? r.top > bestRow + 1 : r.top < bestRow - 1)) continue;
      const dx = Math.abs(r.left + r.width / 2 - cx);
      if (bestRow === null || Math.abs(r.top - bestRow) > 1 || dx < bestDx) {
        best = p;
        bestRow = r.top;
        bestDx = dx;
      }
    }
    return best;
  }

  /** A pile's accessible name: "tableau 3, 4 cards, top 7 of hearts"; "picked up" when it holds the selection. */
  pileName(pile) {
    const g = this.state.groups.find((x) => x.name === pile.group);
    const name = pile.group.replace(/[-_]/g, " ") + (g && g.count > 1 ? ` ${pile.index + 1}` : "");
    const top = pile.cards.length ? pile.cards[pile.cards.length - 1] : null;
    const bits = [name, pile.size === 0 ? "empty" : `${pile.size} card${pile.size === 1 ? "" : "s"}`];
    if (top) bits.push(top.face_up ? `top ${cardLabel(top)}` : "top face down");
    for (const i of reachPlaces(this.state, pile.tag)) bits.push(`card ${i + 1}, ${cardLabel(pile.cards[i])}, may leave too`);
    if (this.stocks.has(pile.tag)) bits.push("deals");
    return `${bits.join(", ")} (${pile.tag})`;
  }

  groupElement(g) {
    const box = el("div", `group fan-${g.layout.fan} role-${g.role}`);
    box.dataset.group = g.name;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", `${g.name}`);
    for (const tag of g.tags) {
      const pile = this.piles.get(tag);
      if (pile) box.append(this.pileElement(pile, g));
    }
    return box;
  }

  pileElement(pile, g) {
    const e = el("div", "pile");
    e.dataset.pile = pile.tag;
    e.dataset.role = pile.role;
    e.dataset.fan = g.layout.fan;
    e.tabIndex = -1;
    e.setAttribute("role", "button");  // Enter or Space picks its cards up or puts them down; its cards are its name
    e.setAttribute("aria-label", this.pileName(pile));
    const label = el("span", "tag");
    label.textContent = pile.tag;
    label.setAttribute("aria-hidden", "true");
    e.append(label);
    const slot = el("div", "slot");
    slot.setAttribute("aria-hidden", "true");
    e.append(slot);
    const cards = g.layout.fan === "none" ? pile.cards.slice(-2) : pile.cards;
    const first = pile.cards.length - cards.length;
    const reach = new Set(reachPlaces(this.state, pile.tag));  // cards that may leave from below the top: pickable too
    cards.forEach((card, i) => {
      const c = cardElement(card);
      c.dataset.index = String(first + i);
      if (reach.has(first + i)) c.classList.add("reach");
      e.append(c);
    });
    if (g.layout.fan === "none" && pile.size > 1) {
      const badge = el("span", "count");
      badge.textContent = String(pile.size);
      badge.setAttribute("aria-hidden", "true");
      e.append(badge);
    }
    if (this.stocks.has(pile.tag)) {
      e.classList.add("stock");
      e.title = pile.size ? `${pile.tag}: click to deal (${pile.size} left)` : `${pile.tag}: the stock is empty`;
      if (!pile.size && this.state.legal.some((m) => m.kind === "redeal")) e.classList.add("redeal");
    }
    return e;
  }

  /** Size the cards to the window, so that every row of the layout fits on one line (on a phone, cards down to
   * CARD_MIN wide), and fan each pile so it fits below its top. */
  fit() {
    if (!this.state || !this.rows) return;
    const css = getComputedStyle(this.root);
    const width = this.root.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 2;
    const narrow = width < NARROW;
    const gaps = narrow ? TIGHT_GAPS : GAPS;
    const wrapBelow = narrow ? CARD_MIN : WRAP_BELOW;
    const fanUnits = (g) => (g.layout.fan === "right" ? (g.count === 1 ? RIGHT_ALONE : RIGHT_UNITS) : 1);
    const unitsOf = (g) => g.count * fanUnits(g) + Math.max(g.count - 1, 0) * gaps.pile;
    const rowUnits = (groups) => groups.reduce((sum, g) => sum + unitsOf(g), 0) + Math.max(groups.length - 1, 0) * gaps.group;
    let cw = CARD_MAX;
    for (const groups of this.rows) {
      let rowCw = width / rowUnits(groups);
      // Too narrow for one line: the row's groups go on lines of their own, each as wide as it can be.
      if (rowCw < wrapBelow && groups.length > 1) rowCw = Math.min(...groups.map((g) => width / unitsOf(g)));
      cw = Math.min(cw, rowCw);
    }
    // Cards no narrower than CARD_MIN: a group of many piles (House in the Wood's 35) wraps onto more lines.
    cw = Math.floor(Math.max(CARD_MIN, cw));
    const ch = Math.round(cw * ASPECT);
    this.cw = cw;
    this.ch = ch;
    this.touch = cw < TOUCH_CARD || coarsePointer.matches;
    // A pile fanned rightwards may spread over what its row leaves free, shared with the row's other such piles.
    this.rightSpace = new Map();
    for (const groups of this.rows) {
      const right = groups.filter((g) => g.layout.fan === "right");
      if (!right.length) continue;
      const free = Math.max(width - rowUnits(groups) * cw, 0) / right.reduce((n, g) => n + g.count, 0);
      for (const g of right) for (const tag of g.tags) this.rightSpace.set(tag, fanUnits(g) * cw + free);
    }
    this.root.style.setProperty("--cw", `${cw}px`);
    this.root.style.setProperty("--ch", `${ch}px`);
    this.root.style.setProperty("--pile-gap", `${Math.round(cw * gaps.pile * 10) / 10}px`);
    this.root.style.setProperty("--group-gap", `${Math.round(cw * gaps.group * 10) / 10}px`);
    for (const pileEl of this.root.querySelectorAll(".pile")) this.fan(pileEl);
  }

  fan(pileEl) {
    const fan = pileEl.dataset.fan;
    const cards = [...pileEl.querySelectorAll(".card")];
    const {cw, ch} = this;
    if (fan === "none") {
      cards.forEach((c) => { c.style.top = "0px"; c.style.left = "0px"; });
      pileEl.style.height = `${ch}px`;
      pileEl.style.width = `${cw}px`;
      return;
    }
    const down = cards.filter((c) => c.classList.contains("back")).length;
    const up = cards.length - down;
    if (fan === "down") {
      const rect = pileEl.getBoundingClientRect();
      const space = Math.max(window.innerHeight - (rect.top + window.scrollY) - 14, ch * 3.2);
      // A finger's cards show a strip it can hit, face-down ones too while there is room (a deal on a phone); short
      // of room, face-down cards close up first, and face-up ones never below TOUCH: the fan grows below the window.
      const upLeast = this.touch ? TOUCH : STEP.upMin * ch;
      let su = Math.max(STEP.up * ch, this.touch ? TOUCH : 0);
      let sd = this.touch ? Math.max(STEP.down * ch, TOUCH) : STEP.down * ch;
      const upNeed = Math.max(up - 1, 0) * su;
      if (this.touch && down && ch + upNeed + down * sd > space) sd = Math.max(STEP.down * ch, (space - ch - upNeed) / down);
      const need = down * sd + upNeed;
      if (cards.length > 1 && ch + need > space) {
        const f = (space - ch) / need;
        su = Math.max(su * f, upLeast);
        sd = Math.max(sd * f, STEP.downMin * ch);
      }
      let y = 0;
      cards.forEach((c, i) => {
        c.style.top = `${Math.round(y)}px`;
        c.style.left = "0px";
        y += c.classList.contains("back") ? sd : su;
        if (i === cards.length - 1) y -= c.classList.contains("back") ? sd : su;
      });
      pileEl.style.height = `${Math.round(y) + ch}px`;
      pileEl.style.width = `${cw}px`;
    } else {  // right
      const space = Math.max(this.rightSpace.get(pileEl.dataset.pile) || 0, cw * 2);
      let s = STEP.right * cw, sd = STEP.rightDown * cw;
      const need = down * sd + Math.max(up - 1, 0) * s;
      if (cards.length > 1 && cw + need > space) {
        const f = (space - cw) / need;
        s = Math.max(s * f, STEP.rightMin * cw);
        sd = Math.max(sd * f, 2);
      }
      let x = 0;
      cards.forEach((c, i) => {
        c.style.left = `${Math.round(x)}px`;
        c.style.top = "0px";
        if (i < cards.length - 1) x += c.classList.contains("back") ? sd : s;
      });
      pileEl.style.width = `${Math.round(x) + cw}px`;
      pileEl.style.height = `${ch}px`;
    }
  }

  /** Highlight the selection, the piles it may go to, and the hint. */
  mark() {
    for (const e of this.root.querySelectorAll(".selected, .target, .hint-from, .hint-to")) {
      e.classList.remove("selected", "target", "hint-from", "hint-to");
    }
    const sel = this.selection;
    if (sel) {
      for (const c of this.cardsFrom(sel.from, sel.index).slice(0, sel.count)) c.classList.add("selected");
      const to = sel.range ? this.discards(sel).map((m) => m.to) : targetsOf(this.state, sel);
      for (const t of to) this.pileEl(t)?.classList.add("target");
    }
    const h = this.hint;
    if (h) {
      const from = this.pileEl(h.from);
      if (from) {
        const first = h.start ? h.start - 1 : (this.piles.get(h.from)?.size ?? 0) - h.count;  // a move's cards from below the top say their place
        const some = h.kind === "move" || h.kind === "discard" ? this.cardsFrom(h.from, first).slice(0, h.count) : [];
        if (some.length) some.forEach((c) => c.classList.add("hint-from"));
        else from.classList.add("hint-from");
      }
      if (h.to) this.pileEl(h.to)?.classList.add("hint-to");
    }
  }

  pileEl(tag) {
    return this.root.querySelector(`.pile[data-pile="${CSS.escape(tag)}"]`);
  }

  cardsFrom(tag, index) {
    const p = this.pileEl(tag);
    return p ? [...p.querySelectorAll(".card")].filter((c) => Number(c.dataset.index) >= index) : [];
  }

  // -- pressing, dragging and clicking --------------------------------------------------------------------

  /** A face-up card the player may pick up, with the pile it lies in and the cards it takes (picks.js), or null. */
  pickable(target) {
    const card = target.closest(".card");
    const pileEl = target.closest(".pile");
    if (!card || !pileEl || !card.classList.contains("face")) return null;
    const pile = this.piles.get(pileEl.dataset.pile);
    return {card, pileEl, pile, ...pickAt(this.state, pile, Number(card.dataset.index))};
  }

  pointerDown(e) {
    if (e.button !== 0 || !this.state) return;
    const pick = this.pickable(e.target);
    if (!pick) return;
    this.press = {...pick, x: e.clientX, y: e.clientY, id: e.pointerId};
    window.addEventListener("pointermove", this.moveListener);
    window.addEventListener("pointerup", this.upListener);
    window.addEventListener("pointercancel", this.cancelListener);
  }

  pointerMove(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    if (!this.drag) {
      if (Math.hypot(dx, dy) < DRAG_START) return;
      this.startDrag(p);
    }
    e.preventDefault();
    if (e.clientY < EDGE_SCROLL || e.clientY > window.innerHeight - EDGE_SCROLL) {  // near an edge: the page scrolls
      window.scrollBy(0, e.clientY < EDGE_SCROLL ? -12 : 12);  // the float is fixed: it stays under the pointer
    }
    this.drag.float.style.transform = `translate(${dx}px, ${dy}px)`;
    const over = this.dropTarget();
    if (over !== this.drag.over) {
      this.drag.over && this.pileEl(this.drag.over)?.classList.remove("over");
      this.drag.over = over;
      over && this.pileEl(over)?.classList.add("over");
    }
  }

  startDrag(p) {
    this.selection = null;  // a drag replaces a click's selection
    this.mark();
    const cards = this.cardsFrom(p.pile.tag, p.index).slice(0, p.count);
    const first = cards[0].getBoundingClientRect();
    const float = el("div", "drag-float");
    float.style.left = `${first.left}px`;
    float.style.top = `${first.top}px`;
    float.style.setProperty("--cw", `${this.cw}px`);
    float.style.setProperty("--ch", `${this.ch}px`);
    for (const c of cards) {
      const r = c.getBoundingClientRect();
      const copy = c.cloneNode(true);
      copy.removeAttribute("data-card-id");
      copy.style.left = `${r.left - first.left}px`;
      copy.style.top = `${r.top - first.top}px`;
      float.append(copy);
      c.classList.add("lifted");
    }
    document.body.append(float);
    this.drag = {float, cards, over: null, from: p.pile.tag, index: p.index, count: p.count};
    for (const to of targetsOf(this.state, this.drag)) this.pileEl(to)?.classList.add("target");
    this.root.classList.add("dragging");
  }

  /** The pile under the dragged cards: the one the top dragged card overlaps most, else the one under the pointer. */
  dropTarget() {
    const d = this.drag;
    const r = d.float.firstChild.getBoundingClientRect();
    let best = null, most = 0;
    for (const pileEl of this.root.querySelectorAll(".pile")) {
      if (pileEl.dataset.pile === d.from) continue;
      const q = pileEl.getBoundingClientRect();
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (w > 0 && h > 0 && w * h > most) {
        most = w * h;
        best = pileEl.dataset.pile;
      }
    }
    return best;
  }

  pointerUp(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    const drag = this.drag;
    let to = null;
    if (drag) {
      to = this.dropTarget();
      if (!to) {
        const under = document.elementFromPoint(e.clientX, e.clientY)?.closest?.(".pile");
        if (under && under.dataset.pile !== drag.from) to = under.dataset.pile;
      }
      this.suppressClick = true;
      setTimeout(() => { this.suppressClick = false; }, 0);
    }
    this.cancelPress();
    if (drag && to) this.on.move(moveFor(this.state, drag, to));
    else if (drag) this.mark();
  }

  cancelPress() {
    window.removeEventListener("pointermove", this.moveListener);
    window.removeEventListener("pointerup", this.upListener);
    window.removeEventListener("pointercancel", this.cancelListener);
    if (this.drag) {
      this.drag.float.remove();
      for (const c of this.drag.cards) c.classList.remove("lifted");
      this.root.querySelectorAll(".over, .target").forEach((x) => x.classList.remove("over", "target"));
      this.root.classList.remove("dragging");
    }
    this.press = null;
    this.drag = null;
  }

  click(e) {
    if (this.suppressClick || !this.state) return;
    const pileEl = e.target.closest(".pile");
    if (!pileEl) {
      this.select(null);
      return;
    }
    this.clickPile(pileEl, e.target.closest(".card"));
  }

  clickPile(pileEl, cardEl) {
    const tag = pileEl.dataset.pile;
    const pile = this.piles.get(tag);
    const sel = this.selection;
    const faceUp = cardEl && cardEl.classList.contains("face");
    if (this.stocks.has(tag) && !faceUp && !sel) {
      this.on.deal(tag);
      return;
    }
    if (sel && sel.from !== tag) {
      this.select(null);
      this.on.move(sel.range ? {text: this.discardText(sel)} : moveFor(this.state, sel, tag));
      return;
    }
    if (sel && sel.range && faceUp) {  // a line's cards: a click outside the range stretches it, inside starts anew
      const i = Number(cardEl.dataset.index);
      if (i === sel.index && sel.count === 1) this.select(null);
      else if (i >= sel.index && i < sel.index + sel.count) this.select({from: tag, index: i, count: 1, range: true});
      else {
        const a = Math.min(sel.index, i), b = Math.max(sel.index + sel.count - 1, i);
        this.select({from: tag, index: a, count: b - a + 1, range: true});
      }
      return;
    }
    if (sel && (!faceUp || Number(cardEl.dataset.index) === sel.index)) {
      this.select(null);
      return;
    }
    if (faceUp) {
      const index = Number(cardEl.dataset.index);
      if (this.ranged(pile)) this.select({from: tag, index, count: 1, range: true});
      else this.select(pickAt(this.state, pile, index));
    }
  }

  /** A line whose neighbouring cards are discarded together (Decade): its cards are picked as a range. */
  ranged(pile) {
    return pile.role === "line" && this.state.groups.some((g) => g.role === "discard");
  }

  /** The legal discards of a picked range of a line. */
  discards(sel) {
    return this.state.legal.filter((m) => m.kind === "discard" && m.from === sel.from && m.start === sel.index + 1 && m.count === sel.count);
  }

  /** The text that discards a picked range: `l 2-4`, as typed in `kallisti play`. */
  discardText(sel) {
    const legal = this.discards(sel);
    return legal.length ? legal[0].text : `${sel.from} ${sel.index + 1}-${sel.index + sel.count}`;
  }

  /** Select a card (and those above it) to move with the next click, or drop the selection (null). */
  select(sel) {
    this.selection = sel;
    this.mark();
    if (sel && sel.range) {
      const cards = this.piles.get(sel.from).cards.slice(sel.index, sel.index + sel.count).map((c) => c.text).join(" ");
      this.on.select(`${cards} selected (${sel.from} ${sel.index + 1}-${sel.index + sel.count}): ` +
        (this.discards(sel).length ? "click the discard pile to discard them" : "click more cards of the line, or the discard pile to hear why not"));
    } else if (sel) {
      const cards = this.piles.get(sel.from).cards.slice(sel.index, sel.index + sel.count).map((c) => c.text).join(" ");
      const to = targetsOf(this.state, sel);
      const top = sel.index + sel.count === this.piles.get(sel.from).size;
      this.on.select(`${cards} from ${top ? sel.from : `${sel.from}@${sel.index + 1}`} selected: ` +
        (to.length ? `it may go to ${to.join(", ")}; click where it goes` : "no pile takes it now (click a pile to hear why)"));
    } else {
      this.on.select(null);
    }
  }

  doubleClick(e) {
    const pick = this.pickable(e.target);
    if (!pick || pick.count !== 1) return;
    e.preventDefault();
    this.select(null);
    this.on.foundation(pick.pile.tag, pick.index);
  }

  /** Keyboard play on a focused pile: Enter or Space acts as a click on its top card; Escape drops the selection. */
  key(e) {
    if (e.key === "Escape") {
      this.select(null);
      return;
    }
    const pileEl = e.target.closest?.(".pile");
    if (!pileEl) return;
    if (/^(Arrow(Left|Right|Up|Down)|Home|End)$/.test(e.key)) {
      e.preventDefault();
      const next = this.neighbour(pileEl, e.key);
      if (next) {
        this.cursor = next.dataset.pile;
        this.roving();
        next.focus();
      }
      return;
    }
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    this.cursor = pileEl.dataset.pile;
    const cards = pileEl.querySelectorAll(".card");
    let cardEl = cards.length ? cards[cards.length - 1] : null;
    // A selected pile's next press, on the same pile, picks one more card of its run.
    const sel = this.selection;
    if (sel && sel.from === pileEl.dataset.pile) {
      const lower = [...cards].find((c) => Number(c.dataset.index) === sel.index - 1);
      cardEl = lower && lower.classList.contains("face") ? lower : null;
    }
    this.clickPile(pileEl, cardEl);
  }
}
