// The virtual table of a free table measured in inches (Valhalla): a top-down SVG drawn to scale, with its
// terrain (woods, village, hills with their crest, hedges, fences), objective zones, things and baggage, the
// figures on round bases (side colour, a letter for the kind, yellow shock pips, red wound pips), the spots of
// light the server sends, and a picked figure's rings and reach. It computes no rule: it reports taps (a
// figure, or a point in inches) and drags of a figure to its owner.

import { s } from "./dom.js";
import { svgPoint } from "./screen.js";

export const PX = 40; // SVG units per inch
const MARGIN = 40; // room for the inch ruler round the table
const DRAG_START_PX = 8;
const RING_LABEL_DEGREES = { move: 90, charge: 270, close: 135, range: 60 };

export const KIND_LETTER = { hero: "H", warrior: "W", archer: "A", slinger: "S" };
export const KIND_NAME = { hero: "Hero", warrior: "Warrior", archer: "Archer", slinger: "Slinger" };
export const TERRAIN_NAMES = { woods: "Woods", village: "Village", hill: "Hill", hedge: "Hedge", fence: "Fence" };

const fmt = (v) => (Math.round(v * 100) / 100).toString();

/** A point as players read it: (12.5, 3) in inches from the bottom-left corner. */
export function pointText(p) {
  return Array.isArray(p) ? `(${fmt(p[0])}, ${fmt(p[1])})` : "?";
}

export class InchBoard {
  /**
   * @param {HTMLElement} host where the SVG goes
   * @param {{onFigure: (id: number) => void, onPoint: (p: number[]) => void, onDrop: (id: number, p: number[]) => void}} handlers
   */
  constructor(host, handlers) {
    this.host = host;
    this.handlers = handlers;
    this.sig = null;
    this.width = 0;
    this.height = 0;
    this.svg = s("svg", { class: "board inch-board", role: "group", "aria-label": "The table", testid: "vh-table" });
    const defs = s("defs", {},
      s("pattern", { id: "vh-trees", width: 24, height: 24, patternUnits: "userSpaceOnUse" },
        s("rect", { width: 24, height: 24, fill: "#1f4a22" }),
        s("circle", { cx: 6, cy: 7, r: 5, fill: "#2f6b2c" }),
        s("circle", { cx: 18, cy: 17, r: 6, fill: "#2a6127" })),
      s("pattern", { id: "vh-hatch", width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 12, height: 12, fill: "#b08d5b" }),
        s("line", { x1: 0, y1: 0, x2: 0, y2: 12, stroke: "#8a6a3c", "stroke-width": 4 })));
    this.clipRect = s("rect", { x: 0, y: 0, width: 0, height: 0 });
    defs.append(s("clipPath", { id: "vh-table-clip" }, this.clipRect));
    this.gTable = s("g", { class: "layer-table" });
    this.gZones = s("g", { class: "layer-zones", "aria-hidden": "true" });
    this.gRings = s("g", { class: "layer-rings", "aria-hidden": "true", "clip-path": "url(#vh-table-clip)" });
    this.gLights = s("g", { class: "layer-lights", "aria-hidden": "true" });
    this.gMarks = s("g", { class: "layer-marks", "aria-hidden": "true" });
    this.gThings = s("g", { class: "layer-things" });
    this.gFigures = s("g", { class: "layer-figures" });
    this.gLabels = s("g", { class: "layer-labels", "aria-hidden": "true" });
    this.svg.append(defs, this.gTable, this.gZones, this.gRings, this.gLights, this.gMarks, this.gThings,
      this.gFigures, this.gLabels);
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

  /** Draw the table and its terrain (once per table: terrain never changes in play). */
  setTable(table, sides, objectives = []) {
    const sig = JSON.stringify([table, (sides || []).map((x) => x.colour), objectives.map((o) => o.title)]);
    if (sig === this.sig) return;
    this.sig = sig;
    this.width = Number(table.width) || 24;
    this.height = Number(table.height) || 16;
    const W = this.width * PX;
    const H = this.height * PX;
    this.svg.setAttribute("viewBox", `0 0 ${W + 2 * MARGIN} ${H + 2 * MARGIN}`);
    this.svg.dataset.width = String(this.width);
    this.svg.dataset.height = String(this.height);
    for (const [k, v] of Object.entries({ x: MARGIN, y: MARGIN, width: W, height: H })) this.clipRect.setAttribute(k, String(v));
    const g = this.gTable;
    g.replaceChildren(s("rect", { x: MARGIN, y: MARGIN, width: W, height: H, class: "vh-felt", testid: "vh-felt" }));
    // A faint grid every 6" and a ruler along the edges, to judge distances by eye.
    for (let x = 6; x < this.width; x += 6) {
      g.append(s("line", { x1: this.sx(x), y1: MARGIN, x2: this.sx(x), y2: MARGIN + H, class: "vh-grid" }));
    }
    for (let y = 6; y < this.height; y += 6) {
      g.append(s("line", { x1: MARGIN, y1: this.sy(y), x2: MARGIN + W, y2: this.sy(y), class: "vh-grid" }));
    }
    for (let x = 0; x <= this.width; x += 1) {
      const major = x % 6 === 0;
      g.append(s("line", { x1: this.sx(x), y1: MARGIN + H, x2: this.sx(x), y2: MARGIN + H + (major ? 10 : 5), class: "vh-tick" }));
      if (major) g.append(s("text", { x: this.sx(x), y: MARGIN + H + 22, class: "vh-ruler" }, `${x}"`));
    }
    for (let y = 0; y <= this.height; y += 1) {
      const major = y % 6 === 0;
      g.append(s("line", { x1: MARGIN, y1: this.sy(y), x2: MARGIN - (major ? 10 : 5), y2: this.sy(y), class: "vh-tick" }));
      if (major && y > 0) g.append(s("text", { x: MARGIN - 13, y: this.sy(y) + 4, class: "vh-ruler vertical" }, `${y}"`));
    }
    for (const h of table.hills || []) {
      g.append(s("polygon", { points: this.pts(h.outline), class: "vh-hill", testid: "vh-hill" },
        s("title", {}, `${h.name || "Hill"}: ${h.height || 1} high; uphill is half speed`)));
      if (h.crest && h.crest.length) g.append(s("polygon", { points: this.pts(h.crest), class: "vh-crest" }));
    }
    (table.areas || []).forEach((a, i) => {
      g.append(s("polygon", { points: this.pts(a.outline), class: ["vh-area", `vh-${a.kind}`], testid: `vh-area-${i}`,
        "data-kind": a.kind }, s("title", {}, `${a.name || TERRAIN_NAMES[a.kind] || a.kind}: half speed, cover`)));
    });
    (table.obstacles || []).forEach((o, i) => {
      g.append(s("polyline", { points: this.pts(o.line), class: ["vh-obstacle", `vh-${o.kind}`], testid: `vh-obstacle-${i}`,
        "data-kind": o.kind }, s("title", {}, `${o.name || o.kind}: crossing it is an action`)));
    });
    // Names of the terrain, on top of the pieces.
    for (const a of table.areas || []) this.label(g, a.outline, a.name || TERRAIN_NAMES[a.kind] || a.kind, "vh-area-name");
    for (const h of table.hills || []) this.label(g, h.outline, h.name || "Hill", "vh-area-name");
    this.gZones.replaceChildren();
    for (const z of table.zones || []) {
      const colour = (sides && sides[z.side] && sides[z.side].colour) || "#ffffff";
      const objective = objectives.find((o) => o.id === z.objective);
      this.gZones.append(s("polygon", { points: this.pts(z.outline), class: "vh-zone", testid: `vh-zone-${z.objective}`,
        style: { "--zc": colour } }, s("title", {}, objective ? objective.title : "Objective")));
      this.label(this.gZones, z.outline, "Objective", "vh-zone-name");
    }
  }

  label(g, outline, text, cls) {
    if (!outline || !outline.length) return;
    const xs = outline.map((p) => p[0]);
    const ys = outline.map((p) => p[1]);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    g.append(s("text", { x: this.sx(cx), y: this.sy(cy), class: cls }, text));
  }

  /**
   * Draw one moment of the table.
   * @param {object} p
   * @param {object} p.obs the observation
   * @param {object[]} p.lights normalised lights (spots: {at, radius, effect, colour, pattern, t0, delay_ms})
   * @param {Set<number>} p.pickable figures this screen may pick
   * @param {number|null} p.selected the picked figure
   * @param {object|null} p.selection the server's selection for it (rings, reach, moves)
   * @param {object[]} p.points extra marks: [{at, kind}] (withdrawals, baggage)
   */
  render({ obs, lights, pickable, selected, selection, points }) {
    const base = Number(obs.base_radius) || 0.5;
    const sides = obs.sides || [];
    // Rings and reach of the picked figure.
    this.gRings.replaceChildren();
    if (selection) {
      if (selection.reach && selection.reach.length > 2) {
        this.gRings.append(s("polygon", { points: this.pts(selection.reach), class: "vh-reach", testid: "vh-reach" }));
      }
      for (const ring of selection.rings || []) {
        const testid = ring.kind === "zone" ? `vh-ring-zone-${ring.figure}` : `vh-ring-${ring.kind}`;
        this.gRings.append(s("circle", { cx: this.sx(ring.at[0]), cy: this.sy(ring.at[1]), r: ring.radius * PX,
          class: ["vh-ring", `ring-${ring.kind}`], testid, "data-radius": ring.radius }));
        if (ring.kind !== "zone") {
          // Each ring's label at its own angle, so that rings of equal size do not print on each other.
          const angle = (RING_LABEL_DEGREES[ring.kind] ?? 90) * (Math.PI / 180);
          const lx = this.sx(ring.at[0] + ring.radius * Math.cos(angle));
          const ly = this.sy(ring.at[1] + ring.radius * Math.sin(angle));
          this.gRings.append(s("text", { x: lx, y: ly - 4, class: ["vh-ring-label", `ring-${ring.kind}`] }, ring.label || ring.kind));
        }
      }
    }
    this.renderLights(lights || []);
    this.gMarks.replaceChildren();
    for (const m of points || []) {
      this.gMarks.append(s("circle", { cx: this.sx(m.at[0]), cy: this.sy(m.at[1]), r: 7,
        class: ["vh-point", `vh-point-${m.kind.split("-")[0]}`], testid: `vh-point-${m.kind}`, "data-at": `${m.at[0]},${m.at[1]}` }));
    }
    // Combats: a line between the two bases.
    for (const [a, b] of obs.engagements || []) {
      const fa = (obs.figures || [])[a];
      const fb = (obs.figures || [])[b];
      if (fa && fb) {
        this.gMarks.append(s("line", { x1: this.sx(fa.at[0]), y1: this.sy(fa.at[1]), x2: this.sx(fb.at[0]), y2: this.sy(fb.at[1]),
          class: "vh-engagement" }));
      }
    }
    this.renderThings(obs, sides);
    this.renderFigures(obs, base, sides, pickable || new Set(), selected);
  }

  renderLights(lights) {
    const now = performance.now();
    this.gLights.replaceChildren();
    // The lights of one alternating effect at one spot take turns in list order (melee: green, then red).
    const spots = [];
    for (const l of lights) {
      if (!Array.isArray(l.at)) continue;
      const pattern = l.pattern || "steady";
      const same = pattern === "alternate" && spots.find((x) => x.pattern === "alternate" && x.effect === l.effect
        && x.at[0] === l.at[0] && x.at[1] === l.at[1]);
      if (same) same.colours.push(l.colour);
      else spots.push({ ...l, pattern, colours: [l.colour] });
    }
    for (const l of spots) {
      const start = (l.t0 ?? now) + (l.delay_ms || 0) - now;
      const base = { "--delay": `${Math.round(start)}ms`, "--dur": `${l.duration_ms || 1500}ms` };
      const attrs = { cx: this.sx(l.at[0]), cy: this.sy(l.at[1]), r: (Number(l.radius) || 0.5) * PX, "data-effect": l.effect,
        "data-at": `${l.at[0]},${l.at[1]}` };
      if (l.pattern === "alternate") {
        const colours = l.colours.length > 1 ? l.colours : [l.colours[0], "transparent"];
        const n = colours.length;
        const period = 600 * n;
        const phase = (now - (l.t0 ?? now)) % period;
        colours.forEach((colour, j) => this.gLights.append(s("circle", { ...attrs, class: ["light", "spot", "pat-alternate", `fx-${l.effect}`],
          style: { ...base, "--lc": colour, "--altdur": `${period}ms`, "--altdelay": `${Math.round(-phase - (period * (n - j)) / n)}ms` } })));
      } else {
        this.gLights.append(s("circle", { ...attrs, class: ["light", "spot", `pat-${l.pattern}`, `fx-${l.effect}`],
          style: { ...base, "--lc": l.colour } }));
      }
    }
  }

  renderThings(obs, sides) {
    this.gThings.replaceChildren();
    for (const t of obs.things || []) {
      if (t.carrier !== null && t.carrier !== undefined) continue; // drawn on its carrier's base
      const x = this.sx(t.at[0]);
      const y = this.sy(t.at[1]);
      const r = (Number(t.radius) || 0.3) * PX;
      if (t.baggage_side !== null && t.baggage_side !== undefined) {
        const colour = (sides[t.baggage_side] && sides[t.baggage_side].colour) || "#888888";
        this.gThings.append(s("g", { class: "vh-baggage", testid: `vh-baggage-${t.id}`, "data-thing": t.id,
          "data-at": `${t.at[0]},${t.at[1]}` },
        s("title", {}, `${t.name} (baggage of ${(sides[t.baggage_side] || {}).name || "a side"})`),
        s("rect", { x: x - r, y: y - r * 0.75, width: 2 * r, height: 1.5 * r, rx: 6, style: { stroke: colour } }),
        s("text", { x, y: y + 5 }, "B")));
      } else {
        this.gThings.append(s("g", { class: "vh-thing", testid: `vh-thing-${t.id}`, "data-thing": t.id, "data-at": `${t.at[0]},${t.at[1]}` },
          s("title", {}, t.name), s("circle", { cx: x, cy: y, r }), s("text", { x, y: y + 4 }, "✦")));
      }
    }
  }

  renderFigures(obs, base, sides, pickable, selected) {
    const lifted = this.drag && this.drag.moving ? this.drag.id : null;
    this.gFigures.replaceChildren();
    const r = base * PX;
    for (const f of obs.figures || []) {
      if (!f.alive) continue;
      const x = this.sx(f.at[0]);
      const y = this.sy(f.at[1]);
      const colour = (sides[f.side] && sides[f.side].colour) || "#888888";
      const state = [KIND_NAME[f.kind] || f.kind, f.shock ? `${f.shock} shock` : "", f.wounds ? `${f.wounds} wound${f.wounds > 1 ? "s" : ""}` : "",
        f.in_combat ? "in combat" : "", f.activated ? "activated this turn" : "", f.cover ? "in cover" : ""].filter(Boolean).join(", ");
      const g = s("g", {
        class: ["vh-figure", `side-${f.side}`, `kind-${f.kind}`, f.activated && "activated", obs.active === f.id && "active",
          pickable.has(f.id) && "pickable", selected === f.id && "selected", f.in_combat && "engaged"],
        transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
        testid: `vh-figure-${f.id}`,
        "data-figure": f.id,
        "data-at": `${f.at[0]},${f.at[1]}`,
        "data-shock": f.shock,
        "data-wounds": f.wounds,
        role: "button",
        tabindex: pickable.has(f.id) ? "0" : "-1",
        "aria-label": `${f.name}: ${state}`,
      });
      g.append(s("title", {}, `${f.name} (${state})`),
        s("circle", { r, class: "vh-base", style: { fill: colour } }),
        s("text", { y: r * 0.36, class: "vh-letter" }, KIND_LETTER[f.kind] || "?"));
      // Shock markers: yellow pips over the base; wounds: red pips under it.
      for (let i = 0; i < (f.shock || 0); i++) {
        g.append(s("circle", { cx: (i - ((f.shock || 1) - 1) / 2) * 12, cy: -r - 7, r: 5, class: "vh-pip shock",
          testid: `vh-shock-${f.id}-${i}` }));
      }
      for (let i = 0; i < (f.wounds || 0); i++) {
        g.append(s("circle", { cx: (i - ((f.wounds || 1) - 1) / 2) * 12, cy: r + 7, r: 5, class: "vh-pip wound",
          testid: `vh-wound-${f.id}-${i}` }));
      }
      if (f.carrying !== null && f.carrying !== undefined) {
        g.append(s("circle", { cx: r * 0.75, cy: -r * 0.75, r: 7, class: "vh-carried", testid: `vh-carrying-${f.id}` }));
      }
      this.gFigures.append(g);
    }
    if (lifted !== null) {
      const g = this.gFigures.querySelector(`[data-figure="${lifted}"]`);
      if (g && this.drag.transform) {
        g.setAttribute("transform", this.drag.transform);
        g.classList.add("dragging");
        this.gFigures.append(g);
      }
    }
  }

  svgPoint(e) {
    return svgPoint(this.svg, e);
  }

  down(e) {
    if (e.button !== undefined && e.button > 0) return;
    const fig = e.target.closest("[data-figure]");
    this.drag = { pointer: e.pointerId, x: e.clientX, y: e.clientY, id: fig ? Number(fig.dataset.figure) : null,
      pickable: Boolean(fig && fig.classList.contains("pickable")), moving: false, transform: null };
    if (fig && this.drag.pickable) {
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
    }
  }

  move(e) {
    const d = this.drag;
    if (!d || d.pointer !== e.pointerId || !d.pickable) return;
    if (!d.moving && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_START_PX) return;
    d.moving = true;
    const [x, y] = this.svgPoint(e);
    d.transform = `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(1.1)`;
    const g = this.gFigures.querySelector(`[data-figure="${d.id}"]`);
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
    const [x, y] = this.svgPoint(e);
    if (d.moving) {
      this.handlers.onDrop(d.id, this.inches(x, y));
      return;
    }
    if (d.id !== null) this.handlers.onFigure(d.id);
    else this.handlers.onPoint(this.inches(x, y));
  }

  key(e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    const fig = e.target.closest("[data-figure]");
    if (fig) {
      this.handlers.onFigure(Number(fig.dataset.figure));
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
