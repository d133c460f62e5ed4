// Generic touch widgets: toasts, modal dialogs, a confirm and a chooser. Big targets, no hover-only controls.

import { h } from "./dom.js";

/** A rule clause id ("VX-15-14", "VK-MV-03", "VX-SP-COMMAND-4"): never broken at its hyphens. */
const CLAUSE = /\b[A-Z]{2,3}(?:-[A-Z0-9]{1,12}){1,3}\b/g;

/** Text as nodes, each rule clause id in a `<span class="clause">` that does not wrap inside (a hyphen is a
 * line-break opportunity: "VK-MV-" at the end of a line and "03" on the next reads as nonsense). */
export function withClauses(text) {
  const str = String(text);
  const out = [];
  let at = 0;
  for (const m of str.matchAll(CLAUSE)) {
    if (m.index > at) out.push(str.slice(at, m.index));
    out.push(h("span", { class: "clause" }, m[0]));
    at = m.index + m[0].length;
  }
  if (at < str.length) out.push(str.slice(at));
  return out;
}

/** A short message (data-testid "toast"): at the bottom of the lobby, over the side panel's foot at a table,
 * where it covers neither the board, its legend, nor its scale. */
export function toast(message, kind = "info", ms = 4000) {
  const host = document.getElementById("toasts");
  if (!host) return;
  const el = h("div", { class: ["toast", `toast-${kind}`], testid: "toast", role: kind === "error" ? "alert" : "status" },
    withClauses(message));
  host.append(el);
  while (host.children.length > 3) host.firstElementChild.remove();
  setTimeout(() => el.classList.add("fading"), Math.max(0, ms - 400));
  setTimeout(() => el.remove(), ms);
}

/**
 * A modal dialog. Returns {el, close}; `close(value)` resolves `done`.
 * @param {{title: string, body?: Node|Node[], buttons?: {label, value, kind?, testid?}[], testid?: string,
 *          dismissable?: boolean, wide?: boolean, className?: string, transient?: boolean, covers?: boolean}} opts
 * A `transient` dialog is a choice about the moment: a new moment of the game (the pass-and-play cover, Game
 * Over, a game's new phase) closes it as cancelled.
 * A dialog the player cannot wave away (not `dismissable`: a report, the pass-and-play cover, a die) `covers`
 * the table (`data-covers`): the mover's clock does not start while one is open (docs/screen-shell.md). Every
 * dialog that closes says so on `document` (the event `iwgt-dialog-closed`).
 */
export function modal(opts) {
  let resolve;
  const done = new Promise((r) => { resolve = r; });
  const titleId = `dlg-${Math.random().toString(36).slice(2, 8)}`;
  const box = h("div", { class: ["dialog", opts.wide && "wide", opts.className], role: "dialog", "aria-modal": "true",
    "aria-labelledby": titleId });
  const covers = opts.covers !== undefined ? opts.covers : !opts.dismissable;
  const backdrop = h("div", { class: "backdrop", testid: opts.testid || "dialog", "data-transient": opts.transient ? "" : null,
    "data-covers": covers ? "" : null }, box);
  backdrop.iwgtClose = (value) => close(value); // lets the table close a stale dialog and settle its promise
  box.append(h("h2", { id: titleId, class: "dialog-title" }, opts.title));
  const body = h("div", { class: "dialog-body" });
  // A body part left out (null, false, "") is skipped: append() would print it as the text "null".
  if (opts.body) body.append(...[opts.body].flat().filter((c) => c !== null && c !== undefined && c !== false && c !== ""));
  box.append(body);
  let closed = false;
  const close = (value) => {
    if (closed) return;
    closed = true;
    backdrop.remove();
    document.removeEventListener("keydown", onKey);
    resolve(value);
    document.dispatchEvent(new Event("iwgt-dialog-closed"));
  };
  const onKey = (e) => {
    if (e.key === "Escape" && opts.dismissable) close(undefined);
  };
  document.addEventListener("keydown", onKey);
  if (opts.buttons && opts.buttons.length) {
    const row = h("div", { class: "dialog-buttons" });
    for (const b of opts.buttons) {
      row.append(h("button", { type: "button", class: ["btn", b.kind || "secondary"], testid: b.testid,
        disabled: b.disabled, onclick: () => close(b.value) }, b.label));
    }
    box.append(row);
  }
  if (opts.dismissable) {
    backdrop.addEventListener("pointerdown", (e) => {
      if (e.target === backdrop) close(undefined);
    });
  }
  document.body.append(backdrop);
  const first = box.querySelector("button:not([disabled]), select, input");
  if (first) first.focus({ preventScroll: true });
  return { el: box, body, close, done, backdrop };
}

/** Ask yes or no; resolves true for yes. */
export function confirmDialog(title, text, yes = "Yes", no = "Cancel") {
  return modal({
    title,
    body: h("p", {}, text),
    testid: "confirm-dialog",
    dismissable: true,
    buttons: [
      { label: no, value: false, testid: "confirm-no" },
      { label: yes, value: true, kind: "danger", testid: "confirm-yes" },
    ],
  }).done.then((v) => v === true);
}

/** Choose one of several options (big buttons); resolves to the chosen value or undefined. A transient dialog. */
export function choose(title, options, testid = "chooser", text = "") {
  return modal({
    title,
    body: text ? h("p", {}, text) : null,
    testid,
    dismissable: true,
    transient: true,
    buttons: [...options, { label: "Cancel", value: undefined, testid: `${testid}-cancel` }],
  }).done;
}
