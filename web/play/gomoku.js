// Gomoku: the board (with the winning line), the players' scores and the leaderboard.

import { api } from "./api.js";
import { h } from "./dom.js";
import { drawBoard, columns } from "./board.js";

export const title = "Gomoku";
export const takeback = true;
export const resign = true;

const colour = (seat) => (seat === 0 ? "black" : "white");
export const seatLabel = (g, seat) => colour(seat);
export const seatBadge = (g, seat) => h("span", { class: `badge ${colour(seat)}`, "aria-hidden": "true" });
export const seatExtra = (g, seat) => h("span", { class: "tag" }, colour(seat));

let hint = null;

export function render(x) {
  const st = x.game.state;
  const cols = columns(st.size, { skipI: false, upper: false });
  return drawBoard({
    kind: "gomoku", rows: st.board, cols,
    label: `Gomoku board, ${st.size} by ${st.size}`,
    marks: { last: st.moves[st.moves.length - 1], line: st.winning_line, hint: hint && !x.analysis?.applied ? hint : null },
    onPoint: (p) => { if (x.myTurn) x.move(p); },
  });
}

export function onChange() { hint = null; }
export function onAnalysis(x, a) { hint = typeof a.move?.move === "string" ? a.move.move : null; }
export const moveText = (m) => m.move;

export function describe(g, e) {
  const who = g.seats[e.seat]?.name || colour(e.seat);
  switch (e.type) {
    case "stone": return `${who} (${e.color}) played ${e.at}`;
    case "resign": return `${who} resigned`;
    case "undo": return `Taken back: ${e.taken_back.join(", ")}`;
    case "takeback_proposed": return `${g.seats[e.proposal.by]?.name} asks to ${e.proposal.action}`;
    case "takeback_declined": return "Take-back declined";
    case "game_over": return e.result.summary;
  }
  return null;
}

// Scores (the seed's ±100) of the human seats, and the top of the leaderboard. Fetched
// when the game opens and when it ends: that is when they can change.
let scores = { key: null, players: {}, board: null };

export function side(x) {
  const g = x.game;
  const key = `${g.id}:${g.status}`;
  if (scores.key !== key) { scores.key = key; loadScores(g).then(x.rerender); }
  return h("section", { class: "scores", "aria-label": "Scores" },
    h("h3", {}, "Scores"),
    h("ul", { "data-test": "player-scores" }, g.seats.filter((s) => s.kind === "human").map((s) => {
      const p = scores.players[s.name];
      const sc = p?.scores?.gomoku || p?.gomoku;
      return h("li", { "data-test": "player-score", "data-name": s.name },
        `${s.name}: `, sc ? `${sc.score} (${sc.wins} won, ${sc.losses} lost, ${sc.draws} drawn)` : "no score yet");
    })),
    h("h3", {}, "Leaderboard"),
    scores.board ? h("ol", { "data-test": "leaderboard" }, scores.board.players.map((p) =>
      h("li", { value: p.rank }, `${p.name}${p.registered ? " ✓" : ""}: ${p.score ?? p.rating}`))) : h("p", {}, "…"));
}

async function loadScores(g) {
  const names = g.seats.filter((s) => s.kind === "human").map((s) => s.name);
  const got = await Promise.all(names.map((n) =>
    api("GET", `/v1/players/${encodeURIComponent(n)}${g.seats.find((s) => s.name === n)?.registered ? "" : "?guest=true"}`).catch(() => null)));
  scores.players = Object.fromEntries(names.map((n, i) => [n, got[i]]));
  scores.board = await api("GET", "/v1/players?game=gomoku&limit=10").catch(() => ({ players: [] }));
}
