// The virtual table of a game on hex cells: an SVG hex board (pointy-top, odd-r offset cells [col, row]), its
// terrain, the units as counters, and the lights the server sends, drawn with CSS animations. The board knows no
// game: the terrain's names and each unit's traits come from the game's screen. It computes no lights itself;
// it reports taps, pick-ups and set-downs of counters to its owner.

import { s, svgPoint } from "./dom.js";

const SIZE = 50; // centre to corner, in SVG units
const W = Math.sqrt(3) * SIZE; // flat side to flat side
const MARGIN = 8;
const GUTTER = 40; // the band along each edge that holds the column and row numbers
const EDGE_FONT = 30; // the edge numbers' size: about 9 px when a phone shows a 14-cell board
const PATTERNS = {
  // Terrain textures drawn above the lights, so a lit cell still shows its ground (light lines, dark edges).
  hatch: [["path", { d: "M-2 2 L2 -2 M0 16 L16 0 M14 18 L18 14" }]],
  cross: [["path", { d: "M-2 2 L2 -2 M0 16 L16 0 M14 18 L18 14" }], ["path", { d: "M-2 14 L2 18 M0 0 L16 16 M14 -2 L18 2" }]],
  dots: [["circle", { cx: 4, cy: 4, r: 2.2 }], ["circle", { cx: 12, cy: 12, r: 2.2 }]],
};
const DRAG_START_PX = 8;
const WINGS = "M12 14 C9 8 5 6 1 7 C3 9 4 11 4 13 C6 12 8 13 9 15 C10 14 11 14 12 14 Z M12 14 C15 8 19 6 23 7 C21 9 20 11 20 13 C18 12 16 13 15 15 C14 14 13 14 12 14 Z";

export const key = (cell) => `${cell[0]},${cell[1]}`;

/** The centre of an odd-r offset cell (odd rows are shoved half a cell right). */
export function centre(col, row) {
  return [GUTTER + MARGIN + W / 2 + W * (col + 0.5 * (row & 1)), GUTTER + MARGIN + SIZE + 1.5 * SIZE * row];
}

/** The offset cell under an SVG point (Red Blob's pixel_to_hex, then axial to odd-r). */
export function cellAt(x, y) {
  const px = x - GUTTER - MARGIN - W / 2;
  const py = y - GUTTER - MARGIN - SIZE;
  const fq = ((Math.sqrt(3) / 3) * px - py / 3) / SIZE;
  const fr = ((2 / 3) * py) / SIZE;
  const fs = -fq - fr;
  let q = Math.round(fq);
  let r = Math.round(fr);
  const rs = Math.round(fs);
  const dq = Math.abs(q - fq);
  const dr = Math.abs(r - fr);
  const ds = Math.abs(rs - fs);
  if (dq > dr && dq > ds) q = -r - rs;
  else if (dr > ds) r = -q - rs;
  return [q + (r - (r & 1)) / 2, r];
}

function corners(cx, cy, scale = 1) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + SIZE * scale * Math.cos(a)).toFixed(2)},${(cy + SIZE * scale * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** A unit's label on its counter: two short lines from its printed name. */
export function shortName(name) {
  const clean = String(name || "?").replace(/\(.*?\)/g, " ").split(/ - |,/)[0];
  const words = clean.split(/\s+/).filter((w) => w && !/^(the|of|lord|dwarf)$/i.test(w));
  const cut = (w) => (w.length > 10 ? `${w.slice(0, 9)}.` : w);
  return [cut(words[0] || "?"), words[1] ? cut(words[1]) : ""];
}

export class Board {
  /**
   * @param {HTMLElement} host where the SVG goes
   * @param {{onCell: Function, onUnit: Function, onPick: Function, onDrop: Function}} handlers
   * @param {object} [opts]
   * @param {Object<string, {name: string, tag?: string, pattern?: string}>} [opts.terrain] each terrain kind's name
   *   (a cell's label), the word printed on its cells, if any, and its texture ("hatch", "cross", "dots"), drawn
   *   above the lights so that a lit cell keeps its ground
   * @param {(unit: object) => string[]} [opts.traits] a unit's traits the counter shows ("flyer": wings)
   */
  constructor(host, handlers, opts = {}) {
    this.host = host;
    this.handlers = handlers;
    this.terrain = opts.terrain || {};
    this.traits = opts.traits || (() => []);
    this.dims = null;
    this.cellEls = new Map();
    this.svg = s("svg", { class: "board", role: "group", "aria-label": "The table", testid: "board" });
    this.gTerrain = s("g", { class: "layer-terrain" });
    this.gLights = s("g", { class: "layer-lights", "aria-hidden": "true" });
    this.gGround = s("g", { class: "layer-ground", "aria-hidden": "true", testid: "board-ground", style: { "pointer-events": "none" } });
    this.gEdges = s("g", { class: "layer-edges", "aria-hidden": "true", testid: "board-edges", style: { "pointer-events": "none" } });
    this.gMarks = s("g", { class: "layer-marks", "aria-hidden": "true" });
    this.gUnits = s("g", { class: "layer-units" });
    this.gLabels = s("g", { class: "layer-labels", "aria-hidden": "true" });
    this.svg.append(patterns(), this.gEdges, this.gTerrain, this.gLights, this.gGround, this.gMarks, this.gUnits, this.gLabels);
    host.append(this.svg);
    this.drag = null;
    this.svg.addEventListener("pointerdown", (e) => this.down(e));
    this.svg.addEventListener("pointermove", (e) => this.move(e));
    this.svg.addEventListener("pointerup", (e) => this.up(e));
    this.svg.addEventListener("pointercancel", () => this.cancel());
    this.svg.addEventListener("keydown", (e) => this.key(e));
  }

  /** Build the cells once per board size; terrain is redrawn when it changes. */
  setBoard(board) {
    const sig = JSON.stringify([board.width, board.height, board.terrain]);
    if (sig === this.dims) return;
    this.dims = sig;
    const kinds = new Map((board.terrain || []).map((t) => [key(t.cell), t.kind]));
    this.gTerrain.replaceChildren();
    this.gGround.replaceChildren();
    this.cellEls.clear();
    for (let row = 0; row < board.height; row++) {
      for (let col = 0; col < board.width; col++) {
        const [cx, cy] = centre(col, row);
        const kind = kinds.get(`${col},${row}`) || "open";
        const poly = s("polygon", {
          points: corners(cx, cy, 0.985),
          class: ["cell", `terrain-${kind}`],
          testid: `cell-${col}-${row}`,
          "data-cell": `${col},${row}`,
          "data-terrain": kind,
          "data-light": "",
          role: "button",
          tabindex: "-1",
          "aria-label": `Cell ${col}, ${row}: ${(this.terrain[kind] || {}).name || kind}`,
        });
        this.gTerrain.append(poly);
        const spec = this.terrain[kind] || {};
        if (PATTERNS[spec.pattern]) {
          this.gGround.append(s("polygon", { points: corners(cx, cy, 0.985), class: "ground-mark", fill: `url(#hexpat-${spec.pattern})`,
            testid: `ground-${col}-${row}`, "data-terrain": kind }));
        }
        if (spec.tag) this.gGround.append(s("text", { x: cx, y: cy + SIZE * 0.62, class: "terrain-tag", "aria-hidden": "true" }, spec.tag));
        this.cellEls.set(`${col},${row}`, poly);
      }
    }
    const [maxX] = centre(board.width - 1, 1);
    const [, maxY] = centre(0, board.height - 1);
    const width = maxX + W / 2 + MARGIN + GUTTER;
    const height = maxY + SIZE + MARGIN + GUTTER;
    this.svg.setAttribute("viewBox", `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`);
    this.edgeLabels(board.width, board.height, width, height);
  }

  /** Column numbers along the top and bottom edges, row numbers along the left and right: the [column, row] of
   * every cell a list or a message names can be found by eye. */
  edgeLabels(cols, rows, width, height) {
    this.gEdges.replaceChildren();
    const label = (x, y, text, testid) => s("text", { x: x.toFixed(1), y: y.toFixed(1), class: "edge-label", testid,
      "text-anchor": "middle", "dominant-baseline": "central", "font-size": EDGE_FONT, "font-weight": 700,
      fill: "#c9cfdb" }, String(text));
    for (let c = 0; c < cols; c++) {
      const [top] = centre(c, 0);
      const [bottom] = centre(c, rows - 1);
      this.gEdges.append(label(top, GUTTER / 2 + 2, c, `edge-col-${c}`), label(bottom, height - GUTTER / 2 - 2, c, `edge-col-${c}-bottom`));
    }
    for (let r = 0; r < rows; r++) {
      const [, y] = centre(0, r);
      this.gEdges.append(label(GUTTER / 2 + 2, y, r, `edge-row-${r}`), label(width - GUTTER / 2 - 2, y, r, `edge-row-${r}-right`));
    }
  }

  /**
   * Draw one moment of the table.
   * @param {object} p
   * @param {object[]} p.units observation units (cell null: not seen)
   * @param {object[]} p.lights normalised lights ({cell, effect, colour, pattern, delay_ms})
   * @param {Set<number>} p.mine ids of units this screen may pick up
   * @param {number|null} p.selected the unit picked up
   * @param {Map<string,string>} p.targets cells the current order may choose ("c,r" -> kind)
   * @param {object[]} p.previews [{cell, text, title?}] (title: what the label's numbers mean)
   */
  render({ units, lights, mine, selected, targets, previews, ownerSeat }) {
    this.renderLights(lights || []);
    // Marks: cells to choose for the order in hand (not lights: the page's own affordance).
    this.gMarks.replaceChildren();
    for (const [k, kind] of targets || new Map()) {
      const [c, r] = k.split(",").map(Number);
      const [cx, cy] = centre(c, r);
      this.gMarks.append(s("polygon", { points: corners(cx, cy, 0.8), class: ["target", `target-${kind}`] }));
    }
    for (const [k, el] of this.cellEls) {
      const t = targets && targets.get(k);
      el.toggleAttribute("data-target", Boolean(t));
      el.setAttribute("tabindex", t ? "0" : "-1");
    }
    this.renderUnits(units || [], mine || new Set(), selected, ownerSeat);
    this.gLabels.replaceChildren();
    // A label sits above its cell; where it would cover a label already placed (two targets side by side),
    // it goes below its cell instead, so that every number stays readable.
    const placed = [];
    const clashes = (r) => placed.some((o) => r.x < o.x + o.width && o.x < r.x + r.width && r.y < o.y + 19 && o.y < r.y + 19);
    for (const p of previews || []) {
      const [cx, cy] = centre(p.cell[0], p.cell[1]);
      const g = s("g", { class: "preview-label", testid: `preview-${p.cell[0]}-${p.cell[1]}` });
      if (p.title) g.append(s("title", {}, p.title)); // what the numbers mean, on hover or a long press
      const width = Math.max(40, p.text.length * 7.4 + 12);
      let box = { x: cx - width / 2, y: cy - SIZE * 0.52 - 14, width };
      const below = { ...box, y: cy + SIZE * 0.52 - 5 };
      if (clashes(box) && !clashes(below)) box = below;
      placed.push(box);
      const text = s("text", { x: cx, y: box.y + 14 }, p.text);
      g.append(s("rect", { x: box.x, y: box.y, width, height: 19, rx: 5 }), text);
      this.gLabels.append(g);
    }
  }

  renderLights(lights) {
    const now = performance.now();
    this.gLights.replaceChildren();
    const perCell = new Map();
    for (const l of lights) {
      if (!l.cell) continue;
      const k = key(l.cell);
      if (!perCell.has(k)) perCell.set(k, []);
      perCell.get(k).push(l);
    }
    for (const [k, el] of this.cellEls) {
      const list = perCell.get(k) || [];
      el.dataset.light = list.map((l) => l.effect).join(" ");
    }
    for (const [k, list] of perCell) {
      if (!this.cellEls.has(k)) continue;
      const [c, r] = k.split(",").map(Number);
      const [cx, cy] = centre(c, r);
      // The lights of one alternating effect on one cell take turns, in list order (melee: green, then red).
      const rings = [];
      for (const l of list) {
        const pattern = l.pattern || "steady";
        const same = pattern === "alternate" && rings.find((g) => g.pattern === "alternate" && g.effect === l.effect);
        if (same) same.colours.push(l.colour);
        else rings.push({ ...l, pattern, colours: [l.colour] });
      }
      rings.forEach((l, i) => {
        const scale = Math.max(0.45, 0.94 - i * 0.16); // several effects on one cell: nested rings
        // Delays count from when the light arrived, so a redraw never restarts an animation.
        const start = (l.t0 ?? now) + (l.delay_ms || 0) - now;
        const base = { "--delay": `${Math.round(start)}ms`, "--dur": `${l.duration_ms || 1500}ms` };
        const points = corners(cx, cy, scale);
        if (l.pattern === "alternate") {
          const colours = l.colours.length > 1 ? l.colours : [l.colours[0], "transparent"];
          const n = colours.length;
          const period = 600 * n;
          const phase = ((now - (l.t0 ?? now)) % period);
          colours.forEach((colour, j) => this.gLights.append(s("polygon", {
            points,
            class: ["light", "pat-alternate", `fx-${l.effect}`],
            style: { ...base, "--lc": colour, "--altdur": `${period}ms`,
              "--altdelay": `${Math.round(-phase - (period * (n - j)) / n)}ms` },
          })));
        } else {
          this.gLights.append(s("polygon", { points, class: ["light", `pat-${l.pattern}`, `fx-${l.effect}`], style: { ...base, "--lc": l.colour } }));
        }
      });
    }
  }

  renderUnits(units, mine, selected, ownerSeat) {
    const lifted = this.drag && this.drag.moving ? this.drag.unitEl.getAttribute("transform") : null;
    this.gUnits.replaceChildren();
    for (const u of units) {
      if (!u.cell || u.status !== "active") continue;
      const [cx, cy] = centre(u.cell[0], u.cell[1]);
      const [l1, l2] = shortName(u.name);
      const frac = u.start ? Math.max(0, Math.min(1, u.strength / u.start)) : 0;
      const canPick = mine.has(u.id);
      const commanded = u.commander !== undefined && u.commander !== u.owner;
      const g = s("g", {
        class: [
          "unit", `side-${u.owner}`, canPick && "pickable", selected === u.id && "selected",
          u.hidden && "ghost", commanded && `commanded-by-${u.commander}`, u.airborne && "airborne",
          u.routed && "routed",
        ],
        transform: `translate(${cx.toFixed(2)} ${cy.toFixed(2)})`,
        testid: `unit-${u.id}`,
        "data-unit": u.id,
        "data-cell": key(u.cell),
        role: "button",
        tabindex: canPick ? "0" : "-1",
        "aria-label": `${u.name}${u.hidden ? " (hidden)" : ""}, strength ${Math.round(frac * 100)}%, ${u.level || ""}`,
      });
      g.append(
        s("rect", { x: -37, y: -25, width: 74, height: 50, rx: 9, class: "counter" }),
        s("text", { x: 0, y: l2 ? -6 : 2, class: "label" }, l1),
      );
      if (l2) g.append(s("text", { x: 0, y: 9, class: "label label2" }, l2));
      g.append(
        s("rect", { x: -31, y: 14, width: 62, height: 6, rx: 2, class: "sbar-bg" }),
        s("rect", { x: -31, y: 14, width: (62 * frac).toFixed(1), height: 6, rx: 2,
          class: ["sbar", frac > 0.5 ? "ok" : frac > 0.25 ? "low" : "bad"] }),
      );
      const traits = this.traits(u) || [];
      if (traits.includes("flyer")) {
        g.append(s("path", { class: ["wing-mark", u.airborne && "flying"], transform: "translate(-50 -44) scale(1.5)",
          d: WINGS }));
      }
      if (u.hidden) {
        g.append(s("circle", { cx: 30, cy: -22, r: 9, class: "stealth-mark" }),
          s("text", { x: 30, y: -18, class: "stealth-text" }, "?"));
      }
      if (u.infected) g.append(s("text", { x: -30, y: -16, class: "skull-mark" }, "\u2620"));
      this.gUnits.append(g);
    }
    if (lifted) {
      const g = this.gUnits.querySelector(`[data-unit="${this.drag.unit}"]`);
      if (g) {
        g.setAttribute("transform", lifted);
        g.classList.add("dragging");
        this.gUnits.append(g);
        this.drag.unitEl = g;
      }
    }
  }

  svgPoint(e) {
    return svgPoint(this.svg, e);
  }

  down(e) {
    if (e.button !== undefined && e.button > 0) return;
    const unitEl = e.target.closest("[data-unit]");
    const cellEl = e.target.closest("[data-cell]");
    this.drag = {
      id: e.pointerId,
      x: e.clientX,
      y: e.clientY,
      unit: unitEl ? Number(unitEl.dataset.unit) : null,
      unitEl,
      cell: cellEl ? cellEl.dataset.cell.split(",").map(Number) : null,
      moving: false,
      pickable: unitEl ? unitEl.classList.contains("pickable") : false,
    };
    if (unitEl && this.drag.pickable) {
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
    }
  }

  move(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId || !d.pickable) return;
    if (!d.moving && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_START_PX) return;
    if (!d.moving) {
      d.moving = true;
      this.handlers.onPick(d.unit); // may redraw the units: the lifted counter is found again below
    }
    if (!d.unitEl.isConnected) d.unitEl = this.gUnits.querySelector(`[data-unit="${d.unit}"]`) || d.unitEl;
    if (!d.unitEl.classList.contains("dragging")) {
      d.unitEl.classList.add("dragging");
      this.gUnits.append(d.unitEl); // on top of the others while lifted
    }
    const [x, y] = this.svgPoint(e);
    d.unitEl.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(1.12)`);
    e.preventDefault();
  }

  up(e) {
    const d = this.drag;
    this.drag = null;
    if (!d || d.id !== e.pointerId) return;
    if (d.moving) {
      const [x, y] = this.svgPoint(e);
      const cell = cellAt(x, y);
      d.unitEl.classList.remove("dragging");
      this.handlers.onDrop(d.unit, cell);
      return;
    }
    if (d.unit !== null) this.handlers.onUnit(d.unit, d.cell);
    else if (d.cell) this.handlers.onCell(d.cell);
  }

  cancel() {
    if (this.drag && this.drag.moving) this.handlers.onDrop(this.drag.unit, null);
    this.drag = null;
  }

  key(e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    const unitEl = e.target.closest("[data-unit]");
    const cellEl = e.target.closest("[data-cell]");
    const cell = cellEl ? cellEl.dataset.cell.split(",").map(Number) : null;
    if (unitEl) this.handlers.onUnit(Number(unitEl.dataset.unit), cell);
    else if (cell) this.handlers.onCell(cell);
    e.preventDefault();
  }
}

/** The terrain textures (PATTERNS) as SVG patterns, one set per board. */
function patterns() {
  const defs = s("defs", {});
  for (const [name, parts] of Object.entries(PATTERNS)) {
    const pat = s("pattern", { id: `hexpat-${name}`, width: 16, height: 16, patternUnits: "userSpaceOnUse" });
    for (const [tag, attrs] of parts) {
      // A dark line under a light one: the texture shows on dark ground and under a bright light alike.
      pat.append(s(tag, { ...attrs, fill: tag === "circle" ? "#0b0d10" : "none", stroke: "#0b0d10", "stroke-width": 4.2, "stroke-opacity": 0.55, "fill-opacity": 0.55 }));
      pat.append(s(tag, { ...attrs, fill: tag === "circle" ? "#f2e6c9" : "none", stroke: "#f2e6c9", "stroke-width": 1.8, "stroke-opacity": 0.8, "fill-opacity": 0.8 }));
    }
    defs.append(pat);
  }
  return defs;
}
