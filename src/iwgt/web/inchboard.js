// The virtual table of a game measured in inches: a top-down SVG drawn to scale, for any game whose pieces
// stand anywhere on a free table. It draws what the game's screen hands it, as data: the table and its
// terrain (areas, raised ground with a crest, linear obstacles, zones), markers, pieces on round bases (a
// letter, pips above and below, a corner mark), units on rectangular trays with a facing and several models
// each (round models, or miniatures as equal cells across the tray's front), rings and a reach outline round a
// picked piece, points to tap, links between pieces, arrows (a piece's path, a push from where to where),
// ghost trays (where a tray would stand: a planned move, a contact, a landing; a planned one may be turned by a
// drag), and the lights the server sends (spots: `at` + `radius`; areas: `area`, a polygon in inches). It
// computes no rule: it reports taps (a piece, or a point in inches), drags of a piece and turns of a ghost to
// its owner.
//
// Kept readable however crowded or small: a ring's label is placed on its ring where no piece, marker, point
// or other label is, on a dark plate, above the pieces; a piece's pips stay inside its own base (a row over
// the letter, a row under it), never on its neighbour; and a ring's label is never drawn smaller on the screen
// than TEXT_MIN_PX (it grows as the board shrinks; the board's other words are the shell's zoom's concern).

import { s, svgPoint } from "./dom.js";

export const PX = 40; // SVG units per inch
const MARGIN = 40; // room for the inch ruler round the table
const DRAG_START_PX = 8;
const GRID_INCHES = 6;
const TEXT_MIN_PX = 10; // the smallest a board's word may be on the screen (CSS pixels; as the shell's zoom, READABLE_PX)
const LABEL_PAD = 4; // room round a ring label's words on its plate (SVG units)
const OUTLINE_LABEL_MARGIN = 1.5; // inches: an outline's label keeps this far inside the table's sides (its width)
const LABEL_STEP_DEGREES = 10; // how far along its ring a label is tried again when its place is taken
const POINT_R = 7; // a point to tap (SVG units)
const ARROW_HEAD = 16; // an arrow's head, tip to back (SVG units)

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
   * @param {{onPiece: (id: number, p?: number[]) => void, onPoint: (p: number[]) => void, onDrop: (id: number, p: number[]) => void,
   *   onTurn?: (key: string, facing: number) => void}} handlers (`onTurn`: a turnable ghost was turned by a drag)
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
    this.gGhosts = s("g", { class: "layer-ghosts", "aria-hidden": "true", "pointer-events": "none" });
    this.gArrows = s("g", { class: "layer-arrows", "aria-hidden": "true", "pointer-events": "none" });
    this.gThings = s("g", { class: "layer-things" });
    this.gPieces = s("g", { class: "layer-pieces" });
    // Ring labels go over everything else (on their plates), placed where nothing is.
    this.gLabels = s("g", { class: "layer-labels", "aria-hidden": "true", "pointer-events": "none" });
    // Ghosts over the pieces: a planned tray is what the player handles (one that is not turnable lets taps
    // through to the pieces under it).
    this.svg.append(defs, this.gTable, this.gZones, this.gRings, this.gLights, this.gMarks, this.gThings, this.gPieces, this.gGhosts,
      this.gArrows, this.gLabels);
    host.append(this.svg);
    this.labels = []; // the rings whose labels are drawn, kept to lay them out again when the board is resized
    this.textScale = 0; // the screen scale the labels were last laid out for
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => {
        if (Math.abs(this.screenScale() - this.textScale) > 1e-3) this.layoutLabels();
      }).observe(this.svg);
    }
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
    for (const a of table.areas || []) if (a.name && a.outline && a.outline.length) this.label(g, a.outline, a.name, "ib-area-name", a.labelAt);
    this.gZones.replaceChildren();
    (table.zones || []).forEach((z, i) => {
      this.gZones.append(s("polygon", { points: this.pts(z.outline), class: "ib-zone", testid: z.testid || `${p}zone-${i}`,
        style: { "--zc": z.colour || "#ffffff" } }, z.title ? s("title", {}, z.title) : null));
      if (z.label && z.outline && z.outline.length) this.label(this.gZones, z.outline, z.label, "ib-zone-name");
    });
  }

  /** How many CSS pixels of the screen one SVG unit takes now (0 when the board is not on the screen). */
  screenScale() {
    const ctm = this.svg.getScreenCTM ? this.svg.getScreenCTM() : null;
    return ctm ? Math.hypot(ctm.a, ctm.b) : 0;
  }

  /** A name at the middle of its outline, or at `at` (inches) when the screen moves it off a marker there. */
  label(g, outline, text, cls, at = null) {
    const [cx, cy] = Array.isArray(at) ? at : middle(outline);
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
   *   points in the tray's frame), files?, modelRadius?, cells? (instead of models: that many miniatures as equal
   *   cells across the front, each the tray's whole depth), badge? ({text, cls?}: a small plate at the tray's
   *   rear right, e.g. its hit points), bases? ([width, depth]: each model drawn as its rectangular base), letter?,
   *   name?, title?, classes?, data?, testid?}`
   * @param {object[]} [p.things] markers: `{id, at, radius?, shape: "disc"|"box", colour?, text?, title?, classes?, testid?}`
   * @param {Set<number>} [p.pickable] pieces and trays this screen may pick
   * @param {number|null} [p.selected] the picked one
   * @param {object[]} [p.rings] `{kind, at, radius, label?, angle? (degrees, where the label sits), testid?}`
   * @param {number[][]} [p.reach] the outline of a picked piece's reach
   * @param {object[]} [p.points] marks to tap: `{at, kind}`
   * @param {number[][][]} [p.links] pairs of points joined by a line (pieces locked in combat)
   * @param {object[]} [p.arrows] `{from, to, kind, label?, testid?}`: an arrow from a point to a point (class
   *   `ib-arrow kind-<kind>`; a `via` list of points makes it a path)
   * @param {object[]} [p.ghosts] `{at, width, depth, facing, kind, label?, testid?, turn?}`: where a tray would
   *   stand, drawn as an outline with its front marked (class `ib-ghost kind-<kind>`); with `turn` (a key) a drag
   *   on it turns it about its centre to face the pointer and reports `onTurn(key, facing)`; a tap on it is a
   *   tap on the table
   * @param {object[]} [p.outlines] sets of outlines round a place `{testid?, kind, items: [{outline, label?, testid?}]}`
   *   (range bands round a tray: each a polygon in inches, class `ib-outline kind-<kind>`, its label at its top)
   */
  render({ lights, pieces, trays, things, pickable, selected, rings, reach, points, links, arrows, ghosts, outlines }) {
    const pre = this.prefix;
    const pick = pickable || new Set();
    this.gRings.replaceChildren();
    if (reach && reach.length > 2) this.gRings.append(s("polygon", { points: this.pts(reach), class: "ib-reach", testid: `${pre}reach` }));
    for (const set of outlines || []) {
      const g = s("g", { class: ["ib-outlines", `kind-${set.kind || "band"}`], testid: set.testid || null });
      for (const o of set.items || []) {
        if (!o.outline || o.outline.length < 3) continue;
        g.append(s("polygon", { points: this.pts(o.outline), class: ["ib-outline", `kind-${set.kind || "band"}`], testid: o.testid || null }));
        if (o.label) {
          // At the outline's highest point on the table (a band wider than the table would put it off the edge);
          // none when no point of the outline is on the table (the outline is not seen either).
          const m = OUTLINE_LABEL_MARGIN;
          const on = o.outline.filter((q) => q[0] >= m && q[0] <= this.width - m && q[1] >= m / 2 && q[1] <= this.height - m / 2);
          const top = on.length ? on.reduce((a, b) => (b[1] > a[1] ? b : a)) : null;
          if (top) g.append(s("text", { x: this.sx(top[0]), y: this.sy(top[1]) + (top[1] > this.height - m ? 16 : -4), class: "ib-outline-label" }, o.label));
        }
      }
      this.gRings.append(g);
    }
    this.labels = [];
    (rings || []).forEach((ring, i) => {
      const testid = ring.testid || `${pre}ring-${ring.kind}`;
      this.gRings.append(s("circle", { cx: this.sx(ring.at[0]), cy: this.sy(ring.at[1]), r: ring.radius * PX,
        class: ["ib-ring", `ring-${ring.kind}`], testid, "data-radius": ring.radius }));
      // Each ring's label starts from its own angle, so that rings of equal size do not print on each other.
      if (ring.label) this.labels.push({ ring, testid: `${testid}-label`, angle: ring.angle ?? 90 + 45 * i });
    });
    this.renderLights(lights || []);
    this.gMarks.replaceChildren();
    for (const m of points || []) {
      this.gMarks.append(s("circle", { cx: this.sx(m.at[0]), cy: this.sy(m.at[1]), r: POINT_R,
        class: ["ib-point", `ib-point-${m.kind.split("-")[0]}`], testid: `${pre}point-${m.kind}`, "data-at": `${m.at[0]},${m.at[1]}` }));
    }
    for (const [a, b] of links || []) {
      this.gMarks.append(s("line", { x1: this.sx(a[0]), y1: this.sy(a[1]), x2: this.sx(b[0]), y2: this.sy(b[1]), class: "ib-link" }));
    }
    this.renderGhosts(ghosts || []);
    this.renderArrows(arrows || []);
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
    this.layoutLabels();
  }

  /**
   * What a ring label must not cover (discs in SVG units): every piece's base, every thing, every point to tap
   * and every spot of light (a lit move point is one).
   */
  crowd() {
    const discs = [];
    const centre = (el) => {
      const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(el.getAttribute("transform") || "");
      return m ? [Number(m[1]), Number(m[2])] : null;
    };
    for (const g of this.gPieces.children) {
      const at = centre(g);
      const base = g.querySelector(".ib-base, .ib-tray-base");
      if (!at || !base) continue;
      const r = base.tagName === "circle" ? Number(base.getAttribute("r"))
        : Math.hypot(Number(base.getAttribute("width")), Number(base.getAttribute("height"))) / 2;
      discs.push([at[0], at[1], r + 2]);
    }
    const circles = [...this.gMarks.querySelectorAll("circle"), ...this.gThings.querySelectorAll("circle"),
      ...this.gLights.querySelectorAll("circle")];
    for (const c of circles) {
      discs.push([Number(c.getAttribute("cx")), Number(c.getAttribute("cy")), Number(c.getAttribute("r")) + 2]);
    }
    for (const r of this.gThings.querySelectorAll("rect")) {
      const w = Number(r.getAttribute("width"));
      const h = Number(r.getAttribute("height"));
      discs.push([Number(r.getAttribute("x")) + w / 2, Number(r.getAttribute("y")) + h / 2, Math.hypot(w, h) / 2 + 2]);
    }
    return discs;
  }

  /**
   * Each ring's label on its ring, on a plate, over the pieces: at its own angle if that spot is clear of
   * pieces, things, points and the labels already placed and lies on the table; else at the nearest clear
   * angle along the ring (both ways, LABEL_STEP_DEGREES at a time); else where it covers least.
   */
  layoutLabels() {
    this.gLabels.replaceChildren();
    this.textScale = this.screenScale();
    if (!this.labels.length) return;
    const discs = this.crowd();
    const placed = [];
    const table = [MARGIN, MARGIN, MARGIN + this.width * PX, MARGIN + this.height * PX];
    const hits = (box) => {
      let n = 0;
      for (const [cx, cy, r] of discs) {
        const dx = Math.max(box[0] - cx, 0, cx - box[2]);
        const dy = Math.max(box[1] - cy, 0, cy - box[3]);
        if (dx * dx + dy * dy < r * r) n += 1;
      }
      for (const b of placed) if (box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]) n += 2;
      if (box[0] < table[0] || box[1] < table[1] || box[2] > table[2] || box[3] > table[3]) n += 4;
      return n;
    };
    for (const { ring, testid, angle } of this.labels) {
      const text = s("text", { class: ["ib-ring-label", `ring-${ring.kind}`], "dominant-baseline": "central" }, ring.label);
      const plate = s("rect", { class: ["ib-label-plate", `ring-${ring.kind}`], rx: 5, fill: "#0c0f14", "fill-opacity": 0.82 });
      const g = s("g", { class: ["ib-label", `ring-${ring.kind}`], testid }, plate, text);
      this.gLabels.append(g);
      this.fitOne(text);
      let w = 0;
      let h = 0;
      try {
        const bb = text.getBBox();
        w = bb.width;
        h = bb.height;
      } catch { /* not on the screen */ }
      const size = parseFloat(text.style.fontSize || getComputedStyle(text).fontSize) || 13;
      w = (w || ring.label.length * size * 0.6) + 2 * LABEL_PAD;
      h = (h || size * 1.2) + LABEL_PAD;
      let best = null;
      // On the ring first, all round it; then just outside it, then just inside (still beside its line).
      search: for (const off of [0, h / 2 + 2, -(h / 2 + 2)]) {
        for (let k = 0; k <= 180 / LABEL_STEP_DEGREES; k++) {
          for (const sign of k ? [1, -1] : [1]) {
            const a = (angle + sign * k * LABEL_STEP_DEGREES) * (Math.PI / 180);
            const x = this.sx(ring.at[0]) + (ring.radius * PX + off) * Math.cos(a);
            const y = this.sy(ring.at[1]) - (ring.radius * PX + off) * Math.sin(a);
            const box = [x - w / 2, y - h / 2, x + w / 2, y + h / 2];
            const n = hits(box);
            if (!best || n < best.n) best = { n, x, y, box, a };
            if (!n) break search;
          }
        }
      }
      placed.push(best.box);
      text.setAttribute("x", best.x.toFixed(1));
      text.setAttribute("y", best.y.toFixed(1));
      for (const [k, v] of Object.entries({ x: best.box[0], y: best.box[1], width: w, height: h })) plate.setAttribute(k, v.toFixed(1));
      g.dataset.clear = best.n ? "false" : "true";
      g.dataset.angle = String(Math.round((best.a * 180) / Math.PI));
    }
  }

  /** A ring label's words grown, where the board is drawn small, to TEXT_MIN_PX on the screen. */
  fitOne(el) {
    const scale = this.textScale;
    if (!scale) return;
    const size = parseFloat(getComputedStyle(el).fontSize) || 13;
    el.style.fontSize = `${Math.max(size, TEXT_MIN_PX / scale).toFixed(1)}px`;
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

  /** Where trays would stand: outlines with their front edge, drawn over the pieces (a planned tray is what the player handles). */
  renderGhosts(ghosts) {
    this.gGhosts.replaceChildren();
    ghosts.forEach((t, i) => {
      const w = (Number(t.width) || 1) * PX;
      const d = (Number(t.depth) || 1) * PX;
      const turning = t.turn && this.drag && this.drag.turn === String(t.turn) && this.drag.transform;
      const facing = turning ? this.drag.facing : Number(t.facing ?? 90);
      this.gGhosts.append(s("g", { class: ["ib-ghost", `kind-${t.kind || "plan"}`, t.turn && "turnable", turning && "dragging"],
        testid: t.testid || `${this.prefix}ghost-${i}`, "data-turn": t.turn ? String(t.turn) : null,
        "pointer-events": t.turn ? "all" : null, "data-at": `${t.at[0]},${t.at[1]}`, "data-facing": String(facing),
        transform: `translate(${this.sx(t.at[0]).toFixed(1)} ${this.sy(t.at[1]).toFixed(1)}) rotate(${fmt(90 - facing)})` },
      s("rect", { x: -w / 2, y: -d / 2, width: w, height: d, rx: 3, class: "ib-ghost-base" }),
      s("line", { x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2, class: "ib-ghost-front" }),
      t.label ? s("text", { y: 5, class: "ib-ghost-label", transform: `rotate(${fmt(facing - 90)})` }, t.label) : null));
    });
  }

  /** Arrows from a point to a point (through `via`), over the pieces: a path to follow, a push. */
  renderArrows(arrows) {
    this.gArrows.replaceChildren();
    arrows.forEach((a, i) => {
      const pts = [a.from, ...(a.via || []), a.to];
      const kind = `kind-${a.kind || "path"}`;
      // The head: a triangle at the end, along the last leg (none for a leg too short to have a direction).
      const [px, py] = pts[pts.length - 2];
      const tx = this.sx(a.to[0]);
      const ty = this.sy(a.to[1]);
      const dx = tx - this.sx(px);
      const dy = ty - this.sy(py);
      const len = Math.hypot(dx, dy);
      let head = null;
      if (len > 1) {
        const ux = dx / len;
        const uy = dy / len;
        const back = [tx - ux * ARROW_HEAD, ty - uy * ARROW_HEAD];
        const wing = ARROW_HEAD * 0.55;
        head = s("polygon", { class: ["ib-arrow-head", kind], points: [[tx, ty], [back[0] - uy * wing, back[1] + ux * wing],
          [back[0] + uy * wing, back[1] - ux * wing]].map((q) => `${q[0].toFixed(1)},${q[1].toFixed(1)}`).join(" ") });
      }
      this.gArrows.append(s("g", { class: ["ib-arrow", kind], testid: a.testid || `${this.prefix}arrow-${i}`,
        "data-from": `${a.from[0]},${a.from[1]}`, "data-to": `${a.to[0]},${a.to[1]}` },
      a.label ? s("title", {}, a.label) : null, s("polyline", { points: this.pts(pts), class: "ib-arrow-line" }), head));
    });
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
    // Pips (markers of the game's choosing) along the inside of the base's rim: `above` over the letter,
    // `below` under it, and a mark at its side (`corner`): all on the piece's own base, never on a neighbour's.
    const pr = Math.max(3, r * 0.24);
    const rim = r - pr - 2;
    const arc = (list, middle) => {
      const n = list.length;
      // Pips side by side; if more than half a rim's worth, they close up (overlapping a little) to stay inside.
      const step = n > 1 ? Math.min((2 * pr + 2) / rim, (Math.PI * 0.8) / (n - 1)) : 0;
      list.forEach((pip, i) => {
        const a = middle + (i - (n - 1) / 2) * step;
        g.append(s("circle", { cx: (rim * Math.cos(a)).toFixed(1), cy: (rim * Math.sin(a)).toFixed(1), r: pr,
          class: ["ib-pip", pip.cls], testid: pip.testid }));
      });
    };
    arc(f.above || [], -Math.PI / 2);
    arc(f.below || [], Math.PI / 2);
    if (f.corner) g.append(s("circle", { cx: rim.toFixed(1), cy: 0, r: pr + 1, class: ["ib-corner", f.corner.cls], testid: f.corner.testid }));
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
    const own = t.testid || `${this.prefix}piece-${t.id}`;
    // Models on their own bases (`bases: [width, depth]` in inches, the tray's frame), else round models.
    const bw = Array.isArray(t.bases) ? Number(t.bases[0]) * PX : 0;
    const bd = Array.isArray(t.bases) ? Number(t.bases[1]) * PX : 0;
    models.forEach(([mx, my], i) => g.append(bw > 0 && bd > 0
      ? s("rect", { x: (mx * PX - bw / 2).toFixed(1), y: (-my * PX - bd / 2).toFixed(1), width: bw.toFixed(1), height: bd.toFixed(1), rx: 2,
        class: "ib-model ib-model-base", style: { fill: t.colour || "#888888" }, testid: `${own}-model-${i}` })
      : s("circle", { cx: mx * PX, cy: -my * PX, r: mr, class: "ib-model", testid: `${own}-model-${i}` })));
    // Miniatures as cells: equal shares of the front, each as deep as the tray (a unit's whole frontage).
    const cells = Math.max(0, Math.round(Number(t.cells) || 0));
    if (cells) {
      g.dataset.cells = String(cells);
      const cw = w / cells;
      for (let i = 0; i < cells; i++) {
        g.append(s("rect", { x: -w / 2 + i * cw + 2, y: -d / 2 + 2, width: Math.max(1, cw - 4), height: Math.max(1, d - 4), rx: 2,
          class: "ib-cell", testid: `${own}-cell-${i}` }));
      }
    }
    if (t.letter) g.append(s("text", { y: 5, class: "ib-letter ib-tray-letter", transform: `rotate(${fmt(facing - 90)})` }, t.letter));
    if (t.badge && t.badge.text !== undefined && t.badge.text !== null) {
      // A small plate at the rear right corner, upright whatever the facing.
      g.append(s("g", { class: ["ib-badge", t.badge.cls], testid: `${own}-badge`,
        transform: `translate(${(w / 2 - 2).toFixed(1)} ${(d / 2 - 2).toFixed(1)}) rotate(${fmt(facing - 90)})` },
      s("circle", { r: 11 }), s("text", { y: 4.5 }, String(t.badge.text))));
    }
    return g;
  }

  down(e) {
    if (e.button !== undefined && e.button > 0) return;
    const ghost = e.target.closest("[data-turn]");
    if (ghost) {
      // A turnable ghost: a drag turns it about its centre (a tap on it is a tap on the table).
      const at = ghost.dataset.at.split(",").map(Number);
      this.drag = { pointer: e.pointerId, x: e.clientX, y: e.clientY, id: null, turn: ghost.dataset.turn, centre: at,
        facing: Number(ghost.dataset.facing), pickable: true, moving: false, transform: null };
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
      return;
    }
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
    if (d.turn !== undefined) {
      // Turned to face the pointer: the table's angle (counter-clockwise from +x, y up the table).
      const p = this.inches(x, y);
      if (Math.hypot(p[0] - d.centre[0], p[1] - d.centre[1]) < 0.1) return;
      d.facing = Math.round(((Math.atan2(p[1] - d.centre[1], p[0] - d.centre[0]) * 180) / Math.PI + 360) % 360);
      d.transform = `translate(${this.sx(d.centre[0]).toFixed(1)} ${this.sy(d.centre[1]).toFixed(1)}) rotate(${fmt(90 - d.facing)})`;
      const g = this.gGhosts.querySelector(`[data-turn="${d.turn}"]`);
      if (g) {
        g.setAttribute("transform", d.transform);
        g.dataset.facing = String(d.facing);
        g.classList.add("dragging");
      }
      e.preventDefault();
      return;
    }
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
    if (d.turn !== undefined) {
      if (d.moving && this.handlers.onTurn) this.handlers.onTurn(d.turn, d.facing);
      else if (!d.moving) this.handlers.onPoint(this.inches(x, y));
      return;
    }
    if (d.moving) {
      this.handlers.onDrop(d.id, this.inches(x, y));
      return;
    }
    if (d.id !== null) this.handlers.onPiece(d.id, this.inches(x, y)); // where on the piece, for a screen that wants it
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
