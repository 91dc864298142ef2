// Poker with five jokers is stateless: deal hands from a seed, or compare given hands.
// Each hand is shown with its category and its best five in the order they compare.

import { api } from "./api.js";
import { h, $, guard } from "./dom.js";
import { pokerSvg, pokerWords } from "./cards.js";

const CATEGORY = {
  five_jokers: "Five jokers", five_of_a_kind: "Five of a kind", straight_flush: "Straight flush",
  four_of_a_kind: "Four of a kind", full_house: "Full house", flush: "Flush", straight: "Straight",
  three_of_a_kind: "Three of a kind", two_pair: "Two pair", one_pair: "One pair", high_card: "High card",
};

export function renderPoker(root) {
  root.replaceChildren(
    h("h2", { id: "poker-title" }, "Poker (57 cards, five jokers)"),
    h("form", { class: "inline", "data-test": "poker-deal-form", onsubmit: (e) => { e.preventDefault(); deal(); } },
      h("label", { for: "poker-players" }, "Players"),
      h("input", { id: "poker-players", "data-test": "poker-players", type: "number", min: 2, max: 11, value: 4, required: true }),
      h("label", { for: "poker-seed" }, "Seed (optional)"),
      h("input", { id: "poker-seed", "data-test": "poker-seed", inputmode: "numeric", pattern: "[0-9]*", size: 12 }),
      h("button", { type: "submit", "data-test": "poker-deal" }, "Deal")),
    h("form", { class: "compare", "data-test": "poker-compare-form", onsubmit: (e) => { e.preventDefault(); compare(); } },
      h("label", { for: "poker-hands" }, "Or compare hands: one hand a line, five codes each (AS KD JK TH 7C)"),
      h("textarea", { id: "poker-hands", "data-test": "poker-hands", rows: 3, spellcheck: "false" }, "AS AH 2C 3D 4C\nAD AC KS QS JS"),
      h("button", { type: "submit", "data-test": "poker-compare" }, "Compare")),
    h("div", { id: "poker-result", "data-test": "poker-result", "aria-live": "polite" }));
}

async function deal() {
  const players = Number($("#poker-players").value);
  const seed = $("#poker-seed").value.trim();
  const body = { players };
  if (seed) body.seed = seed; // a decimal string: 64-bit seeds do not survive JS numbers
  const r = await guard(() => api("POST", "/v1/poker/deal", { body }));
  if (r) show(r, `Dealt with seed ${r.seed}`);
}

async function compare() {
  const hands = $("#poker-hands").value.split("\n").map((l) => l.trim()).filter(Boolean)
    .map((l) => l.split(/[\s,]+/));
  const r = await guard(() => api("POST", "/v1/poker/compare", { body: { hands } }));
  if (r) show(r, "Compared");
}

function show(r, caption) {
  const winners = new Set(r.winners);
  const rank = new Map();
  r.ranking.forEach((group, i) => group.forEach((seat) => rank.set(seat, i + 1)));
  $("#poker-result").replaceChildren(
    h("p", { "data-test": "poker-caption" }, `${caption}. `, h("strong", {},
      `Winner${r.winners.length > 1 ? "s (a tie)" : ""}: ${r.winners.map((w) => `hand ${w + 1}`).join(", ")}`)),
    h("ol", { class: "hands" }, r.hands.map((hand, i) => {
      const seat = hand.seat ?? i;
      return h("li", { class: winners.has(seat) ? "winner" : "", "data-test": "poker-hand", "data-seat": seat,
        "data-category": hand.category, "data-winner": winners.has(seat) ? "true" : "false" },
      h("h3", {}, `Hand ${seat + 1}: ${CATEGORY[hand.category] || hand.category}`,
        winners.has(seat) ? " — wins" : ` — place ${rank.get(seat)}`),
      h("ul", { class: "pcards", "aria-label": "Cards dealt" }, hand.cards.map((c) =>
        h("li", { "data-test": "poker-card", "data-card": c, "aria-label": pokerWords(c) }, pokerSvg(c)))),
      h("p", { "data-test": "poker-best" }, "Best five: ",
        h("span", { class: "best" }, hand.best.map((c) => pokerWords(c)).join(", "))));
    })));
}
