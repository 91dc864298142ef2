// The page's router: the URL's query says what to show, so a link (the share link, a
// lobby entry, a reload) opens the same view. `?game=gomoku&id=…` is a game
// (`&join=1` takes its open seat), `?game=poker` the poker table, nothing the lobby.

import { $, showError } from "./dom.js";
import { API_BASE } from "./api.js";
import { initLobby, startLobby, stopLobby, link } from "./lobby.js";
import { openGame, closeGame } from "./game.js";
import { renderPoker } from "./poker.js";

function show(which) {
  for (const v of ["lobby", "game", "poker"]) $(`#${v}-view`).hidden = v !== which;
  for (const a of document.querySelectorAll("nav a")) {
    if (a.dataset.view === which) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

function route() {
  const q = new URLSearchParams(location.search);
  const game = q.get("game");
  const id = q.get("id");
  showError(null);
  if (game === "poker") {
    closeGame(); stopLobby(); show("poker");
    if (!$("#poker-view").childElementCount) renderPoker($("#poker-view"));
    document.title = "Poker — Parlor playground";
  } else if (game && id) {
    stopLobby(); show("game");
    document.title = "Game — Parlor playground";
    // Joining is a one-time intent: drop it from the URL so a reload only re-opens.
    const join = q.get("join") === "1";
    const invite = q.get("invite");
    if (join || invite) {
      q.delete("join"); q.delete("invite");
      history.replaceState(null, "", `?${q}`);
    }
    openGame(game, id, { join, invite });
  } else {
    closeGame(); show("lobby");
    document.title = "Parlor playground";
    startLobby();
  }
  $("main").focus({ preventScroll: true });
}

function navigate(params) {
  history.pushState(null, "", link(params));
  route();
}

// Keep `?api=` on the navigation links (development against another origin).
$("[data-test=nav-docs]").href = `${API_BASE}/docs/`;
for (const a of document.querySelectorAll("nav a[data-view]")) {
  a.href = link(a.dataset.view === "poker" ? { game: "poker" } : {});
  a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.dataset.view === "poker" ? { game: "poker" } : {}); });
}
window.addEventListener("popstate", route);
initLobby(navigate);
route();
