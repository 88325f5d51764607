// The page of `kallisti serve`: the list of games, the toolbar, the table and the side panel, wired to the
// JSON API (docs/web.md). The address says what is played, `#forty-thieves/7` (game and deal number), so it
// can be shared; `#discordian/3?players=ann,bob` names the players of a match.

import {api, trouble} from "./api.js";
import {homeMove} from "./picks.js";
import {Table} from "./table.js";
import {Side, botSummary, waitingText} from "./match.js";

const $ = (id) => document.getElementById(id);

const app = {
  games: [],
  byName: new Map(),
  id: null,          // the session
  state: null,
  players: null,     // the players asked for (a match), as typed
  log: [],           // what happened, for the side panel
  wonShown: null,    // the session whose win was celebrated
  statsShown: null,  // the session and move count whose end the statistics were fetched for
  hash: "",
  hinting: false,    // a hint request is out
  shown: 0,          // states drawn so far: the page's <body data-shown>, which tests wait on
  about: new Map(),  // each game's goal, rules in short and rule book (GET /api/games/NAME), once fetched
  skip: null,        // while a bot's turn is played out: what skips to its end
};

const BOT_STEP_MS = 350;   // a bot's move stays on the table this long while its turn is played out...
const BOT_TURN_MS = 6000;  // ...or less, so that a whole turn plays out within this

const table = new Table($("table"), {
  move: (m) => move(m.text ? {text: m.text} : {from: m.from, to: m.to, count: m.count}),
  deal: () => act("deal"),
  foundation: (tag, index) => toFoundation(tag, index),
  select: (text) => (text ? say(text, "info") : null),
});

const side = new Side($("side"), {
  act: (path, body) => act(path, body),
  check: async (text) => {
    const r = await api("POST", `/sessions/${app.id}/rule/check`, {text});
    if (r.status === 200) return r.data;
    return {ok: false, findings: [{line: null, column: null, message: trouble(r), severity: "error"}], diff: []};
  },
});

// -- messages -------------------------------------------------------------------------------------------

/** Show one message in the status line (an aria-live region): kind info, done, refused, hint, won. */
function say(text, kind = "info") {
  const m = $("message");
  m.textContent = text;
  m.dataset.kind = kind;
  m.classList.remove("flash");
  void m.offsetWidth;  // restart the animation
  m.classList.add("flash");
}

function note(text, kind = "") {
  app.log.push({text, kind});
  if (app.log.length > 60) app.log.splice(0, app.log.length - 60);
}

/** A bot's turn played out on the table, move by move at a readable pace, until its end or a skip; then each of
 * its other actions (a rule change, the turn's score) is said in order. */
async function playOut(state, bot) {
  const steps = (bot || []).filter((b) => b.piles).length;
  if (!steps) return;
  const pace = Math.min(BOT_STEP_MS, BOT_TURN_MS / steps);
  let skipped = false;
  let wake = null;
  app.skip = () => { skipped = true; if (wake) wake(); };
  $("bot-turn").hidden = false;
  try {
    for (const b of bot) {
      if (skipped) break;
      if (!b.piles) continue;
      table.render({...state, piles: b.piles, legal: []}, {animate: true});
      say(`${b.name} plays ${b.detail}`, "info");
      await new Promise((resolve) => { wake = resolve; setTimeout(resolve, pace); });
    }
  } finally {
    app.skip = null;
    $("bot-turn").hidden = true;
  }
}

// -- the games ------------------------------------------------------------------------------------------

async function loadGames() {
  const r = await api("GET", "/games");
  if (r.status !== 200) {
    say(trouble(r), "refused");
    return null;
  }
  app.games = r.data.games;
  app.byName = new Map(app.games.map((g) => [g.name, g]));
  const list = $("game-list");
  list.replaceChildren();
  for (const g of app.games) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = `game-tile kind-${g.kind}`;
    b.dataset.game = g.name;
    const title = document.createElement("span");
    title.className = "title";
    title.textContent = g.title;
    const kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = g.kind === "match" ? `${g.players} players, rule changes` : g.kind === "patience" ? "patience" : `${g.players} seats`;
    const desc = document.createElement("span");
    desc.className = "desc";
    const lead = firstSentence(g.description);
    desc.textContent = g.playable ? lead : `Played in the terminal: kallisti play ${g.name}. ${lead}`;
    b.append(title, kind, desc);
    b.disabled = !g.playable;
    b.addEventListener("click", () => open(g.name));
    li.append(b);
    if (lead !== g.description) {  // the whole description, a click away
      const more = document.createElement("details");
      more.className = "game-more";
      const summary = document.createElement("summary");
      summary.textContent = "The whole description";
      const p = document.createElement("p");
      p.textContent = g.description;
      more.append(summary, p);
      li.append(more);
    }
    list.append(li);
  }
  return r.data;
}

/** The first sentence of a description (all of it when it has no full stop). */
function firstSentence(text) {
  const m = /^(.+?[.!?])(\s|$)/.exec(text || "");
  return m ? m[1] : text || "";
}

/** A game's goal, its rules in short and the address of its rule book, fetched once, beside the actions' queue
 * (it changes nothing); when it comes, the side panel shows it, and the opening line says the goal. */
async function about(name) {
  if (app.about.has(name)) return;
  let data;
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(name)}`, {headers: {Accept: "application/json"}});
    if (!res.ok) return;
    data = await res.json();
  } catch (err) {
    return;  // the game plays on without it
  }
  app.about.set(name, data);
  const s = app.state;
  if (!s || s.game !== name) return;
  side.render(s, app.log, data);
  if (app.opening && $("message").textContent === app.opening) say(openingLine(s, app.where), "info");
}

/** What the status line says when a game opens: the game, its number, its goal and how to play. */
function openingLine(state, where = "") {
  app.where = where;
  app.opening = `${state.title}, game ${state.seed}${where ? `, ${where}` : ""}: ${helpText(state)}`;
  return app.opening;
}

function showGames() {
  app.id = null;
  app.state = null;
  $("games").hidden = false;
  $("play").hidden = true;
  $("toolbar").hidden = true;
  $("title").textContent = "Card games written as rules";
  $("game-number").textContent = "";
  $("share").hidden = true;
  $("score").textContent = "";
  $("status").textContent = "";
  document.title = "kallisti";
  hideBanner();
}

// -- the address ----------------------------------------------------------------------------------------

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch (err) {
    return text;
  }
}

/** `#forty-thieves/7` or `#discordian/3?players=ann,bob` as {game, seed, players}; null for no game. */
function parseHash(hash) {
  const h = hash.replace(/^#/, "");
  if (!h) return null;
  const q = h.indexOf("?");
  const [game, seed] = (q < 0 ? h : h.slice(0, q)).split("/").map(decode);
  const players = new URLSearchParams(q < 0 ? "" : h.slice(q + 1)).get("players") || undefined;
  return {game, seed: seed && /^\d+$/.test(seed) ? Number(seed) : undefined, players};
}

/** The address of a deal; a game named by a file path keeps its slashes escaped. */
function hashFor(state, players) {
  let h = `#${encodeURIComponent(state.game)}/${state.seed}`;
  if (players) h += `?players=${players.split(",").map((p) => encodeURIComponent(p.trim()).replace(/%3A/gi, ":")).join(",")}`;
  return h;
}

function shareUrl() {
  return `${location.origin}${location.pathname}${app.hash}`;
}

async function route() {
  const want = parseHash(location.hash);
  if (want && want.game) {
    if (app.state && location.hash === app.hash) return;
    if (await resume(location.hash, want)) return;
    await open(want.game, want.seed, want.players);
    return;
  }
  showGames();
}

/** After a reload, the deal this tab was playing at this address, if the server still has it. */
async function resume(hash, want) {
  let id = null;
  try {
    id = sessionStorage.getItem(`kallisti:${hash}`);
  } catch (err) {
    return false;
  }
  if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return false;
  const r = await api("GET", `/sessions/${id}`);
  if (r.status !== 200 || r.data.game !== want.game || (want.seed !== undefined && r.data.seed !== want.seed)) return false;
  enter(r.data, want.players || null, [], [], true);
  about(r.data.game);
  const st = r.data;
  const where = st.status === "won" ? "won" : st.status === "lost" ? `lost (${st.reason})` :
    st.status === "over" ? "over" : "as you left it";
  if (st.status === "playing") say(openingLine(st, where), "info");
  else say(`${st.title}, game ${st.seed}, ${where}: undo, or deal again`, "refused");
  table.focus();
  return true;
}

// -- sessions -------------------------------------------------------------------------------------------

async function open(name, seed, players) {
  const g = app.byName.get(name);
  if (!g) {
    showGames();
    say(`no game '${name}' here; choose one of the list`, "refused");
    return;
  }
  const body = {game: name};
  if (seed !== undefined && seed !== null && seed !== "") body.seed = Number(seed);
  if (players && g.kind === "match") body.players = players;
  say(`dealing ${g.title}…`, "info");
  const r = await api("POST", "/sessions", body);
  if (r.status !== 201) {
    say(trouble(r), "refused");
    return;
  }
  if (app.id) api("DELETE", `/sessions/${app.id}`);  // the old deal is done with
  enter(r.data.state, g.kind === "match" ? (players || null) : null, r.data.said, r.data.bot);
  say(openingLine(r.data.state), "info");
  about(name);
  table.focus();  // the keyboard plays at once: arrow keys, Enter
}

/** Play the session whose state is `state` (`said` and `bot`: what its creation brought about). */
function enter(state, players, said, bot, resumed = false) {
  app.id = state.id;
  app.players = players;
  app.log = [];
  // A deal won before a reload is not celebrated again.
  app.wonShown = resumed && (state.status === "won" || state.status === "over") ? state.id : null;
  hideBanner();
  for (const line of botSummary(bot)) note(line, "bot");
  for (const line of said || []) note(line);
  show(state);
  $("games").hidden = true;
  $("play").hidden = false;
  $("toolbar").hidden = false;
  $("seed").value = String(state.seed);
  $("players").value = app.players || "you, bot";
}

function helpText(state) {
  const goal = app.about.get(state.game)?.goal || "";
  if (state.kind === "match") return [goal, state.match ? waitingText(state.match) : ""].filter(Boolean).join(" ");
  const has = (role) => state.groups.some((g) => g.role === role);
  if (has("line") && has("discard")) return `${goal} Click the first and the last card of a run of the line, then the discard pile`.trim();
  const home = has("foundation") ? "; double-click sends it to a foundation" : "";
  return `${goal} Drag a card to move it, or click it and then click where it goes${home}`.trim();
}

/** Send an action (`move`, `undo`, `deal`, `acknowledge`, `rule`, ...) and show what came of it. */
async function act(path, body = {}) {
  if (!app.id) return {status: 0, data: {}};
  const r = await api("POST", `/sessions/${app.id}/${path}`, body);
  const d = r.data || {};
  if (d.error && d.error.code === "unknown-session") {
    say(`this deal is no longer on the server (${d.error.message}); dealing it again`, "refused");
    await open(app.state.game, app.state.seed, app.players);
    return r;
  }
  for (const line of d.said || []) note(line);
  for (const line of botSummary(d.bot)) note(line, "bot");
  if (d.ok && d.state) await playOut(d.state, d.bot);
  if (d.ok) {
    const lines = [...(d.said || []), ...botSummary(d.bot)];
    say(lines.map((line) => line.replace(/[.]$/, "")).join("; ") || "done", "done");
  } else if (path !== "rule") {
    note(`refused: ${trouble(r)}`, "refused");
    say(trouble(r), "refused");
  } else {
    say(trouble(r), "refused");
  }
  if (d.state) show(d.state, {animate: !!d.ok, from: movedFrom(path, body)});
  return r;
}

/** The pile an action takes cards from, where cards newly shown start their way (a deal's stock). */
function movedFrom(path, body) {
  if (path === "deal") return app.state?.piles.find((p) => p.role === "stock")?.tag || null;
  if (path === "move") return body.from || (body.text || "").trim().split(/[\s@]+/)[0] || null;
  return null;
}

function move(m) {
  return act("move", m);
}

/** Double-click: the card at place `index` of pile `tag` to a foundation (picks.js), or the engine's word why not. */
function toFoundation(tag, index) {
  const body = homeMove(app.state, tag, index);
  if (body) return act("move", body);
  say("this game has no foundation", "refused");
  return null;
}

async function hint() {
  if (!app.id || app.hinting) return;
  const asked = app.state;
  app.hinting = true;
  $("hint").setAttribute("aria-busy", "true");
  say("hint: thinking…", "info");  // the solver may search for a while
  let r;
  try {
    r = await api("GET", `/sessions/${app.id}/hint`);
  } finally {
    app.hinting = false;
    $("hint").removeAttribute("aria-busy");
  }
  if (app.state !== asked) return;  // the game moved on while the hint was worked out: it is stale
  if (r.status !== 200) {
    say(trouble(r), "refused");
    return;
  }
  const {move: m, why} = r.data;
  if (!m) {
    say(`hint: ${why}`, "hint");
    return;
  }
  table.render(app.state, {hint: m, note: tableNote(app.state)});
  say(`hint: ${m.text} — ${m.says} (${why})`, "hint");
}

// -- drawing --------------------------------------------------------------------------------------------

function show(state, {animate = false, from = null} = {}) {
  app.state = state;
  app.hash = hashFor(state, app.players);
  if (location.hash !== app.hash) history.replaceState(null, "", app.hash);
  try {
    sessionStorage.setItem(`kallisti:${app.hash}`, state.id);
  } catch (err) { /* storage off: a reload deals again */ }
  $("title").textContent = state.title;
  document.title = `${state.title} #${state.seed} · kallisti`;
  $("game-number").textContent = `game ${state.seed}`;
  const share = $("share");
  share.hidden = false;
  share.href = app.hash;
  share.textContent = `link: ${app.hash}`;
  share.title = shareUrl();
  document.body.dataset.session = state.id;
  document.body.dataset.game = state.game;
  document.body.dataset.moves = String(state.moves_made);
  document.body.dataset.status = state.status;
  document.body.dataset.shown = String(++app.shown);
  $("play").classList.toggle("is-match", !!state.match);
  $("players-field").hidden = state.kind !== "match";
  const playing = state.kind === "match" ? state.match && state.match.waiting.what === "move" : state.status === "playing";
  $("undo").disabled = !state.can_undo;
  $("redo").disabled = !state.can_redo;
  $("hint").disabled = !playing;
  $("auto").disabled = !playing;
  // Deal stays on while there is a stock, so that a deal the rules refuse says why (Spider: a space is left).
  const deal = state.legal.some((m) => m.kind === "deal" || m.kind === "redeal") || state.piles.some((p) => p.role === "stock");
  $("deal").disabled = !playing || !deal;
  const list = $("legal-moves");
  list.replaceChildren(...state.legal.map((m) => {
    const o = document.createElement("option");
    o.value = m.text;
    o.label = m.says;
    return o;
  }));
  const bits = [];
  // In a match, the score is that of the turn being played (not the last player's while Player X decides).
  if (state.score != null && (!state.match || state.match.waiting.what === "move")) bits.push(`score ${state.score}`);
  bits.push(`${state.moves_made} move${state.moves_made === 1 ? "" : "s"}`);
  if (state.status === "won") bits.push("won");
  if (state.status === "lost") bits.push(`lost: ${state.reason}`);
  $("score").textContent = bits.join(" · ");
  $("status").textContent = state.status;
  $("status").dataset.status = state.status;
  table.render(state, {note: tableNote(state), animate, from});
  side.render(state, app.log, app.about.get(state.game));
  const xTurn = !!(state.match && state.match.waiting.what === "player-x" && !state.match.seats[state.match.waiting.seat].bot);
  $("play").classList.toggle("x-turn", xTurn);
  if ((state.status === "won" || state.status === "lost") && !state.match && app.statsShown !== `${state.id} ${state.moves_made}`) {
    app.statsShown = `${state.id} ${state.moves_made}`;
    showStats(state.title);
  } else if (state.status === "playing" && app.statsShown) {
    app.statsShown = null;
    $("stats").textContent = "";
  }
  if (state.status === "won" && app.wonShown !== state.id) {
    app.wonShown = state.id;
    celebrate(`Won! ${state.title}, game ${state.seed}, in ${state.moves_made} moves`);
  } else if (state.status === "over" && state.match && state.match.result && app.wonShown !== state.id) {
    app.wonShown = state.id;
    const res = state.match.result;
    celebrate(res.draw ? `A draw: ${res.reason}` : `${res.loser_name} loses: ${res.reason}`);
  } else if (state.status === "lost") {
    say(`no way on: ${state.reason}. Undo, or deal again`, "refused");
  }
}

/** At a game's end: the player's record at that game, from the database `kallisti stats` reads (GET /api/stats;
 * the most recently played ruleset of that title first). A game lost is counted once it is left. */
async function showStats(title) {
  const r = await api("GET", `/stats?game=${encodeURIComponent(title)}`);
  const s = r.status === 200 && r.data.games ? r.data.games[0] : null;
  $("stats").textContent = s ? `· played ${s.played}, won ${s.won} (${Math.round(100 * s.win_rate)}%), ` +
    `streak ${s.current_streak}, best ${s.best_streak}` : "";
}

/** Over the table between the turns of a match: what the match waits for. */
function tableNote(state) {
  return state.match && state.match.waiting.what !== "move" ? waitingText(state.match) : "";
}

// -- the win --------------------------------------------------------------------------------------------

function celebrate(text) {
  const b = $("banner");
  $("banner-text").textContent = text;
  const rain = $("banner-rain");
  rain.replaceChildren();
  const suits = ["♠", "♥", "♦", "♣"];
  for (let i = 0; i < 36; i++) {
    const s = document.createElement("span");
    s.textContent = suits[i % 4];
    s.className = i % 4 === 1 || i % 4 === 2 ? "red" : "black";
    s.style.left = `${(i * 37) % 100}%`;
    s.style.animationDelay = `${(i % 9) * 0.23}s`;
    s.style.animationDuration = `${2.4 + (i % 5) * 0.35}s`;
    rain.append(s);
  }
  b.hidden = false;
  say(text, "won");
  $("banner-close").focus();
}

function hideBanner() {
  $("banner").hidden = true;
}

// -- controls -------------------------------------------------------------------------------------------

function wire() {
  $("home").addEventListener("click", () => {
    history.pushState(null, "", location.pathname + location.search.replace(/([?&])game=[^&]*&?/, "$1").replace(/[?&]$/, ""));
    showGames();
  });
  $("undo").addEventListener("click", () => act("undo"));
  $("redo").addEventListener("click", () => act("redo"));
  $("hint").addEventListener("click", hint);
  $("auto").addEventListener("click", () => act("auto"));
  $("deal").addEventListener("click", () => act("deal"));
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("move-text").value.trim();
    if (text) act("move", {text}).then((r) => { if (r.data && r.data.ok) $("move-text").value = ""; });
  });
  $("deal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (!app.state) return;
    const seed = $("seed").value.trim();
    const players = $("players").value.trim();
    open(app.state.game, seed === "" ? undefined : seed, players && app.state.kind === "match" ? players : undefined);
  });
  $("random-deal").addEventListener("click", () => {
    if (!app.state) return;
    const players = $("players").value.trim();
    open(app.state.game, undefined, players && app.state.kind === "match" ? players : undefined);
  });
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(shareUrl());
      say(`copied ${shareUrl()}`, "done");
    } catch (err) {
      say(`the link to this deal: ${shareUrl()}`, "info");
    }
  });
  $("menu-toggle").addEventListener("click", () => {
    const open = !$("toolbar").classList.contains("open");
    $("toolbar").classList.toggle("open", open);
    $("menu-toggle").setAttribute("aria-expanded", String(open));
  });
  $("skip-bot").addEventListener("click", () => app.skip && app.skip());
  $("banner-close").addEventListener("click", hideBanner);
  $("banner-new").addEventListener("click", () => {
    hideBanner();
    if (app.state) open(app.state.game, undefined, app.players || undefined);
  });
  window.addEventListener("hashchange", route);
  document.addEventListener("keydown", keys);
}

function typing(target) {
  return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** u undo, r redo (Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y too), h hint, d deal, a automatic moves, Escape. */
function keys(e) {
  if (e.key === "Escape") {
    if (app.skip) app.skip();
    hideBanner();
    if (table.selection) table.select(null);
    return;
  }
  if (typing(e.target) || e.altKey || e.metaKey || !app.state) return;
  const k = e.key.toLowerCase();
  let action = null;
  if (e.ctrlKey) {
    if (k === "z" && !e.shiftKey) action = () => act("undo");
    else if ((k === "z" && e.shiftKey) || k === "y") action = () => act("redo");
  } else if (k === "u") action = () => act("undo");
  else if (k === "r") action = () => act("redo");
  else if (k === "h") action = hint;
  else if (k === "d") action = () => act("deal");
  else if (k === "a") action = () => act("auto");
  if (action) {
    e.preventDefault();
    action();
  }
}

async function start() {
  wire();
  const listing = await loadGames();
  if (!listing) return;
  if (!location.hash) {
    const asked = new URLSearchParams(location.search).get("game") || listing.default;
    if (asked && app.byName.has(asked)) {
      await open(asked);
      return;
    }
  }
  await route();
}

start();
