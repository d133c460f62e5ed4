// Generic touch widgets: toasts, modal dialogs, a confirm and a chooser. Big targets, no hover-only controls.

import { h } from "./dom.js";

/** A short message at the bottom of the screen (data-testid "toast"). */
export function toast(message, kind = "info", ms = 4000) {
  const host = document.getElementById("toasts");
  if (!host) return;
  const el = h("div", { class: ["toast", `toast-${kind}`], testid: "toast", role: kind === "error" ? "alert" : "status" },
    String(message));
  host.append(el);
  while (host.children.length > 3) host.firstElementChild.remove();
  setTimeout(() => el.classList.add("fading"), Math.max(0, ms - 400));
  setTimeout(() => el.remove(), ms);
}

/**
 * A modal dialog. Returns {el, close}; `close(value)` resolves `done`.
 * @param {{title: string, body?: Node|Node[], buttons?: {label, value, kind?, testid?}[], testid?: string,
 *          dismissable?: boolean, wide?: boolean, className?: string, transient?: boolean}} opts
 * A `transient` dialog is a choice about the moment: a new moment of the game (the pass-and-play cover, Game
 * Over, a game's new phase) closes it as cancelled.
 */
export function modal(opts) {
  let resolve;
  const done = new Promise((r) => { resolve = r; });
  const titleId = `dlg-${Math.random().toString(36).slice(2, 8)}`;
  const box = h("div", { class: ["dialog", opts.wide && "wide", opts.className], role: "dialog", "aria-modal": "true",
    "aria-labelledby": titleId });
  const backdrop = h("div", { class: "backdrop", testid: opts.testid || "dialog", "data-transient": opts.transient ? "" : null }, box);
  backdrop.iwgtClose = (value) => close(value); // lets the table close a stale dialog and settle its promise
  box.append(h("h2", { id: titleId, class: "dialog-title" }, opts.title));
  const body = h("div", { class: "dialog-body" });
  if (opts.body) body.append(...[opts.body].flat());
  box.append(body);
  let closed = false;
  const close = (value) => {
    if (closed) return;
    closed = true;
    backdrop.remove();
    document.removeEventListener("keydown", onKey);
    resolve(value);
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
