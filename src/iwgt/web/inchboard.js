// The virtual table of a game measured in inches: a top-down SVG drawn to scale, for any game whose pieces
// stand anywhere on a free table. It draws what the game's screen hands it, as data: the table and its
// terrain (areas, raised ground with a crest, linear obstacles, zones), markers, pieces on round bases (a
// letter, pips above and below, a corner mark), units on rectangular trays with a facing and several models
// each, rings and a reach outline round a picked piece, points to tap, links between pieces, and the lights the
// server sends (spots: `at` + `radius`; areas: `area`, a polygon in inches). It computes no rule: it reports
// taps (a piece, or a point in inches) and drags of a piece to its owner.

import { s, svgPoint } from "./dom.js";

export const PX = 40; // SVG units per inch
const MARGIN = 40; // room for the inch ruler round the table
const DRAG_START_PX = 8;
const GRID_INCHES = 6;

const fmt = (v) => (Math.round(v * 100) / 100).toString();

/** A point as players read it: (12.5, 3) in inches from the bottom-left corner. */
export function pointText(p) {
  return Array.isArray(p) ? `(${fmt(p[0])}, ${fmt(p[1])})` : "?";
}

/**
 * Where a tray's models stand, in inches from the tray's centre in its own frame: x along the front (right
 * positive), y towards the front. `models` is a count (laid out in ranks, `files` abreast, or as square as the
 * tray allows) or a list of such points.
 */
export function trayModels(tray) {
  if (Array.isArray(tray.models)) return tray.models.map((p) => [Number(p[0]) || 0, Number(p[1]) || 0]);
  const n = Math.max(0, Math.round(Number(tray.models) || 0));
  if (!n) return [];
  const w = Number(tray.width) || 1;
  const d = Number(tray.depth) || 1;
  const files = Math.max(1, Math.min(n, Math.round(Number(tray.files) || Math.ceil(Math.sqrt((n * w) / d)))));
  const ranks = Math.ceil(n / files);
  const out = [];
  for (let i = 0; i < n; i++) {
    const rank = Math.floor(i / files);
    const inRank = rank === ranks - 1 ? n - rank * files : files; // the last rank may be short: centred
    const file = i % files;
    out.push([(file - (inRank - 1) / 2) * (w / files), d / 2 - (rank + 0.5) * (d / ranks)]);
  }
  return out;
}

/** The middle of a polygon's bounding box (where its name is printed). */
function middle(outline) {
  const xs = outline.map((p) => p[0]);
  const ys = outline.map((p) => p[1]);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
}

export class InchBoard {
  /**
   * @param {HTMLElement} host where the SVG goes
   * @param {{onPiece: (id: number) => void, onPoint: (p: number[]) => void, onDrop: (id: number, p: number[]) => void}} handlers
   * @param {{prefix?: string}} [opts] `prefix` starts every data-testid the board makes itself ("ib-" unless told)
   */
  constructor(host, handlers, opts = {}) {
    this.host = host;
    this.handlers = handlers;
    this.prefix = opts.prefix || "ib-";
    this.sig = null;
    this.width = 0;
    this.height = 0;
    this.svg = s("svg", { class: "board inch-board", role: "group", "aria-label": "The table", testid: `${this.prefix}table` });
    const clipId = `ib-clip-${Math.random().toString(36).slice(2, 8)}`;
    // Two textures a game's stylesheet may fill areas with: trees, and hatching (buildings, fields).
    const defs = s("defs", {},
      s("pattern", { id: "ib-trees", width: 24, height: 24, patternUnits: "userSpaceOnUse" },
        s("rect", { width: 24, height: 24, fill: "#1f4a22" }),
        s("circle", { cx: 6, cy: 7, r: 5, fill: "#2f6b2c" }),
        s("circle", { cx: 18, cy: 17, r: 6, fill: "#2a6127" })),
      s("pattern", { id: "ib-hatch", width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 12, height: 12, fill: "#b08d5b" }),
        s("line", { x1: 0, y1: 0, x2: 0, y2: 12, stroke: "#8a6a3c", "stroke-width": 4 })));
    this.clipRect = s("rect", { x: 0, y: 0, width: 0, height: 0 });
    defs.append(s("clipPath", { id: clipId }, this.clipRect));
    this.gTable = s("g", { class: "layer-table" });
    this.gZones = s("g", { class: "layer-zones", "aria-hidden": "true" });
    this.gRings = s("g", { class: "layer-rings", "aria-hidden": "true", "clip-path": `url(#${clipId})` });
    this.gLights = s("g", { class: "layer-lights", "aria-hidden": "true" });
    this.gMarks = s("g", { class: "layer-marks", "aria-hidden": "true" });
    this.gThings = s("g", { class: "layer-things" });
    this.gPieces = s("g", { class: "layer-pieces" });
    this.svg.append(defs, this.gTable, this.gZones, this.gRings, this.gLights, this.gMarks, this.gThings, this.gPieces);
    host.append(this.svg);
    this.drag = null;
    this.svg.addEventListener("pointerdown", (e) => this.down(e));
    this.svg.addEventListener("pointermove", (e) => this.move(e));
    this.svg.addEventListener("pointerup", (e) => this.up(e));
    this.svg.addEventListener("pointercancel", () => { this.drag = null; });
    this.svg.addEventListener("keydown", (e) => this.key(e));
  }

  /** SVG coordinates of a point in inches (y grows up the table, down the screen). */
  sx(x) { return MARGIN + x * PX; }
  sy(y) { return MARGIN + (this.height - y) * PX; }
  pts(list) { return (list || []).map((p) => `${this.sx(p[0]).toFixed(1)},${this.sy(p[1]).toFixed(1)}`).join(" "); }

  /** The point in inches under an SVG coordinate. */
  inches(x, y) {
    return [Math.round(((x - MARGIN) / PX) * 100) / 100, Math.round((this.height - (y - MARGIN) / PX) * 100) / 100];
  }

  /**
   * Draw the table and its terrain (redrawn only when they change).
   * @param {object} table
   * @param {number} table.width inches
   * @param {number} table.height inches
   * @param {object[]} [table.areas] `{outline, kind, name?, title?, crest?, testid?}`: ground drawn as a polygon
   *   (class `ib-area kind-<kind>`, `data-kind`), named in its middle; a `crest` polygon is drawn over it (a hill's)
   * @param {object[]} [table.lines] `{line, kind, title?, testid?}`: a linear obstacle (class `ib-line kind-<kind>`)
   * @param {object[]} [table.zones] `{outline, colour?, title?, label?, testid?}`: a zone outlined in its colour
   */
  setTable(table) {
    const sig = JSON.stringify(table);
    if (sig === this.sig) return;
    this.sig = sig;
    this.width = Number(table.width) || 24;
    this.height = Number(table.height) || 16;
    const W = this.width * PX;
    const H = this.height * PX;
    const p = this.prefix;
    this.svg.setAttribute("viewBox", `0 0 ${W + 2 * MARGIN} ${H + 2 * MARGIN}`);
    this.svg.dataset.width = String(this.width);
    this.svg.dataset.height = String(this.height);
    for (const [k, v] of Object.entries({ x: MARGIN, y: MARGIN, width: W, height: H })) this.clipRect.setAttribute(k, String(v));
    const g = this.gTable;
    g.replaceChildren(s("rect", { x: MARGIN, y: MARGIN, width: W, height: H, class: "ib-felt", testid: `${p}felt` }));
    // A faint grid every 6" and a ruler along the edges, to judge distances by eye.
    for (let x = GRID_INCHES; x < this.width; x += GRID_INCHES) {
      g.append(s("line", { x1: this.sx(x), y1: MARGIN, x2: this.sx(x), y2: MARGIN + H, class: "ib-grid" }));
    }
    for (let y = GRID_INCHES; y < this.height; y += GRID_INCHES) {
      g.append(s("line", { x1: MARGIN, y1: this.sy(y), x2: MARGIN + W, y2: this.sy(y), class: "ib-grid" }));
    }
    for (let x = 0; x <= this.width; x += 1) {
      const major = x % GRID_INCHES === 0;
      g.append(s("line", { x1: this.sx(x), y1: MARGIN + H, x2: this.sx(x), y2: MARGIN + H + (major ? 10 : 5), class: "ib-tick" }));
      if (major) g.append(s("text", { x: this.sx(x), y: MARGIN + H + 22, class: "ib-ruler" }, `${x}"`));
    }
    for (let y = 0; y <= this.height; y += 1) {
      const major = y % GRID_INCHES === 0;
      g.append(s("line", { x1: MARGIN, y1: this.sy(y), x2: MARGIN - (major ? 10 : 5), y2: this.sy(y), class: "ib-tick" }));
      if (major && y > 0) g.append(s("text", { x: MARGIN - 13, y: this.sy(y) + 4, class: "ib-ruler vertical" }, `${y}"`));
    }
    (table.areas || []).forEach((a, i) => {
      g.append(s("polygon", { points: this.pts(a.outline), class: ["ib-area", `kind-${a.kind}`], testid: a.testid || `${p}area-${i}`,
        "data-kind": a.kind }, a.title ? s("title", {}, a.title) : null));
      if (a.crest && a.crest.length) g.append(s("polygon", { points: this.pts(a.crest), class: ["ib-crest", `kind-${a.kind}`] }));
    });
    (table.lines || []).forEach((o, i) => {
      g.append(s("polyline", { points: this.pts(o.line), class: ["ib-line", `kind-${o.kind}`], testid: o.testid || `${p}line-${i}`,
        "data-kind": o.kind }, o.title ? s("title", {}, o.title) : null));
    });
    // Names of the ground, on top of the pieces of terrain.
    for (const a of table.areas || []) if (a.name && a.outline && a.outline.length) this.label(g, a.outline, a.name, "ib-area-name");
    this.gZones.replaceChildren();
    (table.zones || []).forEach((z, i) => {
      this.gZones.append(s("polygon", { points: this.pts(z.outline), class: "ib-zone", testid: z.testid || `${p}zone-${i}`,
        style: { "--zc": z.colour || "#ffffff" } }, z.title ? s("title", {}, z.title) : null));
      if (z.label && z.outline && z.outline.length) this.label(this.gZones, z.outline, z.label, "ib-zone-name");
    });
  }

  label(g, outline, text, cls) {
    const [cx, cy] = middle(outline);
    g.append(s("text", { x: this.sx(cx), y: this.sy(cy), class: cls }, text));
  }

  /**
   * Draw one moment of the table.
   * @param {object} p
   * @param {object[]} [p.lights] normalised lights: spots `{at, radius}` and areas `{area}` (with effect, colour,
   *   pattern, t0, delay_ms, duration_ms)
   * @param {object[]} [p.pieces] pieces on round bases: `{id, at, radius, colour, letter?, name?, title?, classes?,
   *   data?, testid?, above?: [{cls, testid?}], below?: [{cls, testid?}], corner?: {cls, testid?}}`
   * @param {object[]} [p.trays] units on rectangular trays: `{id, at (the tray's centre), width, depth, facing
   *   (degrees counter-clockwise from the table's +x axis: 90 faces up the table), colour, models (a count, or
   *   points in the tray's frame), files?, modelRadius?, letter?, name?, title?, classes?, data?, testid?}`
   * @param {object[]} [p.things] markers: `{id, at, radius?, shape: "disc"|"box", colour?, text?, title?, classes?, testid?}`
   * @param {Set<number>} [p.pickable] pieces and trays this screen may pick
   * @param {number|null} [p.selected] the picked one
   * @param {object[]} [p.rings] `{kind, at, radius, label?, angle? (degrees, where the label sits), testid?}`
   * @param {number[][]} [p.reach] the outline of a picked piece's reach
   * @param {object[]} [p.points] marks to tap: `{at, kind}`
   * @param {number[][][]} [p.links] pairs of points joined by a line (pieces locked in combat)
   */
  render({ lights, pieces, trays, things, pickable, selected, rings, reach, points, links }) {
    const pre = this.prefix;
    const pick = pickable || new Set();
    this.gRings.replaceChildren();
    if (reach && reach.length > 2) this.gRings.append(s("polygon", { points: this.pts(reach), class: "ib-reach", testid: `${pre}reach` }));
    (rings || []).forEach((ring, i) => {
      this.gRings.append(s("circle", { cx: this.sx(ring.at[0]), cy: this.sy(ring.at[1]), r: ring.radius * PX,
        class: ["ib-ring", `ring-${ring.kind}`], testid: ring.testid || `${pre}ring-${ring.kind}`, "data-radius": ring.radius }));
      if (ring.label) {
        // Each ring's label at its own angle, so that rings of equal size do not print on each other.
        const angle = (ring.angle ?? 90 + 45 * i) * (Math.PI / 180);
        const lx = this.sx(ring.at[0] + ring.radius * Math.cos(angle));
        const ly = this.sy(ring.at[1] + ring.radius * Math.sin(angle));
        this.gRings.append(s("text", { x: lx, y: ly - 4, class: ["ib-ring-label", `ring-${ring.kind}`] }, ring.label));
      }
    });
    this.renderLights(lights || []);
    this.gMarks.replaceChildren();
    for (const m of points || []) {
      this.gMarks.append(s("circle", { cx: this.sx(m.at[0]), cy: this.sy(m.at[1]), r: 7,
        class: ["ib-point", `ib-point-${m.kind.split("-")[0]}`], testid: `${pre}point-${m.kind}`, "data-at": `${m.at[0]},${m.at[1]}` }));
    }
    for (const [a, b] of links || []) {
      this.gMarks.append(s("line", { x1: this.sx(a[0]), y1: this.sy(a[1]), x2: this.sx(b[0]), y2: this.sy(b[1]), class: "ib-link" }));
    }
    this.renderThings(things || []);
    const lifted = this.drag && this.drag.moving ? this.drag.id : null;
    this.gPieces.replaceChildren();
    for (const t of trays || []) this.gPieces.append(this.tray(t, pick, selected));
    for (const f of pieces || []) this.gPieces.append(this.piece(f, pick, selected));
    if (lifted !== null) {
      const g = this.gPieces.querySelector(`[data-piece="${lifted}"]`);
      if (g && this.drag.transform) {
        g.setAttribute("transform", this.drag.transform);
        g.classList.add("dragging");
        this.gPieces.append(g);
      }
    }
  }

  renderLights(lights) {
    const now = performance.now();
    this.gLights.replaceChildren();
    // The lights of one alternating effect on one place take turns in list order (melee: green, then red).
    const placed = [];
    for (const l of lights) {
      const where = Array.isArray(l.at) ? `at:${l.at[0]},${l.at[1]}` : Array.isArray(l.area) ? `area:${JSON.stringify(l.area)}` : null;
      if (!where) continue;
      const pattern = l.pattern || "steady";
      const same = pattern === "alternate" && placed.find((x) => x.pattern === "alternate" && x.effect === l.effect && x.where === where);
      if (same) same.colours.push(l.colour);
      else placed.push({ ...l, pattern, where, colours: [l.colour] });
    }
    for (const l of placed) {
      const start = (l.t0 ?? now) + (l.delay_ms || 0) - now;
      const base = { "--delay": `${Math.round(start)}ms`, "--dur": `${l.duration_ms || 1500}ms` };
      const spot = Array.isArray(l.at);
      const tag = spot ? "circle" : "polygon";
      const attrs = spot
        ? { cx: this.sx(l.at[0]), cy: this.sy(l.at[1]), r: (Number(l.radius) || 0.5) * PX, "data-effect": l.effect, "data-at": `${l.at[0]},${l.at[1]}` }
        : { points: this.pts(l.area), "data-effect": l.effect, "data-area": l.area.map((p) => `${p[0]},${p[1]}`).join(" ") };
      const place = spot ? "spot" : "area";
      if (l.pattern === "alternate") {
        const colours = l.colours.length > 1 ? l.colours : [l.colours[0], "transparent"];
        const n = colours.length;
        const period = 600 * n;
        const phase = (now - (l.t0 ?? now)) % period;
        colours.forEach((colour, j) => this.gLights.append(s(tag, { ...attrs, class: ["light", place, "pat-alternate", `fx-${l.effect}`],
          style: { ...base, "--lc": colour, "--altdur": `${period}ms`, "--altdelay": `${Math.round(-phase - (period * (n - j)) / n)}ms` } })));
      } else {
        this.gLights.append(s(tag, { ...attrs, class: ["light", place, `pat-${l.pattern}`, `fx-${l.effect}`],
          style: { ...base, "--lc": l.colour } }));
      }
    }
  }

  renderThings(things) {
    this.gThings.replaceChildren();
    for (const t of things) {
      const x = this.sx(t.at[0]);
      const y = this.sy(t.at[1]);
      const r = (Number(t.radius) || 0.3) * PX;
      const box = t.shape === "box";
      this.gThings.append(s("g", { class: ["ib-thing", box ? "box" : "disc", ...(t.classes || [])], testid: t.testid || `${this.prefix}thing-${t.id}`,
        "data-thing": t.id, "data-at": `${t.at[0]},${t.at[1]}` },
      t.title ? s("title", {}, t.title) : null,
      box ? s("rect", { x: x - r, y: y - r * 0.75, width: 2 * r, height: 1.5 * r, rx: 6, style: t.colour ? { stroke: t.colour } : null })
        : s("circle", { cx: x, cy: y, r, style: t.colour ? { fill: t.colour } : null }),
      t.text ? s("text", { x, y: y + (box ? 5 : 4) }, t.text) : null));
    }
  }

  /** The attributes every pickable thing on the table shares (a piece on a base, a tray). */
  pieceAttrs(f, pick, selected, cls, transform) {
    return {
      class: [cls, ...(f.classes || []), pick.has(f.id) && "pickable", selected === f.id && "selected"],
      transform,
      testid: f.testid || `${this.prefix}piece-${f.id}`,
      "data-piece": f.id,
      "data-at": `${f.at[0]},${f.at[1]}`,
      dataset: f.data || null,
      role: "button",
      tabindex: pick.has(f.id) ? "0" : "-1",
      "aria-label": f.name ? `${f.name}${f.title ? `: ${f.title}` : ""}` : null,
    };
  }

  piece(f, pick, selected) {
    const r = (Number(f.radius) || 0.5) * PX;
    const g = s("g", this.pieceAttrs(f, pick, selected, "ib-piece",
      `translate(${this.sx(f.at[0]).toFixed(1)} ${this.sy(f.at[1]).toFixed(1)})`));
    g.append(s("title", {}, f.title ? `${f.name || ""} (${f.title})` : f.name || ""),
      s("circle", { r, class: "ib-base", style: { fill: f.colour || "#888888" } }),
      s("text", { y: r * 0.36, class: "ib-letter" }, f.letter || ""));
    // Pips in a row over the base and under it (markers of the game's choosing), and a mark at its corner.
    const row = (list, cy) => list.forEach((pip, i) => g.append(s("circle", { cx: (i - (list.length - 1) / 2) * 12, cy, r: 5,
      class: ["ib-pip", pip.cls], testid: pip.testid })));
    row(f.above || [], -r - 7);
    row(f.below || [], r + 7);
    if (f.corner) g.append(s("circle", { cx: r * 0.75, cy: -r * 0.75, r: 7, class: ["ib-corner", f.corner.cls], testid: f.corner.testid }));
    return g;
  }

  tray(t, pick, selected) {
    const w = (Number(t.width) || 1) * PX;
    const d = (Number(t.depth) || 1) * PX;
    const facing = Number(t.facing ?? 90);
    // The tray is drawn with its front up the screen, then turned: a table angle θ (counter-clockwise, y up) is
    // the screen's -θ, and the drawing's front already faces 90°.
    const g = s("g", this.pieceAttrs(t, pick, selected, "ib-tray",
      `translate(${this.sx(t.at[0]).toFixed(1)} ${this.sy(t.at[1]).toFixed(1)}) rotate(${fmt(90 - facing)})`));
    g.dataset.facing = String(facing);
    const models = trayModels(t);
    g.dataset.models = String(models.length);
    // Unless told, a model's base fills a good part of its share of the tray.
    const share = Math.sqrt(((Number(t.width) || 1) * (Number(t.depth) || 1)) / Math.max(1, models.length));
    const mr = (Number(t.modelRadius) || Math.min(0.35 * share, 0.5)) * PX;
    g.append(s("title", {}, t.title ? `${t.name || ""} (${t.title})` : t.name || ""),
      s("rect", { x: -w / 2, y: -d / 2, width: w, height: d, rx: 3, class: "ib-tray-base", style: { fill: t.colour || "#888888" } }),
      s("line", { x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2, class: "ib-tray-front" }));
    models.forEach(([mx, my], i) => g.append(s("circle", { cx: mx * PX, cy: -my * PX, r: mr, class: "ib-model",
      testid: `${t.testid || `${this.prefix}piece-${t.id}`}-model-${i}` })));
    if (t.letter) g.append(s("text", { y: 5, class: "ib-letter ib-tray-letter", transform: `rotate(${fmt(facing - 90)})` }, t.letter));
    return g;
  }

  down(e) {
    if (e.button !== undefined && e.button > 0) return;
    const el = e.target.closest("[data-piece]");
    this.drag = { pointer: e.pointerId, x: e.clientX, y: e.clientY, id: el ? Number(el.dataset.piece) : null,
      pickable: Boolean(el && el.classList.contains("pickable")), moving: false, transform: null };
    if (el && this.drag.pickable) {
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
    }
  }

  move(e) {
    const d = this.drag;
    if (!d || d.pointer !== e.pointerId || !d.pickable) return;
    if (!d.moving && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_START_PX) return;
    d.moving = true;
    const [x, y] = svgPoint(this.svg, e);
    const g = this.gPieces.querySelector(`[data-piece="${d.id}"]`);
    const turn = g && g.dataset.facing !== undefined ? ` rotate(${fmt(90 - Number(g.dataset.facing))})` : "";
    d.transform = `translate(${x.toFixed(1)} ${y.toFixed(1)})${turn} scale(1.1)`;
    if (g) {
      g.setAttribute("transform", d.transform);
      g.classList.add("dragging");
    }
    e.preventDefault();
  }

  up(e) {
    const d = this.drag;
    this.drag = null;
    if (!d || d.pointer !== e.pointerId) return;
    const [x, y] = svgPoint(this.svg, e);
    if (d.moving) {
      this.handlers.onDrop(d.id, this.inches(x, y));
      return;
    }
    if (d.id !== null) this.handlers.onPiece(d.id);
    else this.handlers.onPoint(this.inches(x, y));
  }

  key(e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    const el = e.target.closest("[data-piece]");
    if (el) {
      this.handlers.onPiece(Number(el.dataset.piece));
      e.preventDefault();
    }
  }

  /** The screen position (client pixels) of a point in inches: for tests and the page's own hints. */
  clientPoint(p) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const q = new DOMPoint(this.sx(p[0]), this.sy(p[1])).matrixTransform(ctm);
    return [q.x, q.y];
  }
}
