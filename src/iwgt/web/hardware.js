// The physical table on the touchscreen (docs/hardware.md, docs/screen-shell.md "The physical table"): the
// strip over the board that shows what the bound table's sensors say (the piece in the air and its note, a
// placement the rules refused, the cells where the table differs from the game, why the game waits) with a
// "Carry on" button, and the lobby's calls to GET/PUT /api/hardware. Everything here comes from the view's
// public `hardware` field and is the same for every seat; no game is named.

import { h, fill } from "./dom.js";
import { toast, withClauses } from "./ui.js";

export const DIVERGED = "table_diverged"; // the code of an act refused while the table differs from the game

// The lights the physical table shows for itself, drawn on the screen's board too (docs/hardware.md: the same
// colours and patterns as core/lights.py's RED, SKY and ORANGE, hardware/frames.py's patterns).
const TABLE_LIGHTS = {
  illegal: { colour: "#ef4444", pattern: "steady" }, // a refused placement's cell
  piece_missing: { colour: "#38bdf8", pattern: "pulse" }, // a piece belongs here
  piece_extra: { colour: "#f97316", pattern: "flash" }, // take this piece off
};

/** A game cell as the players read it, "[4, 3]"; an off-board table cell says so. */
export function where(cell, tableCell) {
  if (Array.isArray(cell)) return `[${cell[0]}, ${cell[1]}]`;
  if (Array.isArray(tableCell)) return `the table's cell [${tableCell[0]}, ${tableCell[1]}]`;
  return "a cell off the board";
}

/** A divergent cell in words: what to do about it (the bridge's own wording, docs/hardware.md): "back" only
 * for a piece that stood on that cell (`back`), a piece the game moved or a table set up afresh is put "on" it. */
export function divergentWords(d) {
  const name = d.name || "the piece";
  const at = where(d.cell, d.table_cell);
  if (d.want === "piece") return d.back ? `put ${name} back on ${at}` : `put ${name} on ${at}`;
  if (d.want === "tag") return `put ${name} on ${at} (another piece stands there)`;
  return `take the piece off ${at}`;
}

/** "Archers lifted from [4, 3]" (the unit's name as the view gives it). */
export function heldWords(held) {
  return `${held.name || "A piece"} lifted from ${where(held.cell, null)}`;
}

/** Words ended as a sentence (a full stop unless they end with one already). */
function sentence(text) {
  const t = String(text).trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** What the screen says while the game waits for hands on the table: the bridge's reason, capitalised (an
 * offline table in fewer words, with the way on). */
export function waitingWords(hw) {
  if (hw.blocked && !hw.online) return `${hw.device} is offline: plug it back in, or free it in the lobby to play on the screen.`;
  const why = String(hw.blocked || "");
  return why ? sentence(why[0].toUpperCase() + why.slice(1)) : "";
}

/**
 * The hardware strip: built once by the shell, drawn from each view (`render(view)`), hidden while no physical
 * table plays the game (`view.hardware` null). The shell gives `socket`, `mySeats()` and `followHeld(unit, was)`.
 * A `table_diverged` refusal (`refused(msg)`) stays shown as such until a view says the game no longer waits;
 * then it goes, with its toast (`agrees()` tells the shell to drop its own red line).
 *
 * Its height is fixed while a table plays (style.css `.hw-strip`): its lines come and go with each lift,
 * placement and refusal, and a board that resized with them would move its cells under the finger. What does
 * not fit scrolls in the strip's body, with the count of cells in its head and a "more below" cue.
 */
export class HardwareStrip {
  /** @param {{socket: object, mySeats: () => number[], followHeld: Function}} shell the table's shell */
  constructor(shell) {
    this.shell = shell;
    this.diverged = null; // the message of the last act refused because the table differs from the game
    this.sent = 0;
    this.heldKey = null; // "<view version>:<unit>" of the piece in the air last picked on the screen
    this.lit = []; // the table's own lights on the game's cells (refusal, divergence), for the board
    this.litKey = "";
    this.heldUnit = null; // the piece in the air on the table: the screen's selection follows it
    this.blocked = false;
    this.el = h("section", { class: "hw-strip", testid: "hw-strip", hidden: true, "aria-label": "Physical table" });
    this.head = h("div", { class: "hw-head" });
    this.body = h("div", { class: "hw-body", testid: "hw-body", role: "region", "aria-live": "polite",
      "aria-label": "What the physical table says" });
    this.more = h("button", { type: "button", class: "hw-more", testid: "hw-more", hidden: true,
      onclick: () => this.body.scrollBy({ top: this.body.clientHeight * 0.8, behavior: "smooth" }) }, "More below");
    this.el.append(this.head, this.body, this.more);
    this.body.addEventListener("scroll", () => this.cue());
    if (typeof ResizeObserver === "function") new ResizeObserver(() => this.cue()).observe(this.body);
  }

  /** An act was refused: keep a `table_diverged` refusal's words in the strip, and mark its toast. */
  refused(msg) {
    if (!msg || msg.error !== DIVERGED) return;
    this.diverged = msg.message || "The physical table differs from the game.";
    const last = document.querySelector("#toasts > :last-child");
    if (last) last.dataset.error = DIVERGED; // the shell's toast of it, dropped once the table agrees
  }

  /** Whether the game no longer waits for the table (no table, or one that agrees): a `table_diverged`
   * refusal the screen still shows is stale then. */
  agrees(view) {
    const hw = view ? view.hardware : null;
    return !(hw && hw.blocked);
  }

  /** While a piece is in the air on the table, the screen's selection follows it: picking another piece, or
   * putting it down on the screen, is answered "put the piece down on the table" (true: the caller stops). */
  keeps(id) {
    if (this.heldUnit === null || id === this.heldUnit) return false;
    toast("The piece is in the air on the physical table: put the piece down on the table first.", "info");
    return true;
  }

  /** An action for the piece in the air, sent from the screen, would leave the table behind: refused here. */
  keepsAction(action) {
    if (this.heldUnit === null || !action || action.unit !== this.heldUnit) return false;
    toast("That piece is in the air on the physical table: put the piece down on the table (on a lit cell to move it).",
      "info");
    return true;
  }

  /** Send "carry on": the game plays on past the cells the table reads wrongly now (any seat may). */
  carryOn() {
    this.sent += 1;
    this.shell.socket.sendRaw({ type: "hardware", op: "carry_on", id: `hw-${Date.now().toString(36)}-${this.sent}` });
  }

  /** The table's own lights on the board: the refused cell red, the divergent cells as the LEDs show them. */
  lights() {
    return this.lit;
  }

  light(hw) {
    const wanted = [];
    if (hw && hw.refusal && Array.isArray(hw.refusal.cell)) wanted.push(["illegal", hw.refusal.cell]);
    for (const d of (hw && Array.isArray(hw.divergent) ? hw.divergent : [])) {
      if (Array.isArray(d.cell)) wanted.push([d.want === "piece" ? "piece_missing" : "piece_extra", d.cell]);
    }
    const key = JSON.stringify(wanted);
    if (key === this.litKey) return; // unchanged: keep their start, so that a pulse never restarts
    this.litKey = key;
    const now = performance.now();
    this.lit = wanted.map(([effect, cell]) => ({ effect, cell, ...TABLE_LIGHTS[effect], delay_ms: 0, duration_ms: null,
      t0: now, expires: null }));
  }

  /** The body's "more below" cue: shown while lines lie below what the fixed strip shows; the body takes
   * focus then (a keyboard scrolls it). */
  cue() {
    const b = this.body;
    const over = b.scrollHeight - b.clientHeight > 2;
    const end = b.scrollTop + b.clientHeight >= b.scrollHeight - 2;
    const bottom = b.getBoundingClientRect().bottom;
    const below = [...b.querySelectorAll("li, .hw-body > *:not(.hw-divergent)")]
      .filter((el) => el.getBoundingClientRect().top >= bottom - 4).length;
    this.more.hidden = !over || end;
    this.more.textContent = below ? `${below} more below ↓` : "More below ↓";
    if (over) b.tabIndex = 0;
    else b.removeAttribute("tabindex");
    this.el.dataset.overflow = over ? "true" : "false";
  }

  render(view) {
    const hw = view ? view.hardware : null;
    this.el.hidden = !hw;
    this.light(hw);
    if (!hw) {
      this.diverged = null;
      this.heldKey = null;
      this.heldUnit = null;
      this.blocked = false;
      this.head.replaceChildren();
      this.body.replaceChildren();
      this.more.hidden = true;
      return;
    }
    if (!hw.blocked) {
      this.diverged = null;
      for (const el of document.querySelectorAll(`#toasts > [data-error="${DIVERGED}"]`)) el.remove();
    }
    this.blocked = Boolean(hw.blocked);
    // A piece lifted on the table is picked on the screen too (its moves lit there as on the table's LEDs);
    // once it is down it is let go. Again for each new view (a fresh view lets go of the screen's pick).
    const key = hw.held ? `${view.version}:${hw.held.unit}` : null;
    if (key !== this.heldKey) {
      const was = this.heldUnit;
      this.heldKey = key;
      this.heldUnit = hw.held ? hw.held.unit : null;
      const unit = this.heldUnit;
      queueMicrotask(() => this.shell.followHeld(unit, was)); // not while the shell is drawing
    }
    const divergent = Array.isArray(hw.divergent) ? hw.divergent : [];
    const online = Boolean(hw.online);
    this.el.dataset.online = online ? "true" : "false";
    this.el.dataset.blocked = hw.blocked ? "true" : "false";
    const mine = (this.shell.mySeats() || []).length > 0; // a spectator's screen does not decide for the table
    const cells = divergent.length === 1 ? "1 cell differs" : `${divergent.length} cells differ`;
    // Carry on passes cells a sensor reads wrongly; never a placement the rules refused (its piece must go back).
    const carry = divergent.length && mine && !hw.refusal ? h("button", { type: "button", class: "btn secondary small",
      testid: "hw-carry-on", title: "Play on: the cells the table reads wrongly now are ignored until each changes again",
      onclick: () => this.carryOn() }, "Carry on") : null;
    fill(this.head,
      h("span", { class: "hw-title" }, "Physical table ", h("strong", { testid: "hw-device" }, hw.device)),
      h("span", { class: "hw-badge", testid: "hw-online", "data-state": online ? "online" : "offline" },
        online ? "Online" : "Offline"),
      divergent.length ? h("span", { class: "hw-count", testid: "hw-count" }, `${cells} from the game`) : null,
      carry);
    const held = hw.held ? h("div", { class: "hw-held", testid: "hw-held", "data-unit": hw.held.unit },
      h("strong", {}, heldWords(hw.held)),
      hw.held.note ? h("span", { class: "hw-note", testid: "hw-note" }, withClauses(hw.held.note)) : null) : null;
    const refusal = hw.refusal ? h("p", { class: "hw-refusal", testid: "hw-refusal", role: "alert",
      "data-cell": Array.isArray(hw.refusal.cell) ? hw.refusal.cell.join(",") : "" },
    hw.refusal.cell ? `Not on ${where(hw.refusal.cell, null)}: ` : "", withClauses(sentence(hw.refusal.reason || "refused")),
    " Put the piece back where it was.") : null;
    const fixes = divergent.length ? h("div", { class: "hw-divergent", testid: "hw-divergent" },
      h("ul", { "aria-label": `${cells} from the game` }, divergent.map((d, i) => h("li", { testid: `hw-divergent-${i}`,
        "data-want": d.want, "data-cell": Array.isArray(d.cell) ? d.cell.join(",") : "" }, divergentWords(d))))) : null;
    // The divergent cells are listed above: the reason's own list of them is not repeated.
    const why = divergent.length ? "until the table agrees with it (follow the lights)"
      : !online ? waitingWords(hw) : hw.blocked;
    const blocked = hw.blocked ? h("p", { class: "hw-blocked", testid: "hw-blocked", title: hw.blocked },
      h("strong", {}, "The game waits: "), " ", why) : null;
    const diverged = this.diverged ? h("p", { class: "hw-diverged", testid: "hw-diverged", role: "alert" },
      h("strong", {}, "Refused until the table agrees: "), this.diverged) : null;
    // The server could not compute the table's lights (it is dark): said, so nobody trusts a dark table.
    const dark = hw.lights ? h("p", { class: "hw-refusal", testid: "hw-lights", role: "alert" }, String(hw.lights))
      : null;
    const calm = !held && !refusal && !fixes && !blocked && !diverged && !dark
      ? h("p", { class: "hw-calm", testid: "hw-agrees" }, "The table and the game agree.") : null;
    fill(this.body, held, refusal, fixes, blocked, diverged, dark, calm);
    requestAnimationFrame(() => this.cue()); // once laid out
  }
}

// ---------------------------------------------------------------- the lobby's side

async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  if (!res.ok) {
    const detail = data && (data.message || data.detail || data.error);
    throw new Error(typeof detail === "string" ? detail : `HTTP ${res.status}`);
  }
  return data;
}

/** The physical tables the server's bridge knows (none when it runs without one), online ones first. */
export async function listDevices() {
  const data = await call("GET", "/api/hardware");
  const devices = (data && Array.isArray(data.devices)) ? data.devices : [];
  return devices.slice().sort((a, b) => Number(Boolean(b.online)) - Number(Boolean(a.online))
    || String(a.device).localeCompare(String(b.device)));
}

/** Bind a device to a game table (`table` null frees it); the device's JSON, or an Error saying why not. */
export function bindDevice(device, table) {
  return call("PUT", `/api/hardware/${encodeURIComponent(device)}`, { table });
}

/** A device as the select lists it: "sim-1 (16 x 12, online)". */
export function deviceLabel(d) {
  const size = d.columns && d.rows ? `${d.columns} x ${d.rows}, ` : "";
  return `${d.device} (${size}${d.online ? "online" : "offline"})`;
}
