// Go: the board, pass, captures, the score view (ownership shading, dead stones marked by
// clicking them, the estimate's shading) and the SGF record.

import { api } from "./api.js";
import { h, guard } from "./dom.js";
import { drawBoard, columns, pointName, pointIndex } from "./board.js";
import { button } from "./game.js";

export const title = "Go";
export const takeback = true;
export const resign = true;

const colour = (seat) => (seat === 0 ? "black" : "white");
export const seatLabel = (g, seat) => colour(seat);
export const seatBadge = (g, seat) => h("span", { class: `badge ${colour(seat)}`, "aria-hidden": "true" });
export function seatExtra(g, seat) {
  const caps = g.state?.captures;
  return h("span", { class: "tag", "data-test": "captures", "data-color": colour(seat) },
    `${colour(seat)}, ${caps ? caps[colour(seat)] : 0} captured`);
}

// The score view's state: which count is shown and which stones are marked dead.
let score = { id: null, mode: null, dead: new Set(), report: null, version: -1 };
let hint = null;

function reset(id) { score = { id, mode: null, dead: new Set(), report: null, version: -1 }; hint = null; }

export function render(x) {
  const g = x.game;
  if (score.id !== g.id) reset(g.id);
  const st = g.state;
  const cols = columns(st.size, { skipI: true, upper: true });
  const last = st.moves[st.moves.length - 1];
  const marks = { last: last && last !== "pass" && last !== "resign" ? last : null, hint };
  if (score.mode && score.report) {
    marks.owner = score.report.ownership;
    marks.dead = new Set(score.report.dead || score.dead);
    if (score.mode === "estimate") marks.ownerP = score.report.ownership_p;
    if (score.version !== g.version) refresh(x); // the board changed under the score view
  }
  return drawBoard({
    kind: "go", rows: st.board, cols,
    label: `Go board, ${st.size} by ${st.size}${score.mode ? ", score view: choose stones to mark dead" : ""}`,
    marks,
    onPoint: (p) => {
      if (score.mode) return toggleDead(x, cols, p);
      if (x.myTurn) x.move(p);
    },
  });
}

export function onChange() { hint = null; }
export function onAnalysis(x, a) { hint = a.applied ? null : a.move?.move || null; }
export const moveText = (m) => m.move;

export function controls(x) {
  const g = x.game;
  return [
    button("pass", "Pass", !x.myTurn, () => x.move("pass")),
    button("score", score.mode === "count" ? "Hide score" : "Score", false, () => {
      if (score.mode === "count") { score.mode = null; x.rerender(); return; }
      score.mode = "count"; refresh(x);
    }, { "aria-pressed": score.mode === "count" ? "true" : "false" }),
    button("estimate", score.mode === "estimate" ? "Hide estimate" : "Estimate", false, () => {
      if (score.mode === "estimate") { score.mode = null; x.rerender(); return; }
      score.mode = "estimate"; refresh(x);
    }, { "aria-pressed": score.mode === "estimate" ? "true" : "false" }),
    button("sgf", "Download SGF", false, () => downloadSgf(g)),
  ];
}

async function refresh(x) {
  const g = x.game;
  score.version = g.version;
  const q = new URLSearchParams();
  if (score.mode === "estimate") q.set("estimate", "true");
  else q.set("dead", [...score.dead].join(","));
  const r = await guard(() => api("GET", `/v1/go/games/${g.id}/score?${q}`));
  if (r) { score.report = r; if (score.mode === "estimate") score.dead = new Set(r.dead || []); }
  x.rerender();
}

// Marking one stone dead marks its whole chain: that is how a player thinks of it.
function toggleDead(x, cols, p) {
  const rows = x.game.state.board;
  const size = rows.length;
  const { c, r } = pointIndex(cols, size, p);
  const ch = rows[r][c];
  if (ch === ".") return;
  const chain = [];
  const seen = new Set();
  const stack = [[c, r]];
  while (stack.length) {
    const [cc, rr] = stack.pop();
    const k = `${cc},${rr}`;
    if (seen.has(k) || cc < 0 || rr < 0 || cc >= size || rr >= size || rows[rr][cc] !== ch) continue;
    seen.add(k);
    chain.push(pointName(cols, size, cc, rr));
    stack.push([cc + 1, rr], [cc - 1, rr], [cc, rr + 1], [cc, rr - 1]);
  }
  const dead = score.dead.has(p);
  for (const q of chain) dead ? score.dead.delete(q) : score.dead.add(q);
  score.mode = "count"; // an edited count is no longer the estimate
  refresh(x);
}

export function side(x) {
  if (!score.mode || !score.report) return null;
  const r = score.report;
  const line = (name, s) => h("tr", {}, h("th", { scope: "row" }, name),
    h("td", {}, s.territory), h("td", {}, s.stones), h("td", {}, s.captures), h("td", {}, s.total));
  return h("section", { class: "score", "data-test": "score-view", "aria-label": "Score" },
    h("h3", {}, score.mode === "estimate" ? "Estimate" : "Count"),
    h("p", {}, "Result: ", h("strong", { "data-test": "score-result" }, r.result),
      ` (${r.method}, komi ${r.komi})`),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Side"), h("th", { scope: "col" }, "Territory"),
        h("th", { scope: "col" }, "Stones"), h("th", { scope: "col" }, "Prisoners"), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, line("Black", r.black), line("White", r.white))),
    h("p", { class: "note" }, score.mode === "estimate"
      ? "Shading: the chance each point ends black's (dark) or white's (light). Click a stone to adjust the dead stones."
      : "Click a stone to mark its chain dead (or alive again)."),
    h("p", { "data-test": "dead-stones" }, `Dead: ${[...(r.dead || score.dead)].join(", ") || "none"}`));
}

async function downloadSgf(g) {
  const res = await guard(() => api("GET", `/v1/go/games/${g.id}/sgf`, { raw: true }));
  if (!res) return;
  const blob = new Blob([await res.text()], { type: "application/x-go-sgf" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `parlor-go-${g.id}.sgf` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function describe(g, e) {
  const who = g.seats[e.seat]?.name || e.color;
  switch (e.type) {
    case "stone": return `${who} (${e.color}) played ${e.at}${e.captured?.length ? `, capturing ${e.captured.join(" ")}` : ""}`;
    case "pass": return `${who} (${e.color}) passed`;
    case "resign": return `${who} resigned`;
    case "undo": return `Taken back: ${e.taken_back.join(", ")}`;
    case "redo": return `Replayed: ${e.replayed.join(", ")}`;
    case "takeback_proposed": return `${g.seats[e.proposal.by]?.name} asks to ${e.proposal.action}`;
    case "takeback_declined": return "Take-back declined";
    case "game_over": return e.result.summary;
  }
  return null;
}
