// UNO: the table for 2–10 seats. Our hand (playable cards lit), the colour picker for a
// wild, the other hands as counts, the last cards played, the direction, draw and pass,
// jump-in, and shouts. AI seats' moves arrive one change at a time from the stream.

import { h, $ } from "./dom.js";
import { unoCard, unoSvg, unoBack } from "./cards.js";
import { button } from "./game.js";

export const title = "UNO";

const COLOURS = ["red", "yellow", "green", "blue"];

// What the page is in the middle of: a wild waiting for its colour, a shout being typed.
let ui = { id: null, picking: null, shoutTo: null, shoutText: "", autoFor: null, timer: null };

// Several AI seats are all called "AI": tell them apart by seat number.
function name(g, seat) {
  const n = g.seats[seat]?.name || `seat ${seat}`;
  return g.seats.filter((s) => s.name === n).length > 1 ? `${n} (seat ${seat})` : n;
}
const count = (g, seat) => g.state.hands.find((x) => x.seat === seat)?.count ?? 0;

export function seatExtra(g, seat) {
  const n = count(g, seat);
  return h("span", { class: `tag${n === 1 ? " uno" : ""}`, "data-test": "hand-count", "data-seat": seat },
    `${n} card${n === 1 ? "" : "s"}${n === 1 ? " — UNO!" : ""}`);
}

export function render(x) {
  const g = x.game;
  if (ui.id !== g.id) { clearTimeout(ui.timer); ui = { id: g.id, picking: null, shoutTo: null, shoutText: "", autoFor: null, timer: null }; }
  const st = g.state;
  if (g.status === "waiting") return h("p", { class: "note" }, "The cards are dealt when every seat is taken.");
  keepAiGoing(x);

  const others = g.seats.filter((s) => s.seat !== st.seat);
  const recent = st.recent_cards || [];
  return h("div", { class: "uno" },
    h("ul", { class: "opponents", "aria-label": "Other hands" }, others.map((s) =>
      h("li", { class: g.turn === s.seat ? "turn" : "", "data-test": "opponent", "data-seat": s.seat,
        "aria-label": `${name(g, s.seat)}: ${count(g, s.seat)} cards${g.turn === s.seat ? ", to play" : ""}` },
      unoBack(count(g, s.seat)), h("span", { "aria-hidden": "true" }, name(g, s.seat))))),
    h("div", { class: "centre" },
      h("div", { class: "pile", "data-test": "deck", "data-count": st.deck_count },
        unoBack(st.deck_count), h("p", { class: "pile-label" }, `Deck: ${st.deck_count}`)),
      h("ol", { class: "discard", "data-test": "discard", "aria-label": "Last cards played, oldest first" },
        recent.map((c, i) => h("li", {
          "data-test": i === recent.length - 1 ? "top-card" : "recent-card", "data-card": c.code, "data-color": c.color,
          "aria-label": `${unoCard(c.code).words}${c.code.startsWith("W") ? `, ${c.color}` : ""}` }, unoSvg(c.code, { shown: c.color })))),
      h("div", { class: "facts" },
        h("p", { "data-test": "color", "data-color": st.color || "" }, "Colour: ",
          h("span", { class: `swatch uc-${st.color}`, "aria-hidden": "true" }), h("strong", {}, st.color || "—")),
        h("p", { "data-test": "direction", "data-direction": st.direction },
          h("span", { "aria-hidden": "true", class: "dir" }, st.direction === "clockwise" ? "↻" : "↺"), ` ${st.direction}`),
        st.pending_draw ? h("p", { "data-test": "pending" }, `${name(g, g.turn)} must draw ${st.pending_draw} (or stack a +2)`) : null,
        st.jump_window ? h("p", {}, `Jump-in possible on ${unoCard(st.jump_window.card).words}`) : null)),
    st.seat !== undefined && st.seat !== null ? hand(x) : h("p", { class: "note" }, "Watching: hands are private."),
    ui.picking ? picker(x) : null);
}

function hand(x) {
  const g = x.game, st = g.state;
  const jump = st.can_jump_in && st.jump_window ? st.jump_window.card : null;
  return h("section", { class: "hand", "aria-label": `Your hand, ${st.hand.length} cards` },
    h("h3", {}, `Your hand (${name(g, st.seat)})`),
    h("ul", { class: "cards" }, st.hand.map((card, i) => {
      const canJump = jump === card.code;
      const ok = (card.playable && x.myTurn && !st.awaiting_pass) || canJump || (card.playable && st.awaiting_pass);
      const words = `${unoCard(card.code).words}${canJump ? ", jump in" : ok ? ", playable" : ""}`;
      return h("li", {}, h("button", {
        type: "button", class: `card${ok ? " lit" : ""}`, disabled: !ok, "aria-label": words,
        "data-test": "card", "data-card": card.code, "data-index": i, "data-playable": ok ? "true" : "false",
        onclick: () => choose(x, card.code, canJump && !(card.playable && x.myTurn) ? "jump_in" : "play"),
      }, unoSvg(card.code)));
    })));
}

function choose(x, code, action) {
  if (code.startsWith("W")) {
    ui.picking = { code, action };
    x.rerender();
    $("[data-test=color-choice]")?.focus();
    return;
  }
  x.act({ action, card: code }, x.game.state.seat);
}

function picker(x) {
  const { code, action } = ui.picking;
  return h("div", { class: "picker", role: "group", "aria-label": `Choose the colour for your ${unoCard(code).words}`, "data-test": "color-picker" },
    h("p", {}, `Colour for your ${unoCard(code).words}:`),
    COLOURS.map((c) => h("button", {
      type: "button", class: `swatch-btn uc-${c}`, "data-test": "color-choice", "data-color": c,
      onclick: () => { ui.picking = null; x.act({ action, card: code, color: c }, x.game.state.seat); },
    }, c)),
    h("button", { type: "button", "data-test": "color-cancel", onclick: () => { ui.picking = null; x.rerender(); } }, "Cancel"));
}

export function controls(x) {
  const st = x.game.state;
  return [
    button("draw", st.pending_draw ? `Draw ${st.pending_draw}` : "Draw", !x.myTurn || st.awaiting_pass, () => x.act({ action: "draw" })),
    button("pass", "Pass", !x.myTurn || !st.awaiting_pass, () => x.act({ action: "pass" })),
  ];
}

// With jump-in on, the server stops after each card someone might jump in on. A human
// may do so; otherwise, after a moment, we let the AI seat to act go on.
function keepAiGoing(x) {
  const g = x.game;
  if (g.status !== "active" || g.seats[g.turn]?.kind !== "ai") return;
  // Only one screen drives: the one holding the table's first human seat.
  const first = g.seats.find((s) => s.kind === "human");
  if (!first || !x.held.includes(first.seat)) return;
  if (ui.autoFor === g.version) return;
  ui.autoFor = g.version;
  clearTimeout(ui.timer);
  if (g.state.can_jump_in) return; // our choice: the "AI plays its move" button goes on
  ui.timer = setTimeout(() => {
    if (x.game.version === ui.autoFor) x.send("ai-move", {}, first.seat);
  }, 1500);
}

export function side(x) {
  const g = x.game, st = g.state;
  if (g.status === "waiting") return null;
  const targets = g.seats.filter((s) => s.seat !== st.seat);
  if (ui.shoutTo === null && targets.length) ui.shoutTo = targets[0].seat;
  return h("section", { class: "shouts", "aria-label": "Shouts" },
    h("h3", {}, "Shouts"),
    st.seat !== null && st.seat !== undefined && g.status === "active" ? h("form", {
      class: "shout-form", onsubmit: (e) => {
        e.preventDefault();
        const text = ui.shoutText.trim();
        if (!text) return;
        x.send("messages", { to: Number(ui.shoutTo), text }, st.seat).then((r) => { if (r) { ui.shoutText = ""; x.rerender(); } });
      },
    },
    h("label", { for: "shout-to" }, "To"),
    h("select", { id: "shout-to", "data-test": "shout-to", onchange: (e) => (ui.shoutTo = Number(e.target.value)) },
      targets.map((s) => h("option", { value: s.seat, selected: s.seat === ui.shoutTo }, name(g, s.seat)))),
    h("label", { for: "shout-text" }, "Message"),
    h("input", { id: "shout-text", "data-test": "shout-text", maxlength: 200, value: ui.shoutText,
      oninput: (e) => (ui.shoutText = e.target.value) }),
    h("button", { type: "submit", "data-test": "shout-send" }, "Shout")) : null,
    h("ul", { "data-test": "messages", "aria-label": "Shouts to you" },
      (st.messages || []).map((m) => h("li", {}, `${name(g, m.from)} to you: “${m.text}”`))),
    st.shouts?.length ? h("p", { class: "note" }, "Shouts at the table: ",
      st.shouts.map((s) => `${name(g, s.from)} → ${name(g, s.to)}`).join(", ")) : null);
}

export const moveText = (m) => m.action === "play" || m.action === "jump_in"
  ? `${m.action === "jump_in" ? "jump in " : ""}${unoCard(m.card).words}${m.color ? ` (${m.color})` : ""}` : m.action;

export function describe(g, e) {
  const who = name(g, e.seat);
  switch (e.type) {
    case "dealt": return `Dealt ${e.cards_each} cards to ${e.seats} seats`;
    case "start_card": return `Start card: ${unoCard(e.card).words}`;
    case "start_card_buried": return `${unoCard(e.card).words} turned up and went back into the deck`;
    case "played": return `${who} played ${unoCard(e.card).words}${e.card.startsWith("W") ? `, choosing ${e.color}` : ""}`;
    case "jumped_in": return `${who} jumped in with ${unoCard(e.card).words}`;
    case "skipped": return `${who} is skipped`;
    case "reversed": return `Direction now ${e.direction}`;
    case "draw_pending": return `${who} faces +${e.total}`;
    case "drew": return `${who} drew ${e.count}${e.penalty ? " (penalty)" : ""}`;
    case "hand_full": return `${who}'s hand is full`;
    case "no_cards_left": return `No cards left to draw`;
    case "reshuffled": return `Discards reshuffled into the deck`;
    case "passed": return `${who} passed`;
    case "shouted": return `${name(g, e.from)} shouted at ${name(g, e.to)}`;
    case "won": return `${who} won with ${e.points} points`;
    case "game_over": return e.result.summary;
  }
  return null;
}
