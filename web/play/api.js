// The API client: one fetch wrapper that turns every problem+json answer into an
// ApiError carrying the server's `detail`, plus the page's small session store.

const params = new URLSearchParams(location.search);

// Same origin by default (the binary serves this page at /play/); `?api=` only for
// development, when the page is served by another server than the API.
export const API_BASE = (params.get("api") || "").replace(/\/+$/, "");

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "http_error";
  }
}

/** Calls the API. `token` goes in `Authorization`; `body` is sent as JSON. */
export async function api(method, path, { body, token, raw = false } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(API_BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (e) {
    throw new ApiError(0, { detail: `The server cannot be reached (${e.message}).`, code: "network" });
  }
  if (!res.ok) {
    let problem = {};
    try { problem = await res.json(); } catch { /* not JSON: keep the status */ }
    if (!problem.detail) problem.detail = `${res.status} ${res.statusText || "error"}`;
    throw new ApiError(res.status, problem);
  }
  if (raw) return res;
  if (res.status === 204) return null;
  return res.json();
}

export const url = (path) => API_BASE + path;

// Seat tokens live in sessionStorage (the API's advice): a reload keeps the seat, a
// new tab or another person's browser does not. One entry per game: {seat: token}.
const TOKENS = "parlor.tokens.";

export function seatTokens(id) {
  try { return JSON.parse(sessionStorage.getItem(TOKENS + id)) || {}; } catch { return {}; }
}

export function saveToken(id, seat, token) {
  const all = seatTokens(id);
  all[seat] = token;
  sessionStorage.setItem(TOKENS + id, JSON.stringify(all));
}

// The player's name and (if registered) key, per tab as well: two tabs of one
// browser can then play each other under two names.
export const me = {
  get name() { return sessionStorage.getItem("parlor.name") || ""; },
  set name(v) { sessionStorage.setItem("parlor.name", v); },
  get key() { return sessionStorage.getItem("parlor.key") || ""; },
  set key(v) { v ? sessionStorage.setItem("parlor.key", v) : sessionStorage.removeItem("parlor.key"); },
};

/** The name to play under: the one typed in, else a guest name kept for this tab. */
export function playerName() {
  if (!me.name) me.name = `guest${Math.floor(1000 + Math.random() * 9000)}`;
  return me.name;
}
