// Beside the table: the honour rule due, and for a match (Discordian Solitaire) its seats, scores, the rules
// imposed on each player, whose move it is, Player X's rule-change editor with live validation, and the turns.

const CHECK_PAUSE = 400;  // ms of quiet typing before a rule change is checked

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function button(text, cls, onClick, attrs = {}) {
  const b = el("button", cls, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  return b;
}

/** "line 1, column 44" findings as "1:44 message", with the line typed and a caret under the column. */
function findingElement(f, text) {
  const li = el("li", `finding ${f.severity || "error"}`);
  li.dataset.code = f.code || "";
  const where = f.line != null ? `${f.line}:${f.column}` : "";
  if (where) li.append(el("span", "where", where), " ");
  li.append(el("span", "what", f.message));
  // The suggestion is a sentence of its own ("did you mean 'count'?"); the code, the finding's name, stands apart.
  if (f.suggestion) li.append(" ", el("span", "suggestion", `(${f.suggestion.replace(/[.]$/, "")})`));
  if (f.code) li.append(" ", el("code", "code", `[${f.code}]`));
  if (f.line != null && f.column != null) {
    const line = text.split("\n")[f.line - 1];
    if (line != null) {  // the line typed, cut to a window round the column, and a caret under it
      const col = Math.max(f.column - 1, 0);
      const from = Math.max(0, col - 26);
      const cut = (from ? "…" : "") + line.slice(from, from + 40) + (line.length > from + 40 ? "…" : "");
      const pre = el("pre", "caret");
      pre.textContent = `${cut}\n${" ".repeat(col - from + (from ? 1 : 0))}^`;
      li.append(pre);
    }
  }
  return li;
}

function diffElement(lines, cls = "diff") {
  const pre = el("pre", cls);
  for (const line of lines) {
    const kind = line.startsWith("+") ? "add" : line.startsWith("-") ? "remove" : line.startsWith("~") ? "change" : "";
    const span = el("span", kind, line);
    pre.append(span, "\n");
  }
  return pre;
}

/** What the match waits for, in the page's words (the API's `says` is worded for the terminal). */
export function waitingText(m) {
  const w = m.waiting;
  const name = w.name;
  switch (w.what) {
    case "ack": return `${name}: acknowledge the honour rule`;
    case "shuffle": return `${name}: shuffle the pack, or keep its order`;
    case "move": return `${name} to play`;
    case "player-x": return `Player X (${name}): change one rule for ${m.seats[m.current].name}, or pass`;
    case "over":
      if (!m.result) return "the match is over";
      return `match over: ${m.result.draw ? "a draw" : `${m.result.loser_name} loses`}: ${m.result.reason}`;
    default: return w.says;
  }
}

/**
 * The rule-change editor: a text area checked as the player types (`check(text)` resolves to the API's
 * rule/check answer) and an Apply button (`apply(text)` resolves to {ok, findings}).
 */
export class RuleEditor {
  constructor({heading, intro, check, apply, extra = []}) {
    this.check = check;
    this.apply = apply;
    this.seq = 0;
    this.timer = null;
    this.busy = false;
    this.again = false;
    const box = el("section", "rule-editor");
    box.setAttribute("aria-label", heading);
    box.append(el("h3", null, heading));
    if (intro) box.append(el("p", "intro", intro));
    const id = `rule-text-${Math.random().toString(36).slice(2, 8)}`;
    const label = el("label", "sr-only", "rule change");
    label.htmlFor = id;
    this.area = el("textarea", "rule-text");
    this.area.id = id;
    this.area.rows = 3;
    this.area.spellcheck = false;
    this.area.placeholder = 'set field.count 5\nforbid foundation.build "black on black": card.color == black and top.color == black';
    this.area.setAttribute("aria-describedby", `${id}-status`);
    this.area.addEventListener("input", () => this.typed());
    this.area.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.submit();
      }
    });
    this.status = el("div", "rule-status");
    this.status.id = `${id}-status`;
    this.status.setAttribute("aria-live", "polite");
    this.status.dataset.state = "empty";
    this.applyButton = button("Apply", "primary apply", () => this.submit());
    this.applyButton.disabled = true;
    const buttons = el("div", "buttons");
    buttons.append(this.applyButton, ...extra);
    box.append(label, this.area, buttons, this.status);
    this.element = box;
  }

  typed() {
    clearTimeout(this.timer);
    const text = this.area.value;
    if (!text.trim()) {
      this.seq++;
      this.show("empty", []);
      return;
    }
    this.status.dataset.state = "checking";
    this.applyButton.disabled = true;
    this.timer = setTimeout(() => this.runCheck(), CHECK_PAUSE);
  }

  async runCheck() {
    if (this.busy) {  // one check at a time: the newest text is checked when this one answers
      this.again = true;
      return;
    }
    const text = this.area.value;
    if (!text.trim()) return;
    const seq = ++this.seq;
    this.busy = true;
    let answer;
    try {
      answer = await this.check(text);
    } finally {
      this.busy = false;
    }
    if (this.again) {
      this.again = false;
      this.runCheck();
      return;
    }
    if (seq !== this.seq || text !== this.area.value) return;  // the text changed meanwhile
    this.show(answer.ok ? "valid" : "invalid", answer.findings || [], answer.diff || [], text);
  }

  /** Show the verdict: `state` empty, checking, valid, invalid, applied. */
  show(state, findings, diff = [], text = this.area.value, said = "") {
    const s = this.status;
    s.replaceChildren();
    s.dataset.state = state;
    this.applyButton.disabled = state !== "valid";
    if (state === "valid") s.append(el("p", "verdict ok", "✓ a valid change; it would do this:"));
    if (state === "invalid") s.append(el("p", "verdict bad", "✗ this change would be refused:"));
    if (state === "applied") s.append(el("p", "verdict ok", said || "✓ applied"));
    if (findings.length) {
      const ul = el("ul", "findings");
      for (const f of findings) ul.append(findingElement(f, text));
      s.append(ul);
    }
    if (diff.length) s.append(diffElement(diff, "diff preview"));
  }

  async submit() {
    const text = this.area.value;
    if (!text.trim()) return;
    clearTimeout(this.timer);
    this.applyButton.disabled = true;
    const r = await this.apply(text);
    if (r.ok) {
      this.area.value = "";
      this.show("applied", r.findings || [], r.diff || [], text, r.said);
    } else {
      this.show("invalid", r.findings || [], [], text);
    }
  }
}

/**
 * The side panel. `act(path, body)` sends an action of the session (acknowledge, shuffle, pass, revoke, rule)
 * and resolves to the API's answer; `check(text)` checks a rule change.
 */
export class Side {
  constructor(root, {act, check}) {
    this.root = root;
    this.act = act;
    this.check = check;
    this.editor = null;
    this.editorKey = null;
  }

  render(state, log, about = null) {
    const root = this.root;
    const keep = this.editor && this.editorKey === this.keyFor(state) ? this.editor : null;
    root.replaceChildren();
    if (state.match) this.renderMatch(state, keep);
    else this.renderPatience(state, keep);
    if (about) root.append(this.aboutBox(about));
    if (log && log.length) {
      const box = el("section", "log");
      box.append(el("h3", null, "What happened"));
      const ol = el("ol");
      for (const line of log.slice(-12)) ol.append(el("li", line.kind || "", line.text));
      box.append(ol);
      root.append(box);
      requestAnimationFrame(() => { ol.scrollTop = ol.scrollHeight; });  // the latest in view, the page unmoved
    }
  }

  /** The game's goal, its rules in short (both from its rule book) and a link to the whole rule book. */
  aboutBox(about) {
    const box = el("section", "about");
    box.setAttribute("aria-label", "the game");
    box.append(el("h3", null, `${about.title}: the goal`));
    if (about.goal) box.append(el("p", "goal", about.goal));
    if (about.rules && about.rules.length) {
      const details = el("details", "rules-short");
      details.append(el("summary", null, "The rules in short"));
      const ul = el("ul");
      for (const line of about.rules) ul.append(el("li", null, line));
      details.append(ul);
      box.append(details);
    }
    const a = el("a", "rule-book", "The whole rule book");
    a.href = about.rule_book;
    a.target = "_blank";
    a.rel = "noopener";
    const p = el("p");
    p.append(a);
    box.append(p);
    return box;
  }

  keyFor(state) {
    const m = state.match;
    return m ? `${state.id}/${m.turn}/${m.waiting.what}/${m.waiting.seat}` : `${state.id}/patience`;
  }

  honourBox(honour, who) {
    const box = el("section", "honour");
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-label", "honour rule");
    box.append(el("h3", null, who ? `Honour rule for ${who}` : "Honour rule"));
    box.append(el("p", "says", honour.says));
    box.append(el("p", "moment", `at ${honour.at.replace(/-/g, " ")}: do it, then acknowledge`));
    box.append(button("Acknowledge", "primary acknowledge", () => this.act("acknowledge")));
    return box;
  }

  renderPatience(state, keep) {
    if (state.honour) this.root.append(this.honourBox(state.honour));
    const details = el("details", "patience-rules");
    details.append(el("summary", null, "Change a rule"));
    const editor = keep || new RuleEditor({
      heading: "A rule change for this game",
      intro: "Play goes on under the changed rules from the next move; Undo takes the change back.",
      check: (text) => this.check(text),
      apply: (text) => this.applyRule(text),
    });
    if (keep && keep.area.value) details.open = true;
    details.append(editor.element);
    this.editor = editor;
    this.editorKey = this.keyFor(state);
    this.root.append(details);
  }

  async applyRule(text) {
    const r = await this.act("rule", {text});
    const d = r.data || {};
    return {ok: !!d.ok, findings: d.findings || (d.error && d.error.findings) || [], diff: d.diff || [],
      said: (d.said || []).join("; ")};
  }

  renderMatch(state, keep) {
    const m = state.match;
    const root = this.root;
    const w = m.waiting;
    const who = (seat) => m.seats[seat];
    const person = w.seat != null && !who(w.seat).bot;

    const head = el("section", "match-head");
    head.append(el("h2", null, `Turn ${m.turn}`));
    const waits = el("p", `waiting what-${w.what}`, waitingText(m));
    waits.dataset.what = w.what;
    head.append(waits);
    root.append(head);

    // What the match waits for from a person at this browser.
    if (w.what === "ack" && w.honour) root.append(this.honourBox(w.honour, w.name));
    if (w.what === "shuffle" && person) {
      const box = el("section", "choice");
      box.append(el("h3", null, `${w.name}: shuffle first?`));
      box.append(button("Shuffle", "primary", () => this.act("shuffle", {shuffle: true})),
        button("Keep the order", "", () => this.act("shuffle", {shuffle: false})));
      root.append(box);
    }
    if (w.what === "player-x" && person) root.append(this.playerX(state, keep));
    else {
      this.editor = null;
      this.editorKey = null;
    }

    const seats = el("section", "seats");
    seats.setAttribute("aria-label", "players");
    for (const s of m.seats) {
      const card = el("article", "seat");
      card.dataset.seat = String(s.seat);
      if (s.seat === m.current && w.what !== "over") card.classList.add("current");
      if (m.result && m.result.loser === s.seat) card.classList.add("loser");
      const h = el("h3");
      h.append(el("span", "name", s.name));
      if (s.bot) h.append(el("span", "badge", `bot · ${s.strategy}`));
      if (s.seat === m.player_x && w.what === "player-x") h.append(el("span", "badge x", "Player X"));
      if (s.seat === m.current && w.what === "move") h.append(el("span", "badge playing", "playing"));
      card.append(h);
      const score = el("p", "total");
      score.append(el("strong", "points", String(s.total)), ` points · loses at ${s.loses_at} · ${s.turns} turn${s.turns === 1 ? "" : "s"}`);
      const bar = el("span", "meter");
      const start = -23;
      const frac = Math.max(0, Math.min(1, (s.total - start) / (s.loses_at - start)));
      bar.style.setProperty("--fill", `${Math.round(frac * 100)}%`);
      bar.setAttribute("aria-hidden", "true");
      card.append(score, bar);
      card.append(el("h4", null, `Rules imposed on ${s.name}`));
      const active = s.changes.filter((c) => c.active);
      if (!s.changes.length) card.append(el("p", "base", "the base rules"));
      else {
        const ul = el("ul", "changes");
        for (const c of s.changes) {
          const li = el("li", c.active ? "change" : "change revoked");
          li.dataset.change = c.id;
          li.append(el("code", "id", c.id), " ", el("span", "text", c.text));
          li.append(el("span", "by", ` by ${who(c.by).name} after turn ${c.after_turn}${c.active ? "" : " (revoked)"}`));
          ul.append(li);
        }
        card.append(ul);
        if (!active.length) card.append(el("p", "base", "the base rules again"));
      }
      if (s.diff.length) {
        const det = el("details", "rules-diff");
        det.append(el("summary", null, "against the base rules"), diffElement(s.diff));
        card.append(det);
      }
      seats.append(card);
    }
    root.append(seats);

    if (m.turns.length) {
      const box = el("section", "turns");
      box.append(el("h3", null, "Turns"));
      const table = el("table");
      const head = el("tr");
      for (const t of ["#", "player", "score", "total"]) head.append(el("th", null, t));
      table.append(head);
      for (const t of m.turns.slice(-8)) {
        const tr = el("tr");
        tr.title = t.reason;
        for (const v of [t.turn, who(t.seat).name, t.score, t.total]) tr.append(el("td", null, String(v)));
        table.append(tr);
      }
      box.append(table);
      root.append(box);
    }
  }

  playerX(state, keep) {
    const m = state.match;
    const w = m.waiting;
    const target = m.seats[m.current];
    const box = el("section", "player-x");
    const pass = button("Pass", "pass", () => this.act("pass"));
    const editor = keep || new RuleEditor({
      heading: `Player X: ${w.name}`,
      intro: `Change one rule for ${target.name}, from hir next turn; it is checked as you type.`,
      check: (text) => this.check(text),
      apply: (text) => this.applyRule(text),
      extra: [pass],
    });
    if (!m.may_change) {
      editor.area.disabled = true;
      editor.applyButton.disabled = true;
    }
    this.editor = editor;
    this.editorKey = this.keyFor(state);
    box.append(editor.element);
    if (m.revokable.length) {
      const r = el("div", "revoke");
      r.append(el("h4", null, `Or take back a change ${target.name} imposed on you`));
      for (const id of m.revokable) {
        const c = m.seats[w.seat].changes.find((x) => x.id === id);
        r.append(button(`Revoke ${id}${c ? `: ${c.text}` : ""}`, "revoke-button", () => this.act("revoke", {id})));
      }
      box.append(r);
    }
    return box;
  }
}

/** What the bots did, in lines: a run of one bot's moves in one line, each other action and each turn it ended in
 * a line of its own. */
export function botSummary(bot) {
  const out = [];
  let moves = [];
  let mover = null;
  const flush = () => {
    if (moves.length > 12) out.push(`${mover} plays ${moves.length} moves: ${moves.slice(0, 10).join(", ")}, …, ${moves[moves.length - 1]}`);
    else if (moves.length) out.push(`${mover} plays ${moves.join(", ")}`);
    moves = [];
  };
  for (const b of bot || []) {
    if (b.what === "move") {
      if (mover !== b.name) flush();
      mover = b.name;
      moves.push(b.detail);
    } else {
      flush();
      out.push(botLine(b));
    }
    if (b.said && b.said.length) {  // the turn it ended, in order: its score before the next player acts
      flush();
      out.push(...b.said);
    }
  }
  flush();
  return out;
}

/** A bot's action other than a move, in words ("you" is spoken to). */
function botLine(b) {
  const acknowledges = b.name.trim().toLowerCase() === "you" ? "acknowledge" : "acknowledges";
  return b.what === "ack" ? `${b.name} ${acknowledges}: ${b.detail}` : `${b.name} ${b.what === "player-x" ? "(Player X) " : ""}${b.detail}`;
}
