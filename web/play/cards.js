// Cards drawn with SVG: UNO cards and poker cards. Each returns an <svg> hidden from
// assistive technology; the button or list item around it carries the words.

import { s } from "./dom.js";

const UNO_COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };
const UNO_VALUES = { S: "skip", R: "reverse", D2: "draw two" };

/** "R7" -> {colour: "red", value: "7", words: "red 7"}; wilds have colour null. */
export function unoCard(code) {
  if (code === "W") return { colour: null, face: "W", words: "wild" };
  if (code === "W4") return { colour: null, face: "+4", words: "wild draw four" };
  const colour = UNO_COLOURS[code[0]];
  const v = code.slice(1);
  const face = v === "S" ? "⊘" : v === "R" ? "⇄" : v === "D2" ? "+2" : v;
  return { colour, face, words: `${colour} ${UNO_VALUES[v] || v}` };
}

/** An UNO card; `shown` is the colour a played wild set. */
export function unoSvg(code, { shown } = {}) {
  const c = unoCard(code);
  const fill = c.colour || "wild";
  return s("svg", { viewBox: "0 0 40 60", class: "ucard", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 38, height: 58, rx: 5, class: `uc-${fill}` }),
    c.colour ? null : [
      s("path", { d: "M8 12h12v18H8z", class: "uc-red" }), s("path", { d: "M20 12h12v18H20z", class: "uc-yellow" }),
      s("path", { d: "M8 30h12v18H8z", class: "uc-green" }), s("path", { d: "M20 30h12v18H20z", class: "uc-blue" }),
    ],
    s("ellipse", { cx: 20, cy: 30, rx: 13, ry: 17, class: "uc-oval" }),
    s("text", { x: 20, y: 36, class: "uc-face" }, c.face),
    shown && !c.colour ? s("rect", { x: 5, y: 50, width: 30, height: 6, rx: 2, class: `uc-${shown}` }) : null);
}

/** The back of an UNO card, with a count (other hands, the deck). */
export function unoBack(count) {
  return s("svg", { viewBox: "0 0 40 60", class: "ucard", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 38, height: 58, rx: 5, class: "uc-back" }),
    s("ellipse", { cx: 20, cy: 30, rx: 13, ry: 17, class: "uc-oval" }),
    s("text", { x: 20, y: 36, class: "uc-face" }, count));
}

const SUITS = { S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"] };
const RANKS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };

/** "KS" -> "king of spades"; "JK" -> "joker"; "K*" / "KS*" -> a joker as a king (of spades). */
export function pokerWords(code) {
  if (code === "JK") return "joker";
  const joker = code.endsWith("*");
  const c = joker ? code.slice(0, -1) : code;
  const rank = RANKS[c[0]] || c[0];
  const suit = SUITS[c[1]]?.[1];
  return `${joker ? "joker as " : ""}${rank}${suit ? ` of ${suit}` : ""}`;
}

export function pokerSvg(code) {
  const joker = code === "JK" || code.endsWith("*");
  const c = code.replace("*", "");
  const rank = c === "JK" ? "★" : c[0] === "T" ? "10" : c[0];
  const suit = c === "JK" ? "" : SUITS[c[1]]?.[0] || "";
  const red = c[1] === "H" || c[1] === "D";
  return s("svg", { viewBox: "0 0 40 56", class: `pcard${joker ? " joker" : ""}`, "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 38, height: 54, rx: 4, class: "pc-bg" }),
    s("text", { x: 20, y: 24, class: `pc-rank${red ? " red" : ""}` }, rank),
    s("text", { x: 20, y: 46, class: `pc-suit${red ? " red" : ""}` }, suit || "JK"));
}
