// Undo at the table (docs/protocol.md, "Undo"): the Undo button of the action bar and the question put to the
// other player. The server decides everything (the bounds, who may answer); this module only shows the view's
// `can_undo` and `undo` ({seat, reason, consent, request, declined}) and sends `undo` and `undo_answer`.
//
// The shell calls in at two places: `undoButton(shell)` once, when it builds the action bar, and
// `showUndo(shell, view)` with every view it shows. A disabled button says why in its title (and `data-reason`).
// An undo that needs the other player's yes is asked as a dialog on every screen holding a seat that may answer,
// the asker's own screen included when one touchscreen holds both seats (pass and play).

import { h } from "./dom.js";
import { modal, toast } from "./ui.js";

const state = new WeakMap(); // per shell: {button, label, dialog, askedAt, answeredAt}

/** Send a message the socket keeps (and resends after a reconnection) until its ack or error. */
function sendKept(socket, msg) {
  const kept = { ...msg, id: socket.nextId() };
  socket.pending.set(kept.id, kept);
  socket.sendRaw(kept);
  return kept.id;
}

/** The Undo button for the action bar (created once; `showUndo` keeps it up to date). */
export function undoButton(shell) {
  const label = h("span", { class: "btn-label" }, "Undo");
  const button = h("button", {
    type: "button", class: "btn secondary undo-button", testid: "undo-button", disabled: true, "aria-label": "Undo",
    title: "Nothing to undo yet", "data-reason": "nothing to undo",
    onclick: () => askUndo(shell),
  }, h("span", { "aria-hidden": "true" }, "↶ "), label);
  state.set(shell, { button, label, dialog: null, askedAt: null, answeredAt: null });
  return button;
}

function askUndo(shell) {
  const view = shell.view;
  const undo = view && view.undo;
  if (!view || !view.can_undo || !undo || undo.seat === null || undo.seat === undefined) return;
  const s = state.get(shell);
  if (s) s.askedAt = view.version;
  sendKept(shell.socket, { type: "undo", seat: undo.seat });
  if (undo.consent) toast(`${shell.seatName(undo.seat)} asks to take back the last step…`, "info", 3000);
}

/** Bring the button and the question up to date with a view. */
export function showUndo(shell, view) {
  const s = state.get(shell);
  if (!s || !view) return;
  const undo = view.undo || {};
  const request = undo.request || null;
  const waiting = Boolean(request && shell.mySeats().includes(request.seat));
  let reason = null;
  if (view.status !== "playing") reason = "the game is over";
  else if (waiting) reason = "your undo waits for the other player's answer";
  else if (!view.can_undo) reason = undo.reason || "nothing to undo";
  s.button.disabled = reason !== null;
  s.button.title = reason === null
    ? (undo.consent ? "Take back the last step (the other player is asked)" : "Take back the last step")
    : `Undo: ${reason}`;
  s.button.dataset.reason = reason || "";
  s.label.textContent = waiting ? "Undo asked…" : "Undo";
  if (undo.declined && s.askedAt !== null) {
    s.askedAt = null;
    toast("The other player declined the undo.", "info", 4000);
  }
  // The question: shown once per request, to a screen holding a seat that may answer it.
  if (request && request.answer_as !== null && request.answer_as !== undefined) {
    const asked = !s.dialog || s.dialog.version !== view.version;
    if (asked && s.answeredAt !== view.version) openQuestion(shell, s, request, view.version);
  } else {
    s.answeredAt = null; // no request now: the next one is asked, even at the same version
    if (s.dialog) {
      s.dialog.modal.close(undefined); // the request was answered elsewhere, or lapsed: the game moved on
      s.dialog = null;
    }
  }
}

function openQuestion(shell, s, request, version) {
  if (s.dialog) s.dialog.modal.close(undefined);
  const lines = (request.text || []).filter(Boolean);
  const what = lines.length ? lines.join(" ") : "their last step";
  const dlg = modal({
    title: `${shell.seatName(request.seat)} asks to take back a step`,
    body: [h("p", { testid: "undo-what" }, what), h("p", {}, "Allow it?")],
    testid: "undo-question",
    dismissable: false,
    covers: false,
    buttons: [
      { label: "Decline", value: false, testid: "undo-decline" },
      { label: "Allow", value: true, kind: "primary", testid: "undo-allow" },
    ],
  });
  s.dialog = { modal: dlg, version };
  dlg.done.then((allow) => {
    if (s.dialog && s.dialog.modal === dlg) s.dialog = null;
    if (allow === true || allow === false) {
      s.answeredAt = version; // the views until the answer is taken still show the request: not asked again
      sendKept(shell.socket, { type: "undo_answer", seat: request.answer_as, allow });
    }
  });
}
