// The lobby: who you are (a guest name, or a registered player's key), the form that
// creates a game, "find an opponent" (a seek), and the live list of games and seeks.

import { api, me, playerName, saveToken } from "./api.js";
import { h, $, guard, showError, announce } from "./dom.js";
import { followLobby, followSeek } from "./live.js";

let lobby = { games: new Map(), seeks: new Map(), follower: null, filter: { game: "", status: "" } };
let navigate = () => {};

// The test deck from the README: a Wild on top, then each colour in order. With two
// seats, seat 0 holds W R1 R2 R3 R4 R5 R6 and the start card is R7.
export function testDeck() {
  const deck = ["W"];
  for (const c of ["R", "Y", "G", "B"]) {
    deck.push(`${c}0`);
    for (const v of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2"]) deck.push(c + v, c + v);
  }
  return deck.concat(["W", "W", "W", "W4", "W4", "W4", "W4"]);
}

export function initLobby(nav) {
  navigate = nav;
  $("#player-name").value = me.name || "";
  $("#player-name").addEventListener("change", (e) => (me.name = e.target.value.trim()));
  $("#player-key").value = me.key;
  $("#player-key").addEventListener("change", (e) => { me.key = e.target.value.trim(); showKeyState(); });
  $("#register").addEventListener("click", register);
  showKeyState();

  const form = $("#create-form");
  form.addEventListener("change", () => showOptions(form));
  form.addEventListener("submit", (e) => { e.preventDefault(); create(form); });
  $("#seek").addEventListener("click", () => seek(form));
  showOptions(form);

  for (const id of ["filter-game", "filter-status"]) $(`#${id}`).addEventListener("change", restartLobby);
}

function showKeyState() {
  $("#key-state").textContent = me.key
    ? "With this key your name is protected: games you create or join take your seat as the registered player."
    : "Playing as a guest. Register the name to protect it, or paste your key.";
}

async function register() {
  const name = $("#player-name").value.trim();
  if (!name) return showError(new Error("Type a name to register first."));
  const r = await guard(() => api("POST", "/v1/players", { body: { name } }));
  if (!r) return;
  me.name = r.name;
  me.key = r.key;
  $("#player-key").value = r.key;
  showKeyState();
  $("#key-shown").replaceChildren(h("strong", {}, "Your key, shown only now: keep it. "), h("code", { "data-test": "player-key-new" }, r.key));
}

// Only the options of the chosen game (and the chosen opponent) are shown.
function showOptions(form) {
  const game = form.game.value;
  for (const el of form.querySelectorAll("[data-for]")) {
    el.hidden = !el.dataset.for.split(" ").includes(game);
  }
  form.querySelector("#opt-level").hidden = !form.opponent.value.startsWith("ai");
  // Each game has its own sizes: switching game resets the size to that game's default.
  const size = form.size;
  const [min, max, def] = game === "go" ? [5, 25, 9] : [9, 19, 15];
  size.min = min; size.max = max;
  if (size.dataset.game !== game) {
    if (size.dataset.game || +size.value < min || +size.value > max) size.value = def;
    size.dataset.game = game;
  }
  form.querySelector("#opt-seed").hidden = game !== "uno" || form.deck.value !== "seed";
}

/** The create body (without players, which a seek leaves to the server). */
function options(form) {
  const game = form.game.value;
  const o = {};
  if (game !== "uno") {
    o.size = Number(form.size.value);
    o.takeback = form.takeback.value;
    if (me.key && !form.rated.checked) o.rated = false;
  } else {
    o.rules = {
      jump_in: form.jump_in.checked, stacking: form.stacking.checked, draw_then_play: form.draw_then_play.checked,
    };
    if (form.deck.value === "test") o.deck = testDeck();
    if (form.deck.value === "seed" && form.seed.value.trim()) o.seed = form.seed.value.trim();
  }
  return o;
}

async function create(form) {
  const game = form.game.value;
  const name = ($("#player-name").value.trim() || playerName());
  me.name = name;
  const n = game === "uno" ? Number(form.seats.value) : 2;
  const opp = form.opponent.value;
  let body = { ...options(form) };
  // A fixed deal (deck or seed) lets its creator know every hand, so the server allows
  // it beside open seats only at a test table whose open seats are by invitation.
  const fixed = Boolean(body.deck || body.seed);
  const open = () => (opp === "invite" || fixed ? { open: "invite" } : { open: true });
  const players = [{ name }];
  for (let i = 1; i < n; i++) {
    if (opp === "ai" || (opp === "ai+friend" && i < n - 1)) players.push({ ai: form.level.value });
    else if (opp === "hotseat") players.push({ name: `${name} ${i + 1}` });
    else players.push(open());
  }
  body.players = players;
  if (fixed && players.some((p) => p.open)) body.test = true;
  if (game !== "uno" && opp === "ai") body.auto_ai = true; // one request a turn against the AI
  const file = form.sgf?.files?.[0];
  if (game === "go" && file) {
    // An SGF record makes the game: its size and komi come from the record.
    const { size, ...rest } = body;
    body = { ...rest, sgf: await file.text() };
  }
  const r = await guard(() => api("POST", `/v1/${game}/games`, { body, token: me.key || undefined }));
  if (!r) return;
  for (const t of r.tokens) saveToken(r.id, t.seat, t.token);
  if (r.invites?.length) sessionStorage.setItem(`parlor.invite.${r.id}`, r.invites[0].code);
  navigate({ game, id: r.id });
}

// ---- seeks: find an opponent ------------------------------------------------------------

let seeking = null;

function seek(form) {
  const game = form.game.value;
  const players = game === "uno" ? Number(form.seats.value) : 2;
  return openSeek(game, options(form), players);
}

/** Seeks a game; the server pairs seeks whose options are the same JSON. */
async function openSeek(game, opts, players) {
  const name = $("#player-name").value.trim() || playerName();
  me.name = name;
  const body = { options: opts, players };
  if (!me.key) body.name = name; // a registered player is named by the key
  const r = await guard(() => api("POST", `/v1/${game}/seeks`, { body, token: me.key || undefined }));
  if (!r) return;
  if (r.paired) return paired(r.paired);
  seeking?.follower.stop();
  const status = $("#seek-status");
  const s = { id: r.seek.id, secret: r.secret, done: false };
  s.follower = followSeek({
    id: s.id, secret: s.secret,
    on: {
      seek: (k) => { if (k.status !== "open" && k.status !== "paired") { s.done = true; status.textContent = `Seek ${k.status}.`; } },
      paired: (p) => { s.done = true; paired(p); },
    },
    done: () => s.done,
    onState: (st) => { if (!s.done) status.replaceChildren(`Looking for an opponent (${st})… `, cancelButton(s)); },
  });
  seeking = s;
  s.follower.start();
}

function cancelButton(s) {
  return h("button", { type: "button", "data-test": "seek-cancel", onclick: async () => {
    s.done = true;
    s.follower.stop();
    await guard(() => api("DELETE", `/v1/seeks/${s.id}`, { token: s.secret }));
    $("#seek-status").textContent = "Seek cancelled.";
  } }, "Cancel");
}

function paired(p) {
  saveToken(p.id, p.seat, p.token);
  $("#seek-status").textContent = "";
  announce("Opponent found");
  navigate({ game: p.game, id: p.id });
}

// ---- the live list -------------------------------------------------------------------------

export function startLobby() {
  if (lobby.follower) return;
  lobby.filter = { game: $("#filter-game").value, status: $("#filter-status").value };
  lobby.follower = followLobby({
    ...lobby.filter,
    on: {
      lobby: (d) => {
        lobby.games = new Map(d.games.map((g) => [g.id, g]));
        lobby.seeks = new Map((d.seeks || []).map((s) => [s.id, s]));
        renderList();
      },
      ...Object.fromEntries(["created", "joined", "started", "finished", "aborted"].map((k) => [k, (d) => {
        const g = d.game;
        if (lobby.filter.status && g.status !== lobby.filter.status) lobby.games.delete(g.id);
        else lobby.games.set(g.id, g);
        renderList();
      }])),
      seek_opened: (d) => { lobby.seeks.set(d.seek.id, d.seek); renderList(); },
      seek_closed: (d) => { lobby.seeks.delete(d.seek.id); renderList(); },
    },
    onState: (st) => { $("#lobby-state").textContent = st === "live" ? "Live" : st === "closed" ? "" : "Reconnecting…"; },
  });
  lobby.follower.start();
}

export function stopLobby() {
  lobby.follower?.stop();
  lobby.follower = null;
}

function restartLobby() { stopLobby(); startLobby(); }

const GAME_NAMES = { gomoku: "Gomoku", go: "Go", uno: "UNO" };

function renderList() {
  const games = [...lobby.games.values()].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).slice(0, 50);
  $("#lobby-list").replaceChildren(...(games.length ? games.map((g) => {
    const open = g.seats.some((s) => s.kind === "open");
    const names = g.seats.map((s) => (s.kind === "open" ? "open seat" : s.kind === "ai" ? `AI ${s.level || ""}` : s.name)).join(" vs ");
    return h("li", { "data-test": "lobby-game", "data-id": g.id, "data-game": g.game, "data-status": g.status },
      h("span", { class: "tag" }, GAME_NAMES[g.game] || g.game), ` ${names} `,
      h("span", { class: `tag st-${g.status}` }, g.status), g.result?.summary ? ` ${g.result.summary} ` : " ",
      h("a", { href: link({ game: g.game, id: g.id, join: open ? "1" : null }), "data-test": open ? "lobby-join" : "lobby-watch",
        onclick: (e) => { e.preventDefault(); navigate({ game: g.game, id: g.id, join: open ? "1" : null }); } },
      open ? "Join" : "Watch", h("span", { class: "sr-only" }, ` ${GAME_NAMES[g.game]} game ${names}`)));
  }) : [h("li", {}, "No games yet.")]));
  const seeks = [...lobby.seeks.values()];
  $("#seek-list").replaceChildren(...(seeks.length ? seeks.map((s) =>
    h("li", { "data-test": "lobby-seek", "data-id": s.id },
      `${s.name} seeks ${GAME_NAMES[s.game]} (${s.players} players${Object.keys(s.options || {}).length ? `, ${JSON.stringify(s.options)}` : ""}) `,
      h("button", { type: "button", "data-test": "seek-accept", onclick: () => acceptSeek(s) }, "Play them",
        h("span", { class: "sr-only" }, ` (${s.name}, ${GAME_NAMES[s.game]})`)))) : [h("li", {}, "Nobody is seeking.")]));
}

// Answering a seek is seeking the same thing: the server pairs equal options.
const acceptSeek = (s) => openSeek(s.game, s.options, s.players);

/** A link to this page with the given parameters, keeping `?api=`. */
export function link(params) {
  const q = new URLSearchParams();
  const api = new URLSearchParams(location.search).get("api");
  if (api) q.set("api", api);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, v);
  return `?${q}`;
}
