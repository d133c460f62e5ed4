// The physical table on the touchscreen (docs/hardware.md, docs/screen-shell.md "The physical table"): the
// strip over the board that shows what the bound table's sensors say (the piece in the air and its note, a
// placement the rules refused, the cells where the table differs from the game, why the game waits) with a
// "Carry on" button, and the lobby's calls to GET/PUT /api/hardware. Everything here comes from the view's
// public `hardware` field and is the same for every seat; no game is named.

import { h, fill } from "./dom.js";
import { withClauses } from "./ui.js";

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

/** A divergent cell in words: what to do about it (the bridge's own wording, docs/hardware.md). */
export function divergentWords(d) {
  const name = d.name || "the piece";
  const at = where(d.cell, d.table_cell);
  if (d.want === "piece") return `put ${name} back on ${at}`;
  if (d.want === "tag") return `put ${name} on ${at} (another piece stands there)`;
  return `take the piece off ${at}`;
}

/** "Rangers lifted from [4, 3]". */
export function heldWords(held) {
  return `${held.name || "A piece"} lifted from ${where(held.cell, null)}`;
}

/**
 * The hardware strip: built once by the shell, drawn from each view (`render(view)`), hidden while no physical
 * table plays the game (`view.hardware` null). The shell gives `socket`, `mySeats()` and `followHeld(unit, was)`. A `table_diverged` refusal (`refused(msg)`) stays shown as such
 * until a view says the game no longer waits.
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
    this.heldUnit = null;
    this.el = h("section", { class: "hw-strip", testid: "hw-strip", hidden: true, "aria-label": "Physical table",
      "aria-live": "polite" });
  }

  /** An act was refused: keep a `table_diverged` refusal's words in the strip. */
  refused(msg) {
    if (msg && msg.error === DIVERGED) this.diverged = msg.message || "The physical table differs from the game.";
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

  render(view) {
    const hw = view ? view.hardware : null;
    this.el.hidden = !hw;
    this.light(hw);
    if (!hw) {
      this.diverged = null;
      this.heldKey = null;
      this.heldUnit = null;
      this.el.replaceChildren();
      return;
    }
    if (!hw.blocked) this.diverged = null;
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
    const head = h("div", { class: "hw-head" },
      h("span", { class: "hw-title" }, "Physical table ", h("strong", { testid: "hw-device" }, hw.device)),
      h("span", { class: "hw-badge", testid: "hw-online", "data-state": online ? "online" : "offline" },
        online ? "Online" : "Offline"));
    const held = hw.held ? h("div", { class: "hw-held", testid: "hw-held", "data-unit": hw.held.unit },
      h("strong", {}, heldWords(hw.held)),
      hw.held.note ? h("span", { class: "hw-note", testid: "hw-note" }, withClauses(hw.held.note)) : null) : null;
    const refusal = hw.refusal ? h("p", { class: "hw-refusal", testid: "hw-refusal", role: "alert",
      "data-cell": Array.isArray(hw.refusal.cell) ? hw.refusal.cell.join(",") : "" },
    hw.refusal.cell ? `Not on ${where(hw.refusal.cell, null)}: ` : "", withClauses(hw.refusal.reason || "refused")) : null;
    const mine = (this.shell.mySeats() || []).length > 0; // a spectator's screen does not decide for the table
    const cells = divergent.length === 1 ? "1 cell differs" : `${divergent.length} cells differ`;
    const fixes = divergent.length ? h("div", { class: "hw-divergent", testid: "hw-divergent" },
      h("span", { class: "hw-label" }, `${cells} from the game:`),
      h("ul", {}, divergent.map((d, i) => h("li", { testid: `hw-divergent-${i}`, "data-want": d.want,
        "data-cell": Array.isArray(d.cell) ? d.cell.join(",") : "" }, divergentWords(d)))),
      mine ? h("button", { type: "button", class: "btn secondary small", testid: "hw-carry-on",
        title: "Play on: the cells the table reads wrongly now are ignored until each changes again",
        onclick: () => this.carryOn() }, "Carry on") : null) : null;
    // The divergent cells are listed above: the reason's own list of them is not repeated.
    const why = divergent.length ? "until the table agrees with it (follow the lights) or the players carry on" : hw.blocked;
    const blocked = hw.blocked ? h("p", { class: "hw-blocked", testid: "hw-blocked", title: hw.blocked },
      h("strong", {}, "The game waits "), why) : null;
    const diverged = this.diverged ? h("p", { class: "hw-diverged", testid: "hw-diverged", role: "alert" },
      h("strong", {}, "Refused until the table agrees: "), this.diverged) : null;
    fill(this.el, head, held, refusal, fixes, blocked, diverged);
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
