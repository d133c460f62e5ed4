// The virtual table of a game played on a map of regions (areas, provinces, sectors): an SVG of the regions
// drawn from their outline polygons, keyed by region id, the pieces standing in each, marks on the regions an
// order may choose, and the lights the server sends on regions (`light.region`, a region's id). It knows no
// game: the map and the pieces come from the game's screen as data. It computes no rule: it reports a tapped
// region's id, or a tapped piece, to its owner.

import { s } from "./dom.js";

const MARGIN = 10;
const PIECE_R = 13;

/** The centre of a polygon's area (the shoelace centroid; the vertices' mean if it has no area). */
export function centroid(outline) {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < outline.length; i++) {
    const [x0, y0] = outline[i];
    const [x1, y1] = outline[(i + 1) % outline.length];
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  if (Math.abs(a) < 1e-9) {
    const n = outline.length || 1;
    return [outline.reduce((t, p) => t + p[0], 0) / n, outline.reduce((t, p) => t + p[1], 0) / n];
  }
  return [cx / (3 * a), cy / (3 * a)];
}

export class RegionBoard {
  /**
   * @param {HTMLElement} host where the SVG goes
   * @param {{onRegion: (id: string) => void, onPiece?: (id: number) => void}} handlers
   * @param {{prefix?: string}} [opts] `prefix` starts every data-testid the board makes ("rb-" unless told)
   */
  constructor(host, handlers, opts = {}) {
    this.host = host;
    this.handlers = handlers;
    this.prefix = opts.prefix || "rb-";
    this.sig = null;
    this.regions = new Map(); // id -> {el, centre, region}
    this.svg = s("svg", { class: "board region-board", role: "group", "aria-label": "The map", testid: `${this.prefix}map` });
    this.gRegions = s("g", { class: "layer-regions" });
    this.gLights = s("g", { class: "layer-lights", "aria-hidden": "true" });
    this.gNames = s("g", { class: "layer-names", "aria-hidden": "true" });
    this.gPieces = s("g", { class: "layer-pieces" });
    this.svg.append(this.gRegions, this.gLights, this.gNames, this.gPieces);
    host.append(this.svg);
    this.svg.addEventListener("click", (e) => this.tap(e));
    this.svg.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        this.tap(e);
        e.preventDefault();
      }
    });
  }

  /**
   * Draw the map (redrawn only when it changes). Coordinates are the map's own units, y down the screen.
   * @param {{width: number, height: number, regions: {id: string, outline: number[][], name?: string, kind?: string,
   *   colour?: string, label?: number[]}[]}} map `label` is where the region's name and pieces go (else its centroid)
   */
  setMap(map) {
    const sig = JSON.stringify(map);
    if (sig === this.sig) return;
    this.sig = sig;
    const w = Number(map.width) || 100;
    const hgt = Number(map.height) || 100;
    this.svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${w + 2 * MARGIN} ${hgt + 2 * MARGIN}`);
    this.gRegions.replaceChildren();
    this.gNames.replaceChildren();
    this.regions.clear();
    for (const r of map.regions || []) {
      const el = s("polygon", {
        points: r.outline.map((p) => `${p[0]},${p[1]}`).join(" "),
        class: ["rb-region", r.kind && `kind-${r.kind}`],
        style: r.colour ? { fill: r.colour } : null,
        testid: `${this.prefix}region-${r.id}`,
        "data-region": r.id,
        "data-light": "",
        role: "button",
        tabindex: "-1",
        "aria-label": r.name || r.id,
      });
      const centre = Array.isArray(r.label) ? r.label : centroid(r.outline);
      this.gRegions.append(el);
      if (r.name) this.gNames.append(s("text", { x: centre[0], y: centre[1] - PIECE_R - 4, class: "rb-name" }, r.name));
      this.regions.set(String(r.id), { el, centre, region: r });
    }
  }

  /**
   * Draw one moment of the map.
   * @param {object} p
   * @param {object[]} [p.lights] normalised lights; those naming a `region` are drawn on it
   * @param {object[]} [p.pieces] `{id, region, colour?, text?, title?, testid?}`: pieces stand in a row at the
   *   region's label point
   * @param {Set<string>} [p.targets] regions the order in hand may choose
   * @param {string|null} [p.selectedRegion] a region picked
   * @param {Set<number>} [p.pickable] pieces this screen may pick
   * @param {number|null} [p.selected] the picked piece
   */
  render({ lights, pieces, targets, selectedRegion, pickable, selected }) {
    const marks = targets || new Set();
    for (const [id, { el }] of this.regions) {
      el.toggleAttribute("data-target", marks.has(id));
      el.classList.toggle("selected", selectedRegion === id);
      el.setAttribute("tabindex", marks.has(id) ? "0" : "-1");
    }
    this.renderLights(lights || []);
    this.gPieces.replaceChildren();
    const perRegion = new Map();
    for (const p of pieces || []) {
      const k = String(p.region);
      if (!perRegion.has(k)) perRegion.set(k, []);
      perRegion.get(k).push(p);
    }
    const pick = pickable || new Set();
    for (const [k, list] of perRegion) {
      const where = this.regions.get(k);
      if (!where) continue;
      list.forEach((p, i) => {
        const x = where.centre[0] + (i - (list.length - 1) / 2) * (2 * PIECE_R + 4);
        const y = where.centre[1];
        this.gPieces.append(s("g", { class: ["rb-piece", pick.has(p.id) && "pickable", selected === p.id && "selected"],
          testid: p.testid || `${this.prefix}piece-${p.id}`, "data-piece": p.id, "data-region": k, role: "button",
          tabindex: pick.has(p.id) ? "0" : "-1", "aria-label": p.title || String(p.text || p.id) },
        p.title ? s("title", {}, p.title) : null,
        s("circle", { cx: x, cy: y, r: PIECE_R, style: { fill: p.colour || "#888888" } }),
        p.text ? s("text", { x, y: y + 4.5 }, p.text) : null));
      });
    }
  }

  renderLights(lights) {
    const now = performance.now();
    this.gLights.replaceChildren();
    const per = new Map();
    for (const l of lights) {
      if (l.region === null || l.region === undefined || !this.regions.has(String(l.region))) continue;
      const k = String(l.region);
      if (!per.has(k)) per.set(k, []);
      per.get(k).push(l);
    }
    for (const [k, { el }] of this.regions) el.dataset.light = (per.get(k) || []).map((l) => l.effect).join(" ");
    for (const [k, list] of per) {
      const points = this.regions.get(k).el.getAttribute("points");
      // The lights of one alternating effect on one region take turns, in list order (as on the other boards).
      const groups = [];
      for (const l of list) {
        const pattern = l.pattern || "steady";
        const same = pattern === "alternate" && groups.find((g) => g.pattern === "alternate" && g.effect === l.effect);
        if (same) same.colours.push(l.colour);
        else groups.push({ ...l, pattern, colours: [l.colour] });
      }
      for (const l of groups) {
        const start = (l.t0 ?? now) + (l.delay_ms || 0) - now;
        const base = { "--delay": `${Math.round(start)}ms`, "--dur": `${l.duration_ms || 1500}ms` };
        const attrs = { points, "data-effect": l.effect, "data-region": k };
        if (l.pattern === "alternate") {
          const colours = l.colours.length > 1 ? l.colours : [l.colours[0], "transparent"];
          const n = colours.length;
          const period = 600 * n;
          const phase = (now - (l.t0 ?? now)) % period;
          colours.forEach((colour, j) => this.gLights.append(s("polygon", { ...attrs, class: ["light", "region", "pat-alternate", `fx-${l.effect}`],
            style: { ...base, "--lc": colour, "--altdur": `${period}ms`, "--altdelay": `${Math.round(-phase - (period * (n - j)) / n)}ms` } })));
        } else {
          this.gLights.append(s("polygon", { ...attrs, class: ["light", "region", `pat-${l.pattern}`, `fx-${l.effect}`],
            style: { ...base, "--lc": l.colour } }));
        }
      }
    }
  }

  tap(e) {
    const piece = e.target.closest("[data-piece]");
    if (piece && this.handlers.onPiece) {
      this.handlers.onPiece(Number(piece.dataset.piece));
      return;
    }
    const el = e.target.closest("[data-region]");
    if (el) this.handlers.onRegion(el.dataset.region);
  }
}
