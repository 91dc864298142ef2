// Tiny DOM helpers: build elements from plain data so the game modules read as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An HTML element: h("button", {onclick, "aria-label": …}, "text"). */
export const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);

/** An SVG element, same shape as h(). */
export const s = (tag, attrs, ...children) => build(document.createElementNS(SVG_NS, tag), attrs, children);

export const $ = (sel, root = document) => root.querySelector(sel);

/** Shows an error's detail (the problem's sentence) in the page's one error box. */
export function showError(err) {
  const box = $("#error");
  box.textContent = err ? (err.message || String(err)) : "";
  box.hidden = !err;
  if (err) console.warn(err);
}

/** Runs an async action, showing its error instead of throwing. */
export async function guard(fn) {
  try {
    const r = await fn();
    showError(null);
    return r;
  } catch (e) {
    showError(e);
    return undefined;
  }
}

/** Announces something to screen readers and shows it in the status line's note. */
export function announce(text) {
  const live = $("#announce");
  if (live) live.textContent = text;
}
