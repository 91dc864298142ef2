// One SVG board for Go and Gomoku: a grid of points a player clicks or reaches with the
// keyboard. It is an ARIA grid (rows of gridcells, one tab stop, arrow keys move), so a
// screen reader hears "h8, black stone" and a keyboard user plays with Enter or Space.

import { s } from "./dom.js";

const U = 10; // one grid step in viewBox units; the SVG scales to the screen

/** Column letters: Gomoku uses a, b, … with i; Go (GTP) skips I. */
export function columns(size, { skipI, upper }) {
  const out = [];
  for (let code = 97; out.length < size; code++) {
    if (skipI && code === 105) continue;
    out.push(upper ? String.fromCharCode(code).toUpperCase() : String.fromCharCode(code));
  }
  return out;
}

/** Point name <-> (column, row index from the top). */
export function pointName(cols, size, c, r) { return cols[c] + (size - r); }
export function pointIndex(cols, size, name) {
  const c = cols.findIndex((x) => x.toLowerCase() === name[0].toLowerCase());
  return { c, r: size - parseInt(name.slice(1), 10) };
}

const HOSHI = { 9: [2, 6, 4], 13: [3, 9, 6], 15: [3, 11, 7], 19: [3, 15, 9] };

/**
 * Draws a board.
 * @param {object} o
 * @param {string[]} o.rows  the API's board rows, top first ("X", "O", ".")
 * @param {string[]} o.cols  column letters
 * @param {string} o.label  what the board is, for assistive technology
 * @param {(name: string) => void} o.onPoint  a point chosen (click, Enter, Space)
 * @param {object} [o.marks]  last, hint (point names), line ([names]), dead (Set),
 *   owner (rows of "X"/"O"/"?"/"."), ownerP (rows of black's chance)
 * @param {string} [o.focus]  the point that holds the tab stop
 */
export function drawBoard({ rows, cols, label, onPoint, marks = {}, focus, kind }) {
  const size = rows.length;
  const span = (size + 1) * U;
  const at = (i) => (i + 1) * U;
  const svg = s("svg", {
    viewBox: `0 0 ${span} ${span}`, role: "grid", "aria-label": label,
    class: `board board-${kind}`, "data-test": "board", "data-size": size,
  });

  // Decoration first, hidden from assistive technology: wood, lines, star points, labels.
  const deco = s("g", { "aria-hidden": "true" });
  deco.append(s("rect", { x: 0, y: 0, width: span, height: span, class: "wood" }));
  for (let i = 0; i < size; i++) {
    deco.append(s("line", { x1: at(0), y1: at(i), x2: at(size - 1), y2: at(i), class: "gridline" }));
    deco.append(s("line", { x1: at(i), y1: at(0), x2: at(i), y2: at(size - 1), class: "gridline" }));
    deco.append(s("text", { x: at(i), y: U * 0.45, class: "coord" }, cols[i]));
    deco.append(s("text", { x: U * 0.45, y: at(i) + 1.3, class: "coord" }, size - i));
  }
  const hoshi = HOSHI[size];
  if (hoshi) for (const y of hoshi) for (const x of hoshi) {
    deco.append(s("circle", { cx: at(x), cy: at(y), r: 1, class: "hoshi" }));
  }
  svg.append(deco);

  const focusName = focus || pointName(cols, size, Math.floor(size / 2), Math.floor(size / 2));
  for (let r = 0; r < size; r++) {
    const row = s("g", { role: "row" });
    for (let c = 0; c < size; c++) {
      const name = pointName(cols, size, c, r);
      const ch = rows[r][c];
      const x = at(c), y = at(r);
      const words = [name, ch === "X" ? "black stone" : ch === "O" ? "white stone" : "empty"];
      const cell = s("g", {
        role: "gridcell", tabindex: name === focusName ? 0 : -1,
        "data-test": "point", "data-point": name, "data-stone": ch === "X" ? "black" : ch === "O" ? "white" : "empty",
        class: "pt",
      });
      cell.append(s("rect", { x: x - U / 2, y: y - U / 2, width: U, height: U, class: "hit" }));
      // Ownership shading: the count's owner, or the estimate's chance for black.
      const own = marks.ownerP ? marks.ownerP[r][c] : null;
      if (own !== null) {
        const black = own >= 0.5;
        const strength = Math.abs(own - 0.5) * 2;
        if (strength > 0.15) {
          cell.append(s("rect", { x: x - 2, y: y - 2, width: 4, height: 4,
            class: black ? "own-b" : "own-w", "fill-opacity": (0.3 + 0.7 * strength).toFixed(2) }));
        }
        words.push(`${Math.round(own * 100)}% black`);
      } else if (marks.owner) {
        const o = marks.owner[r][c];
        if (o === "X" || o === "O") {
          if (ch === "." || marks.dead?.has(name)) {
            cell.append(s("rect", { x: x - 2, y: y - 2, width: 4, height: 4, class: o === "X" ? "own-b" : "own-w" }));
          }
          if (ch === ".") words.push(o === "X" ? "black territory" : "white territory");
        } else if (o === "?") words.push("shared");
      }
      if (ch === "X" || ch === "O") {
        const dead = marks.dead?.has(name);
        cell.append(s("circle", { cx: x, cy: y, r: U * 0.46, class: `stone ${ch === "X" ? "black" : "white"}${dead ? " dead" : ""}` }));
        if (dead) {
          words.push("dead");
          cell.append(s("path", { d: `M${x - 2.5} ${y - 2.5}L${x + 2.5} ${y + 2.5}M${x + 2.5} ${y - 2.5}L${x - 2.5} ${y + 2.5}`, class: "deadmark" }));
        }
      }
      if (marks.last === name) {
        words.push("last move");
        cell.append(s("circle", { cx: x, cy: y, r: U * 0.18, class: `lastmark ${ch === "X" ? "on-black" : "on-white"}` }));
      }
      if (marks.hint === name) {
        words.push("hint");
        cell.append(s("circle", { cx: x, cy: y, r: U * 0.4, class: "hintmark" }));
      }
      cell.setAttribute("aria-label", words.join(", "));
      cell.addEventListener("click", () => onPoint(name));
      row.append(cell);
    }
    svg.append(row);
  }

  if (marks.line && marks.line.length > 1) {
    // The winning line: from one end of the five to the other, whatever order they come in.
    const pts = marks.line.map((n) => pointIndex(cols, size, n));
    pts.sort((a, b) => a.c - b.c || a.r - b.r);
    const a = pts[0], b = pts[pts.length - 1];
    svg.append(s("line", { x1: at(a.c), y1: at(a.r), x2: at(b.c), y2: at(b.r), class: "winline",
      "data-test": "winning-line", "aria-hidden": "true" }));
  }

  svg.addEventListener("keydown", (e) => onKey(e, svg, size, onPoint));
  return svg;
}

// Arrow keys move the single tab stop (a roving tabindex); Enter and Space play.
function onKey(e, svg, size, onPoint) {
  const cell = e.target.closest?.("[role=gridcell]");
  if (!cell) return;
  const cells = [...svg.querySelectorAll("[role=gridcell]")];
  const i = cells.indexOf(cell);
  let r = Math.floor(i / size), c = i % size;
  switch (e.key) {
    case "ArrowUp": r = Math.max(0, r - 1); break;
    case "ArrowDown": r = Math.min(size - 1, r + 1); break;
    case "ArrowLeft": c = Math.max(0, c - 1); break;
    case "ArrowRight": c = Math.min(size - 1, c + 1); break;
    case "Home": c = 0; break;
    case "End": c = size - 1; break;
    case "Enter": case " ":
      e.preventDefault();
      onPoint(cell.dataset.point);
      return;
    default: return;
  }
  e.preventDefault();
  const next = cells[r * size + c];
  cell.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
