// The game view shared by Gomoku, Go and UNO: loading, seats and tokens, the live
// stream, the status line, the share link, the common buttons and the AI's analysis.
// Each game's module draws its own table (board or cards) from the `ctx` given here.

import { api, seatTokens, saveToken, me, playerName } from "./api.js";
import { h, $, guard, showError, announce } from "./dom.js";
import { followGame } from "./live.js";
import * as gomoku from "./gomoku.js";
import * as go from "./go.js";
import * as uno from "./uno.js";

const MODULES = { gomoku, go, uno };
const STEP_MS = 450; // pause between changes that arrive together, so AI moves show one by one

let cur = null;

export function currentGame() { return cur; }

/** Opens a game: its view as our seat (if we hold one), then its stream. */
export async function openGame(kind, id, { join = false, invite = null } = {}) {
  closeGame();
  const mod = MODULES[kind];
  if (!mod) return showError(new Error(`Unknown game "${kind}".`));
  cur = {
    kind, id, mod, game: null, tokens: seatTokens(id), seat: null, follower: null,
    queue: [], pumping: false, log: [], analysis: null, streamState: "connecting",
    fallback: null, invite, ui: { inviteCode: sessionStorage.getItem(`parlor.invite.${id}`) },
  };
  const c = cur;
  c.seat = pickSeat(c);
  const game = await guard(() => api("GET", `/v1/${kind}/games/${id}`, { token: token(c, c.seat) }));
  if (c !== cur) return;
  if (!game) { renderMissing(); return; }
  c.game = game;
  c.log = describeAll(c, game.state.log || []);
  startStream(c);
  render();
  if (join && c.seat === null && openSeats(game).length) joinSeat(c);
}

export function closeGame() {
  if (!cur) return;
  cur.follower?.stop();
  clearTimeout(cur.fallback);
  cur = null;
}

const token = (c, seat) => (seat === null || seat === undefined ? null : c.tokens[seat] || null);
const mySeats = (c) => Object.keys(c.tokens).map(Number).sort((a, b) => a - b);
const openSeats = (game) => game.seats.filter((s) => s.kind === "open");
const finished = (game) => game.status === "finished" || game.status === "aborted";

// A hot-seat screen holds several seats: act as the one whose turn it is.
function pickSeat(c) {
  const seats = mySeats(c);
  if (!seats.length) return null;
  const turn = c.game?.turn;
  if (turn !== null && turn !== undefined && seats.includes(turn)) return turn;
  return seats.includes(c.seat) ? c.seat : seats[0];
}

function startStream(c) {
  c.streamSeat = c.seat;
  c.follower = followGame({
    kind: c.kind, id: c.id, token: token(c, c.seat),
    on: {
      // `game` comes first, and again (missed: true) when changes were lost: take it whole.
      game: (d) => enqueue(c, d.game, [], true),
      change: (d) => enqueue(c, d.game, d.events, false),
    },
    done: () => c !== cur || finished(c.game),
    onState: (st) => { c.streamState = st; const el = $("#stream-state"); if (el && c === cur) el.textContent = streamWords(st); },
  });
  c.follower.start();
}

const streamWords = (st) => st === "live" ? "Live" : st === "closed" ? "Stream closed" : st.startsWith("reconnecting") ? "Reconnecting…" : "Connecting…";

function enqueue(c, game, events, whole) {
  c.queue.push({ game, events, whole });
  if (!c.pumping) pump(c);
}

async function pump(c) {
  c.pumping = true;
  while (c.queue.length && c === cur) {
    const { game, events, whole } = c.queue.shift();
    apply(c, game, events, whole);
    if (c.queue.length) await new Promise((r) => setTimeout(r, STEP_MS));
  }
  c.pumping = false;
}

/** Takes a newer view of the game (from the stream or an answer) and redraws. */
function apply(c, game, events, whole = false) {
  if (c !== cur) return;
  if (c.game && game.version < c.game.version) return;
  if (c.game && game.version === c.game.version && !whole) return;
  c.game = game;
  if (events.length) {
    c.log.push(...describeAll(c, events));
    c.log = c.log.slice(-60);
    announce(describeAll(c, events).join(". "));
  }
  c.mod.onChange?.(ctx(c), events);
  // Hot seat: the turn may have passed to another seat we hold.
  const seat = pickSeat(c);
  if (seat !== c.seat) {
    c.seat = seat;
    // UNO shows a seat its own hand: follow the stream as the new seat.
    if (c.kind === "uno" && seat !== c.streamSeat) { switchStream(c); }
  }
  render();
}

async function switchStream(c) {
  c.follower?.stop();
  const g = await guard(() => api("GET", `/v1/${c.kind}/games/${c.id}`, { token: token(c, c.seat) }));
  if (c !== cur) return;
  if (g) { c.game = g; render(); }
  startStream(c);
}

/**
 * Sends a change (move, undo, ai-move …). The stream brings the same change to every
 * viewer, us included, one change at a time; the answer is applied directly only when
 * the stream lags behind (or is down), so AI moves still show one by one.
 */
async function send(c, path, body, seat = c.seat) {
  const answer = await guard(() => api("POST", `/v1/${c.kind}/games/${c.id}/${path}`, { body, token: token(c, seat) }));
  if (!answer || c !== cur) return answer;
  const game = answer.game;
  if (c.streamState === "live") {
    clearTimeout(c.fallback);
    c.fallback = setTimeout(() => { if (c === cur && c.game.version < game.version) apply(c, game, answer.events || []); }, 4000);
  } else {
    apply(c, game, answer.events || []);
  }
  return answer;
}

async function joinSeat(c) {
  const name = (c.ui.joinName ?? playerName()).trim();
  const body = me.key ? (name ? { name } : {}) : { name };
  if (c.invite) body.invite = c.invite;
  const r = await guard(() => api("POST", `/v1/${c.kind}/games/${c.id}/join`, { body, token: me.key || undefined }));
  if (!r || c !== cur) return;
  if (name && !me.key) me.name = name;
  takeSeat(c, r);
}

async function takeSeatBack(c, seat) {
  const r = await guard(() => api("POST", `/v1/${c.kind}/games/${c.id}/seats/${seat}/token`, { token: me.key }));
  if (!r || c !== cur) return;
  takeSeat(c, r);
}

/** Keeps the seat's token from a join or a take-back, and follows the game as that seat now. */
function takeSeat(c, r) {
  saveToken(c.id, r.seat, r.token);
  c.tokens = seatTokens(c.id);
  c.seat = r.seat;
  // The stream so far was another viewer's: follow it as the seat now.
  c.follower?.stop();
  c.game = r.game;
  startStream(c);
  render();
}

// ---- what the modules get ------------------------------------------------------------

// Getters, not copies: a handler kept from an earlier drawing (see fill) must act on
// the game as it is now.
function ctx(c) {
  const held = () => mySeats(c);
  const turnSeat = () => (held().includes(c.game.turn) ? c.game.turn : c.seat);
  return {
    get game() { return c.game; },
    get seat() { return c.seat; },
    get held() { return held(); },
    get myTurn() { return c.game.status === "active" && held().includes(c.game.turn); },
    get analysis() { return c.analysis; },
    kind: c.kind, id: c.id, ui: c.ui,
    isMine: (seat) => held().includes(seat),
    move: (move, seat) => send(c, "moves", { move }, seat ?? turnSeat()),
    act: (body, seat) => send(c, "moves", body, seat ?? turnSeat()),
    send: (path, body, seat) => send(c, path, body, seat),
    rerender: () => { if (c === cur) render(); },
    token: (seat) => token(c, seat ?? c.seat),
  };
}

// ---- rendering -------------------------------------------------------------------------

function renderMissing() {
  const view = $("#game-view"); // no slots: the next game builds them again
  view.replaceChildren(h("h2", { id: "game-title" }, "Game not found"),
    h("p", {}, h("a", { href: document.querySelector("[data-test=nav-lobby]").href, "data-test": "back" }, "Back to the lobby")));
}

// The view is a fixed set of slots; each redraw refills only the slots whose markup
// changed. An automated test (or a screen reader) then keeps hold of the elements that
// did not change, and the board is not rebuilt when only the leaderboard arrived.
const SLOTS = ["title", "status", "seats", "join", "share", "table", "controls", "extra", "analysis", "log"];

function skeleton() {
  const slot = (name, attrs = {}) => h("div", { "data-part": name, ...attrs });
  $("#game-view").replaceChildren(
    slot("title"), slot("status"), slot("seats"), slot("join"), slot("share"),
    h("div", { class: "play" },
      slot("table", { class: "table", "data-test": "table" }),
      h("div", { class: "side" },
        slot("controls", { class: "controls", role: "toolbar", "aria-label": "Game actions" }),
        slot("extra"), slot("analysis"), slot("log"))));
}

function fill(view, name, content) {
  const slot = view.querySelector(`[data-part="${name}"]`);
  const next = h("div", {}, content);
  if (slot.innerHTML !== next.innerHTML) slot.replaceChildren(...next.childNodes);
}

function render() {
  const c = cur;
  if (!c || !c.game) return;
  const g = c.game;
  const x = ctx(c);
  const view = $("#game-view");
  if (!view.querySelector("[data-part=title]")) skeleton();
  // A refilled slot loses the focus: remember which control had it to give it back.
  const focusKey = focusOf(document.activeElement);
  const parts = {
    title: h("h2", { id: "game-title" }, `${c.mod.title} `, h("small", {}, g.id.slice(-8))),
    status: statusLine(c, x),
    seats: seatList(c, x),
    join: joinBox(c),
    share: shareBox(c),
    table: c.mod.render(x),
    controls: controls(c, x),
    extra: c.mod.side?.(x),
    analysis: analysisBox(c),
    log: logBox(c),
  };
  for (const name of SLOTS) fill(view, name, parts[name]);
  if (focusKey && !view.contains(document.activeElement)) restoreFocus(view, focusKey);
}

function focusOf(el) {
  if (!el || !el.dataset || !el.dataset.test) return null;
  return { test: el.dataset.test, point: el.dataset.point, card: el.dataset.card, index: el.dataset.index };
}

function restoreFocus(root, key) {
  if (!key) return;
  let sel = `[data-test="${key.test}"]`;
  if (key.point) sel += `[data-point="${key.point}"]`;
  if (key.card) sel += `[data-card="${key.card}"]`;
  if (key.index) sel += `[data-index="${key.index}"]`;
  const el = root.querySelector(sel) || (key.test === "point" ? root.querySelector("[role=gridcell][tabindex='0']") : null);
  if (el) {
    if (el.getAttribute("role") === "gridcell") {
      root.querySelectorAll("[role=gridcell][tabindex='0']").forEach((e) => (e.tabIndex = -1));
      el.tabIndex = 0;
    }
    el.focus();
  }
}

function seatName(g, seat) {
  const s = g.seats[seat];
  if (!s) return `seat ${seat}`;
  return s.name || (s.kind === "open" ? `open seat ${seat}` : `seat ${seat}`);
}

function statusText(c) {
  const g = c.game;
  const held = mySeats(c);
  if (g.status === "waiting") {
    const open = openSeats(g).length;
    return open ? `Waiting for ${open} player${open > 1 ? "s" : ""} to join.` : "Waiting for the game to start.";
  }
  if (g.status === "aborted") return "Game aborted.";
  if (g.status === "finished") {
    const r = g.result;
    const won = r?.winners?.some((w) => held.includes(w));
    const summary = r?.summary || "Game over.";
    return held.length === 1 ? `${won ? "You win" : r?.winners?.length ? "You lose" : "Game over"}: ${summary}` : `Game over: ${summary}`;
  }
  const who = c.mod.seatLabel ? ` (${c.mod.seatLabel(g, g.turn)})` : "";
  if (held.includes(g.turn)) return held.length > 1 ? `${seatName(g, g.turn)} to play${who} — your turn.` : `Your turn${who}.`;
  return `${seatName(g, g.turn)} to play${who}.`;
}

function statusLine(c) {
  const g = c.game;
  return h("div", { class: "statusbar" },
    h("p", {
      class: "status", "data-test": "status", role: "status",
      "data-status": g.status, "data-turn": g.turn ?? "", "data-version": g.version,
      "data-seat": c.seat ?? "", "data-winners": (g.result?.winners || []).join(","),
    }, statusText(c)),
    h("span", { id: "stream-state", class: "stream", "data-test": "stream-state" }, streamWords(c.streamState)));
}

function seatList(c, x) {
  const g = c.game;
  return h("ul", { class: "seats", "data-test": "seats", "aria-label": "Seats" },
    g.seats.map((s) => h("li", {
      class: `seat${g.turn === s.seat && g.status === "active" ? " turn" : ""}${x.isMine(s.seat) ? " mine" : ""}`,
      "data-test": "seat", "data-seat": s.seat,
    },
    c.mod.seatBadge?.(g, s.seat),
    h("span", { class: "name" }, s.kind === "open" ? "open seat" : s.name || "?"),
    s.kind === "ai" ? h("span", { class: "tag" }, `AI ${s.level || ""}`) : null,
    s.registered ? h("span", { class: "tag" }, "registered") : null,
    x.isMine(s.seat) ? h("span", { class: "tag you" }, "you") : null,
    c.mod.seatExtra?.(g, s.seat),
    g.turn === s.seat && g.status === "active" ? h("span", { class: "tag turn-tag" }, "to play") : null)));
}

function joinBox(c) {
  const g = c.game;
  const nodes = [];
  if (!mySeats(c).length && openSeats(g).length) {
    if (c.ui.joinName === undefined) c.ui.joinName = me.key ? me.name : playerName();
    nodes.push(h("form", {
      class: "inline", "data-test": "join-form",
      onsubmit: (e) => { e.preventDefault(); joinSeat(c); },
    },
    h("label", { for: "join-name" }, "Join as"),
    h("input", { id: "join-name", "data-test": "join-name", value: c.ui.joinName, maxlength: 32, required: true,
      oninput: (e) => (c.ui.joinName = e.target.value) }),
    h("button", { type: "submit", "data-test": "join" }, "Join the open seat")));
  }
  // A registered player who lost the token (another tab, a cleared session) takes the seat back.
  const theirs = g.seats.filter((s) => s.registered && !mySeats(c).includes(s.seat));
  if (me.key && theirs.length && !finished(g)) {
    nodes.push(h("div", { class: "inline" },
      theirs.map((s) => h("button", { type: "button", "data-test": "take-seat", "data-seat": s.seat,
        onclick: () => takeSeatBack(c, s.seat) }, `Take seat ${s.seat} (${s.name}) back with my key`))));
  }
  if (!mySeats(c).length && !openSeats(g).length) nodes.push(h("p", { class: "note" }, "You are watching this game."));
  return nodes.length ? h("div", { class: "join" }, nodes) : null;
}

function shareBox(c) {
  const g = c.game;
  const link = new URL(location.href);
  link.search = "";
  const api = new URLSearchParams(location.search).get("api");
  if (api) link.searchParams.set("api", api);
  link.searchParams.set("game", c.kind);
  link.searchParams.set("id", c.id);
  const open = openSeats(g).length > 0;
  if (open) link.searchParams.set("join", "1");
  if (open && c.ui.inviteCode) link.searchParams.set("invite", c.ui.inviteCode);
  const label = open ? "Share this link with a friend to take the open seat" : "Link to watch this game";
  return h("div", { class: "share" },
    h("label", { for: "share-link" }, label),
    h("div", { class: "inline" },
      h("input", { id: "share-link", "data-test": "share-link", readonly: true, value: link.href,
        onfocus: (e) => e.target.select() }),
      h("button", { type: "button", "data-test": "copy-link", onclick: () => navigator.clipboard?.writeText(link.href).then(() => announce("Link copied")) }, "Copy")));
}

function controls(c, x) {
  const g = c.game;
  const active = g.status === "active";
  const held = x.held.length > 0;
  const aiTurn = active && g.seats[g.turn]?.kind === "ai";
  const items = [...(c.mod.controls?.(x) || [])];
  // The AI plays the seat to act: an AI seat's own move, or ours when we ask it to.
  items.push(button("ai-move", aiTurn ? "AI plays its move" : "AI move for me", !(aiTurn || x.myTurn),
    () => aiMove(c, x, true)));
  items.push(button("hint", "Hint", !x.myTurn || g.rated, () => aiMove(c, x, false)));
  if (c.mod.takeback) {
    const rule = g.state.takeback;
    // A proposal is accepted by the other seat: on a hot seat, that is a seat we hold too.
    const answering = () => {
      const p = c.game.state.takeback?.proposal;
      return p ? mySeats(c).find((s) => s !== p.by) ?? c.seat : c.seat;
    };
    items.push(button("undo", "Undo", !held || g.rated || rule?.rule === "off" || !g.state.moves?.length, () => send(c, "undo", undefined, answering())));
    if (c.kind === "go") items.push(button("redo", "Redo", !held || g.rated || rule?.rule === "off" || g.state.can_redo === false, () => send(c, "redo", undefined, answering())));
  }
  if (c.mod.resign) items.push(button("resign", "Resign", !held || !active, () => {
    if (confirm("Resign this game?")) x.move("resign", x.seat);
  }));
  items.push(button("end", "Abort game", !held || finished(g), () => send(c, "end", undefined)));
  const out = [items];
  if (c.mod.takeback && g.state.takeback) out.push(takebackNote(c, x));
  return out;
}

function takebackNote(c, x) {
  const g = c.game;
  const { rule, proposal } = g.state.takeback;
  const words = {
    consent: "Take-backs: between two people the other player must agree (by pressing Undo too); against the AI at once.",
    any: "Take-backs: either player takes a move back at once.",
    off: "Take-backs are off in this game.",
  };
  let text = g.rated ? "Rated game: no take-backs and no hints." : words[rule] || "";
  if (proposal) {
    const by = seatName(g, proposal.by);
    text += x.isMine(proposal.by) && x.held.length === 1
      ? ` You asked to ${proposal.action}; waiting for your opponent.`
      : ` ${by} asks to ${proposal.action}: press ${proposal.action === "undo" ? "Undo" : "Redo"} to agree, or play a move to decline.`;
  }
  return h("p", { class: "note", "data-test": "takeback-rule", "data-proposal": proposal ? proposal.action : "" }, text);
}

export function button(test, label, disabled, onclick, extra = {}) {
  return h("button", { type: "button", "data-test": test, disabled, onclick, ...extra }, label);
}

async function aiMove(c, x, apply) {
  const g = c.game;
  const aiTurn = g.seats[g.turn]?.kind === "ai";
  // An AI seat's move needs no body; for our seat, apply plays it and no apply is a hint.
  const body = aiTurn || g.rated ? {} : { apply };
  const seat = x.held.includes(g.turn) ? g.turn : c.seat;
  const r = await send(c, "ai-move", body, seat);
  if (!r || c !== cur) return;
  c.analysis = { ...r.analysis, move: r.move, applied: r.applied };
  c.mod.onAnalysis?.(x, c.analysis);
  render();
}

function analysisBox(c) {
  const a = c.analysis;
  if (!a) return null;
  const pct = (v) => `${(v * 100).toFixed(1)}%`;
  const mv = (m) => (typeof m === "string" ? m : c.mod.moveText?.(m) || JSON.stringify(m));
  return h("section", { class: "analysis", "data-test": "analysis", "aria-label": "AI analysis" },
    h("h3", {}, a.applied ? "AI played" : "Hint"),
    h("p", {}, h("strong", { "data-test": "analysis-move" }, mv(a.move)), ` (${a.level}, ${a.elapsed_ms} ms)`),
    h("dl", {},
      a.win_rate != null ? [h("dt", {}, "Win rate"), h("dd", { "data-test": "win-rate" }, pct(a.win_rate))] : null,
      a.score != null ? [h("dt", {}, "Score"), h("dd", {}, a.score)] : null,
      a.depth != null ? [h("dt", {}, "Depth"), h("dd", {}, a.depth)] : null,
      a.nodes != null ? [h("dt", {}, "Nodes"), h("dd", {}, a.nodes)] : null,
      a.playouts != null ? [h("dt", {}, "Playouts"), h("dd", {}, a.playouts)] : null,
      [h("dt", {}, "Expected line"), h("dd", { "data-test": "pv" }, (a.principal_variation || []).map(mv).join(" ") || "—")]),
    a.candidates?.length ? h("ol", { class: "cands", "aria-label": "Candidate moves" },
      a.candidates.slice(0, 5).map((k) => h("li", {}, `${mv(k.move)}: ${k.visits} visits${k.win_rate != null ? `, ${pct(k.win_rate)}` : ""}`))) : null);
}

function describeAll(c, events) {
  return events.map((e) => c.mod.describe?.(c.game, e) || e.type.replace(/_/g, " ")).filter(Boolean);
}

function logBox(c) {
  return h("section", { class: "log", "aria-label": "What happened" },
    h("h3", {}, "Log"),
    h("ol", { "data-test": "log" }, c.log.slice(-12).map((t) => h("li", {}, t))));
}

