// The virtual table of a game played on a map of regions (areas, provinces, sectors): an SVG of the regions
// drawn from their outline polygons, keyed by region id, filled with their colour (a textured fill for wild
// country), the borders between them drawn by kind (a river as a blue wavy line, a bridge as a plank across it,
// a mountain range as a ridge of peaks, the edge between two groups of regions heavier), each region's city
// (its tax in a coin, a capital crowned) and its places by kind (towers, caves, old battlefields…); then per
// moment the ownership tokens, the stacks of pieces (a player's leaders marked, a count of the rest), badges,
// marks on the regions an order may choose, and the lights the server sends on regions (`light.region`, a
// region's id). It knows no game: the map and the pieces come from the game's screen as data. It computes no
// rule: it reports a tapped region's id, or a tapped piece, to its owner.

import { s } from "./dom.js";

const MARGIN = 10;
const PIECE_R = 13;
const LEADER_R = 12;
const ICON = 22; // a place's icon, in board units
const WAVE = 16; // a river's wavelength, in board units
const PEAK = 15; // the spacing of a mountain range's peaks, in board units

/** Icons of places by kind, drawn in a 24 x 24 box (fill, even-odd). A kind not here is drawn as its letter. */
const GLYPHS = {
  tower: "M8 22 L8 10 L6 10 L6 4 L8.5 4 L8.5 6 L10.8 6 L10.8 4 L13.2 4 L13.2 6 L15.5 6 L15.5 4 L18 4 L18 10 L16 10 L16 22 Z M11 13 L11 17 L13 17 L13 13 Z",
  tunnel: "M2 22 L2 12 A10 10 0 0 1 22 12 L22 22 Z M7 22 L7 13 A5 5 0 0 1 17 13 L17 22 Z",
  tomb: "M5 22 L5 10 A7 7 0 0 1 19 10 L19 22 Z M11 8 L11 11 L8.5 11 L8.5 13 L11 13 L11 19 L13 19 L13 13 L15.5 13 L15.5 11 L13 11 L13 8 Z",
  monument: "M10 19 L10.6 5 L12 2 L13.4 5 L14 19 Z M6 23 L6 19 L18 19 L18 23 Z",
  dungeon: "M4 22 L4 9 A8 6 0 0 1 20 9 L20 22 Z M7 21 L7 10 L8.6 10 L8.6 21 Z M11.2 21 L11.2 8 L12.8 8 L12.8 21 Z M15.4 21 L15.4 10 L17 10 L17 21 Z",
  cave: "M1 22 C4 12 8 4 12 4 C16 4 20 12 23 22 Z M8 22 C8 17 10 14 12 14 C14 14 16 17 16 22 Z",
  shrine: "M2 9 L12 3 L22 9 Z M3 10 L21 10 L21 12 L3 12 Z M5 13 L7 13 L7 20 L5 20 Z M11 13 L13 13 L13 20 L11 20 Z M17 13 L19 13 L19 20 L17 20 Z M2 21 L22 21 L22 23 L2 23 Z",
  city: "M2 22 L2 11 L5 11 L5 13 L7 13 L7 11 L10 11 L10 7 L12 4 L14 7 L14 11 L17 11 L17 13 L19 13 L19 11 L22 11 L22 22 Z M10 22 L10 17 A2 2 0 0 1 14 17 L14 22 Z",
  crown: "M3 9 L8 13 L12 5 L16 13 L21 9 L19 19 L5 19 Z",
};
/** Crossed swords (an old battlefield): strokes, not a fill. */
const SWORDS = "M4 4 L18 18 M20 4 L6 18 M15 21 L21 15 M3 15 L9 21 M2.5 2.5 L5 5 M21.5 2.5 L19 5";

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

/** Whether a point lies inside a polygon (even-odd ray casting). */
export function insidePolygon([x, y], outline) {
  let inside = false;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [xi, yi] = outline[i];
    const [xj, yj] = outline[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

const r1 = (v) => Math.round(v * 10) / 10;

/** A polyline's points as a wavy path (a river): a sine of amplitude `amp` along it, `WAVE` long. */
export function wavyPath(points, amp) {
  if (points.length < 2) return "";
  const out = [];
  const total = totalLength(points);
  let run = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const [x0, y0] = points[i];
    const [x1, y1] = points[i + 1];
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len < 1e-6) continue;
    const nx = -(y1 - y0) / len;
    const ny = (x1 - x0) / len;
    const steps = Math.max(2, Math.ceil(len / (WAVE / 6)));
    for (let k = i === 0 ? 0 : 1; k <= steps; k++) {
      const t = k / steps;
      // The wave fades to nothing at the segment's two ends, so rivers meet cleanly at the map's corners.
      const fade = Math.min(1, (run + t * len) / WAVE, Math.max(0, total - run - t * len) / WAVE);
      const off = amp * fade * Math.sin((2 * Math.PI * (run + t * len)) / WAVE);
      out.push(`${r1(x0 + (x1 - x0) * t + nx * off)},${r1(y0 + (y1 - y0) * t + ny * off)}`);
    }
    run += len;
  }
  return `M${out.join(" L")}`;
}

function totalLength(points) {
  let t = 0;
  for (let i = 0; i + 1 < points.length; i++) t += Math.hypot(points[i + 1][0] - points[i][0], points[i + 1][1] - points[i][1]);
  return t;
}

/** The point at a fraction of a polyline's length, and the direction there (a unit vector). */
export function along(points, fraction) {
  const total = totalLength(points);
  let want = total * fraction;
  for (let i = 0; i + 1 < points.length; i++) {
    const [x0, y0] = points[i];
    const [x1, y1] = points[i + 1];
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (want <= len || i + 2 === points.length) {
      const t = len ? Math.min(1, want / len) : 0;
      return { at: [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t], dir: len ? [(x1 - x0) / len, (y1 - y0) / len] : [1, 0] };
    }
    want -= len;
  }
  return { at: points[0] || [0, 0], dir: [1, 0] };
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
    this.scale = 1;
    this.regions = new Map(); // id -> {el, centre, region}
    this.svg = s("svg", { class: "board region-board", role: "group", "aria-label": "The map", testid: `${this.prefix}map` });
    this.defs = s("defs", {});
    this.gRegions = s("g", { class: "layer-regions" });
    this.gTextures = s("g", { class: "layer-textures", "aria-hidden": "true" });
    this.gBorders = s("g", { class: "layer-borders", "aria-hidden": "true" });
    this.gLights = s("g", { class: "layer-lights", "aria-hidden": "true" });
    this.gPlaces = s("g", { class: "layer-places" });
    this.gNames = s("g", { class: "layer-names", "aria-hidden": "true" });
    this.gMarks = s("g", { class: "layer-marks", "aria-hidden": "true" });
    this.gPieces = s("g", { class: "layer-pieces" });
    this.svg.append(this.defs, this.gRegions, this.gTextures, this.gBorders, this.gLights, this.gPlaces, this.gNames,
      this.gMarks, this.gPieces);
    host.append(this.svg);
    // The board's own look (borders, places, stacks) sits beside it; the page's stylesheet keeps the basics.
    const css = new URL("./regionboard.css", import.meta.url).href;
    if (![...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === css)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = css;
      document.head.append(link);
    }
    this.svg.addEventListener("click", (e) => this.tap(e));
    this.svg.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        this.tap(e);
        e.preventDefault();
      }
    });
  }

  /** A map point in board units. */
  pt(p) {
    return [p[0] * this.scale, p[1] * this.scale];
  }

  /**
   * Draw the map (redrawn only when it changes). Coordinates are the map's own units, y down the screen; `scale`
   * board units a map unit (1 unless told: a map measured in inches wants about 25, so its words fit).
   * @param {{width: number, height: number, scale?: number, regions: {id: string, outline: number[][], name?: string,
   *   kind?: string, colour?: string, label?: number[], texture?: string, group?: string,
   *   city?: {name?: string, tax?: number, capital?: boolean}, places?: {kind: string, name?: string, key?: string}[]}[],
   *   borders?: {a: string, b: string, kind: string, segment: number[][]}[]}} map `label` is where the region's name
   *   and pieces go (else its centroid); `texture` lays a pattern over the fill ("wild"); `group` regions (a
   *   kingdom) get a heavier edge where two groups meet; `places` are icons by kind (tower, tunnel, tomb,
   *   monument, dungeon, cave, shrine, battlefield…); a border's `kind` is open, river, bridge or mountain
   */
  setMap(map) {
    const sig = JSON.stringify(map);
    if (sig === this.sig) return;
    this.sig = sig;
    this.scale = Number(map.scale) > 0 ? Number(map.scale) : 1;
    const w = (Number(map.width) || 100) * this.scale;
    const hgt = (Number(map.height) || 100) * this.scale;
    this.svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${w + 2 * MARGIN} ${hgt + 2 * MARGIN}`);
    for (const g of [this.gRegions, this.gTextures, this.gBorders, this.gPlaces, this.gNames]) g.replaceChildren();
    this.drawDefs();
    this.regions.clear();
    const P = this.prefix;
    for (const r of map.regions || []) {
      const outline = (r.outline || []).map((p) => this.pt(p));
      const points = outline.map((p) => `${r1(p[0])},${r1(p[1])}`).join(" ");
      const el = s("polygon", {
        points,
        class: ["rb-region", r.kind && `kind-${r.kind}`],
        style: r.colour ? { fill: r.colour } : null,
        testid: `${P}region-${r.id}`,
        "data-region": r.id,
        "data-kind": r.kind || null,
        "data-light": "",
        role: "button",
        tabindex: "-1",
        "aria-label": r.name || r.id,
      });
      const centre = this.pt(Array.isArray(r.label) ? r.label : centroid(r.outline || []));
      this.gRegions.append(el);
      if (r.texture) {
        this.gTextures.append(s("polygon", { points, class: ["rb-texture", `tex-${r.texture}`], fill: `url(#${P}tex-${r.texture})` }));
      }
      if (r.name) this.gNames.append(s("text", { x: r1(centre[0]), y: r1(centre[1] - 33), class: "rb-name" }, r.name));
      this.drawPlaces(r, centre);
      this.regions.set(String(r.id), { el, centre, region: r, points });
    }
    this.drawBorders(map.borders || []);
  }

  drawDefs() {
    const P = this.prefix;
    this.defs.replaceChildren(
      s("pattern", { id: `${P}tex-wild`, width: 14, height: 14, patternUnits: "userSpaceOnUse", patternTransform: "rotate(35)" },
        s("path", { d: "M0 7 L14 7", class: "rb-tex-line" }), s("circle", { cx: 4, cy: 2.5, r: 1.1, class: "rb-tex-dot" })),
      s("pattern", { id: `${P}tex-hatch`, width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("path", { d: "M0 5 L10 5", class: "rb-tex-line" })),
      s("pattern", { id: `${P}tex-dots`, width: 12, height: 12, patternUnits: "userSpaceOnUse" },
        s("circle", { cx: 3, cy: 3, r: 1.3, class: "rb-tex-dot" }), s("circle", { cx: 9, cy: 9, r: 1.3, class: "rb-tex-dot" })),
    );
  }

  /** A region's city (its tax in a coin, a capital crowned) and its places, in a row under its name. */
  drawPlaces(r, centre) {
    const items = [];
    if (r.city) items.push({ kind: "city", city: r.city });
    for (const p of r.places || []) items.push(p);
    if (!items.length) return;
    const widths = items.map((it) => (it.kind === "city" ? ICON + 16 : ICON) + 4);
    const total = widths.reduce((t, v) => t + v, 0) - 4;
    let x = centre[0] - total / 2;
    const y = centre[1] - 28;
    items.forEach((it, i) => {
      const title = it.kind === "city"
        ? `${it.city.name || "City"}${it.city.capital ? " (capital)" : ""}${it.city.tax !== undefined ? `: tax ${it.city.tax} gold` : ""}`
        : it.name || it.kind;
      const g = s("g", { class: ["rb-place", `place-${it.kind}`, it.city && it.city.capital && "capital"],
        transform: `translate(${r1(x)},${r1(y)})`, "data-place": it.key || it.kind, "data-kind": it.kind, "data-region": r.id,
        testid: `${this.prefix}place-${r.id}-${it.key || it.kind}` }, s("title", {}, title));
      const scaleIcon = `scale(${ICON / 24})`;
      if (it.kind === "battlefield") {
        g.append(s("circle", { cx: ICON / 2, cy: ICON / 2, r: ICON / 2 + 1, class: "rb-icon-disc" }),
          s("path", { d: SWORDS, class: "rb-swords", transform: scaleIcon }));
      } else if (it.kind === "city" && it.city.capital) {
        g.append(s("circle", { cx: ICON / 2, cy: ICON / 2, r: ICON / 2 + 1, class: "rb-icon-disc" }),
          s("path", { d: GLYPHS.crown, class: "rb-crown", transform: scaleIcon }));
      } else if (GLYPHS[it.kind]) {
        g.append(s("circle", { cx: ICON / 2, cy: ICON / 2, r: ICON / 2 + 1, class: "rb-icon-disc" }),
          s("path", { d: GLYPHS[it.kind], class: "rb-glyph", "fill-rule": "evenodd", transform: scaleIcon }));
      } else {
        g.append(s("circle", { cx: ICON / 2, cy: ICON / 2, r: ICON / 2 + 1, class: "rb-icon-disc" }),
          s("text", { x: ICON / 2, y: ICON / 2 + 5, class: "rb-icon-letter" }, String(it.kind).charAt(0).toUpperCase()));
      }
      if (it.kind === "city") {
        if (it.city.tax !== undefined && it.city.tax !== null) {
          g.append(s("circle", { cx: ICON + 9, cy: ICON / 2, r: 9.5, class: "rb-coin" }),
            s("text", { x: ICON + 9, y: ICON / 2 + 4.5, class: "rb-coin-text" }, String(it.city.tax)));
        }
      }
      this.gPlaces.append(g);
      x += widths[i];
    });
  }

  /** Rivers, bridges and mountain ranges on their shared edges; a heavier line where two groups meet. */
  drawBorders(borders) {
    const groupOf = (id) => (this.regions.get(String(id)) || { region: {} }).region.group || null;
    borders.forEach((b, i) => {
      const seg = (b.segment || []).map((p) => this.pt(p));
      if (seg.length < 2) return;
      const attrs = { "data-a": b.a, "data-b": b.b, "data-kind": b.kind || "open", testid: `${this.prefix}border-${b.a}-${b.b}` };
      const line = `M${seg.map((p) => `${r1(p[0])},${r1(p[1])}`).join(" L")}`;
      const ga = groupOf(b.a);
      const gb = groupOf(b.b);
      if (ga !== gb) this.gBorders.append(s("path", { d: line, class: "rb-edge group-edge" }));
      if (b.kind === "river" || b.kind === "bridge") {
        const wave = wavyPath(seg, 3.2);
        const g = s("g", { class: ["rb-border", `kind-${b.kind}`], ...attrs },
          s("path", { d: wave, class: "rb-river-bank" }), s("path", { d: wave, class: "rb-river" }));
        if (b.kind === "bridge") {
          const { at, dir } = along(seg, 0.5);
          const angle = (Math.atan2(dir[1], dir[0]) * 180) / Math.PI;
          g.append(s("g", { class: "rb-bridge", transform: `translate(${r1(at[0])},${r1(at[1])}) rotate(${r1(angle)})` },
            s("rect", { x: -6, y: -13, width: 12, height: 26, rx: 2, class: "rb-plank" }),
            s("path", { d: "M-6 -8 L6 -8 M-6 -3 L6 -3 M-6 2 L6 2 M-6 7 L6 7", class: "rb-plank-lines" })));
        }
        this.gBorders.append(g);
      } else if (b.kind === "mountain") {
        const len = totalLength(seg);
        const n = Math.max(2, Math.round(len / PEAK));
        const g = s("g", { class: ["rb-border", "kind-mountain"], ...attrs }, s("path", { d: line, class: "rb-ridge-line" }));
        for (let k = 0; k < n; k++) {
          const { at } = along(seg, (k + 0.5) / n);
          const tall = k % 2 ? 13 : 17;
          const half = tall * 0.62;
          const [x, y] = at;
          g.append(s("path", { class: "rb-peak", d: `M${r1(x - half)},${r1(y + 6)} L${r1(x)},${r1(y + 6 - tall)} L${r1(x + half)},${r1(y + 6)} Z` }),
            s("path", { class: "rb-snow", d: `M${r1(x - half * 0.35)},${r1(y + 6 - tall * 0.65)} L${r1(x)},${r1(y + 6 - tall)} L${r1(x + half * 0.35)},${r1(y + 6 - tall * 0.65)} Z` }));
        }
        this.gBorders.append(g);
      }
    });
  }

  /**
   * Draw one moment of the map.
   * @param {object} p
   * @param {object[]} [p.lights] normalised lights; those naming a `region` are drawn on it
   * @param {object[]} [p.pieces] `{id, region, colour?, text?, title?, testid?}`: pieces stand in a row at the
   *   region's label point
   * @param {object[]} [p.stacks] a player's pieces in a region, drawn as one stack: `{key, region, colour, count,
   *   leaders: [{id, crown?, text?, title?}], title?, testid?, classes?, pick?}`; its leaders are discs over the
   *   stack (a `crown: true` leader crowned, the others showing their `text`), each tapped as a piece; `count` is the rest (a number on the stack);
   *   `pick` is the piece the stack's body stands for when tapped
   * @param {Map<string, {colour: string, title?: string}>} [p.owners] a token in its owner's colour per region
   * @param {object[]} [p.marks] badges on regions: `{region, text, kind?, title?, testid?}`
   * @param {Set<string>} [p.targets] regions the order in hand may choose
   * @param {string|null} [p.selectedRegion] a region picked
   * @param {Set<number>} [p.pickable] pieces this screen may pick
   * @param {number|null} [p.selected] the picked piece
   */
  render({ lights, pieces, stacks, owners, marks, targets, selectedRegion, pickable, selected }) {
    const chosen = targets || new Set();
    for (const [id, { el }] of this.regions) {
      el.toggleAttribute("data-target", chosen.has(id));
      el.classList.toggle("selected", selectedRegion === id);
      el.setAttribute("tabindex", chosen.has(id) ? "0" : "-1");
    }
    this.renderLights(lights || []);
    this.renderMarks(owners || new Map(), marks || []);
    this.gPieces.replaceChildren();
    const pick = pickable || new Set();
    const perRegion = new Map();
    const add = (k, item) => {
      if (!perRegion.has(k)) perRegion.set(k, []);
      perRegion.get(k).push(item);
    };
    for (const p of pieces || []) add(String(p.region), { piece: p, width: 2 * PIECE_R + 4 });
    for (const st of stacks || []) add(String(st.region), { stack: st, width: this.stackWidth(st) + 6 });
    for (const [k, list] of perRegion) {
      const where = this.regions.get(k);
      if (!where) continue;
      const total = list.reduce((t, it) => t + it.width, 0);
      let x = where.centre[0] - total / 2;
      for (const it of list) {
        const cx = x + it.width / 2;
        if (it.piece) this.gPieces.append(this.drawPiece(it.piece, cx, where.centre[1], k, pick, selected));
        else this.gPieces.append(this.drawStack(it.stack, cx, where.centre[1] + 6, k, pick, selected));
        x += it.width;
      }
    }
  }

  drawPiece(p, x, y, k, pick, selected) {
    return s("g", { class: ["rb-piece", pick.has(p.id) && "pickable", selected === p.id && "selected"],
      testid: p.testid || `${this.prefix}piece-${p.id}`, "data-piece": p.id, "data-region": k, role: "button",
      tabindex: pick.has(p.id) ? "0" : "-1", "aria-label": p.title || String(p.text || p.id) },
    p.title ? s("title", {}, p.title) : null,
    s("circle", { cx: x, cy: y, r: PIECE_R, style: { fill: p.colour || "#888888" } }),
    p.text ? s("text", { x, y: y + 4.5 }, p.text) : null);
  }

  stackWidth(st) {
    const leaders = (st.leaders || []).length;
    return Math.max(34, leaders * (2 * LEADER_R - 2) + 8);
  }

  /** A stack: a banner in the player's colour with the count of the rest, its leaders as discs above it. */
  drawStack(st, cx, y, k, pick, selected) {
    const w = this.stackWidth(st);
    const leaders = st.leaders || [];
    const mine = leaders.some((l) => pick.has(l.id)) || (st.pick !== undefined && pick.has(st.pick));
    const picked = leaders.some((l) => selected === l.id) || (st.pick !== undefined && selected === st.pick);
    const g = s("g", { class: ["rb-stack", mine && "pickable", picked && "selected", ...(st.classes || [])],
      testid: st.testid || `${this.prefix}stack-${k}-${st.key ?? ""}`, "data-region": k, "data-count": st.count ?? 0,
      "data-leaders": leaders.map((l) => l.id).join(" ") },
    st.title ? s("title", {}, st.title) : null);
    const top = y + 8; // the banner's top; the leaders stand on it, centred at y
    const body = s("g", { class: "rb-stack-body", "data-piece": st.pick ?? (leaders[0] ? leaders[0].id : null), "data-region": k,
      role: st.pick !== undefined || leaders.length ? "button" : null, "aria-label": st.title || null },
    s("path", { class: "rb-banner", style: { fill: st.colour || "#888888" },
      d: `M${r1(cx - w / 2)},${r1(top)} L${r1(cx + w / 2)},${r1(top)} L${r1(cx + w / 2)},${r1(top + 22)} L${r1(cx)},${r1(top + 30)} L${r1(cx - w / 2)},${r1(top + 22)} Z` }),
    s("text", { x: r1(cx), y: r1(top + 17), class: "rb-count" }, String(st.count ?? 0)));
    g.append(body);
    const step = 2 * LEADER_R - 2;
    leaders.forEach((l, i) => {
      const lx = cx + (i - (leaders.length - 1) / 2) * step;
      const ly = y;
      // A crowned leader (the game says which: `crown: true`) wears a crown instead of its letter.
      const crowned = Boolean(l.crown);
      g.append(s("g", { class: ["rb-leader", crowned && "crowned", pick.has(l.id) && "pickable", selected === l.id && "selected"],
        testid: l.testid || `${this.prefix}piece-${l.id}`, "data-piece": l.id, "data-region": k, role: "button",
        tabindex: pick.has(l.id) ? "0" : "-1", "aria-label": l.title || String(l.id) },
      l.title ? s("title", {}, l.title) : null,
      s("circle", { cx: r1(lx), cy: r1(ly), r: LEADER_R, style: { fill: st.colour || "#888888" } }),
      crowned ? s("path", { d: GLYPHS.crown, class: "rb-leader-crown", transform: `translate(${r1(lx - 8.4)},${r1(ly - 8.4)}) scale(0.7)` })
        : s("text", { x: r1(lx), y: r1(ly + 4.5), class: "rb-leader-text" }, l.text || "L")));
    });
    return g;
  }

  /** Ownership tokens (a small flag in the owner's colour, inside its own region) and badges (at its right). */
  renderMarks(owners, marks) {
    this.gMarks.replaceChildren();
    for (const [k, o] of owners) {
      const where = this.regions.get(String(k));
      if (!where) continue;
      const [x, y] = this.flagSpot(where);
      this.gMarks.append(s("g", { class: "rb-token", testid: `${this.prefix}token-${k}`, "data-region": k, "data-colour": o.colour,
        transform: `translate(${r1(x)},${r1(y)})` },
      o.title ? s("title", {}, o.title) : null,
      s("path", { d: "M0 14 L0 -6", class: "rb-token-pole" }),
      s("path", { d: "M0 -6 L-15 -2 L0 3 Z", class: "rb-token-flag", style: { fill: o.colour } }),
      s("ellipse", { cx: 0, cy: 14, rx: 5, ry: 2, class: "rb-token-foot" })));
    }
    const perRegion = new Map();
    for (const m of marks) {
      const k = String(m.region);
      perRegion.set(k, [...(perRegion.get(k) || []), m]);
    }
    for (const [k, list] of perRegion) {
      const where = this.regions.get(k);
      if (!where) continue;
      const [cx, cy] = where.centre;
      list.forEach((m, i) => {
        const x = cx + 24;
        const y = cy + 26 + i * 22;
        const text = String(m.text || "");
        const w = Math.max(22, text.length * 8 + 10);
        this.gMarks.append(s("g", { class: ["rb-badge", m.kind && `kind-${m.kind}`], testid: m.testid || `${this.prefix}badge-${k}-${i}`,
          "data-region": k, transform: `translate(${r1(x)},${r1(y)})` },
        m.title ? s("title", {}, m.title) : null,
        s("rect", { x: 0, y: -10, width: w, height: 20, rx: 10, class: "rb-badge-box" }),
        s("text", { x: w / 2, y: 4.5, class: "rb-badge-text" }, text)));
      });
    }
  }

  /**
   * Where a region's ownership flag stands: the first of a few spots round its label (beside the stack, under
   * it, beside the name) whose whole flag, with a margin, lies inside the region's outline; else the label.
   */
  flagSpot(where) {
    if (where.flag) return where.flag;
    const [cx, cy] = where.centre;
    const outline = (where.region.outline || []).map((p) => this.pt(p));
    const name = String(where.region.name || "");
    const half = Math.max(20, name.length * 3.9);
    // The flag's box from its anchor (the pole's foot is at +14): x -15..+1, y -7..+16, a margin of 4 round it.
    const fits = ([x, y]) => [[x - 19, y - 11], [x + 5, y - 11], [x - 19, y + 20], [x + 5, y + 20], [x - 7, y + 4]]
      .every((p) => insidePolygon(p, outline));
    const spots = [[cx - 30, cy + 6], [cx + 46, cy + 6], [cx - 44, cy + 14], [cx + 58, cy + 14], [cx - 14, cy + 56],
      [cx + 26, cy + 56], [cx - half - 4, cy - 40], [cx + half + 20, cy - 40], [cx - 60, cy + 30], [cx + 72, cy + 30],
      [cx - 20, cy - 62], [cx + 34, cy - 62], [cx - 80, cy], [cx + 94, cy]];
    let best = spots.find(fits);
    if (!best) {
      // A narrow region: the nearest spot on a fine grid over its outline that holds the flag, off its label,
      // its places and its stack where it can.
      const xs = outline.map((q) => q[0]);
      const ys = outline.map((q) => q[1]);
      const busy = ([x, y]) => Math.abs(x - 7 - cx) < half + 10 && y > cy - 60 && y < cy + 50;
      let score = Infinity;
      for (let x = Math.min(...xs); x <= Math.max(...xs); x += 4) {
        for (let y = Math.min(...ys); y <= Math.max(...ys); y += 4) {
          if (!fits([x, y])) continue;
          const d = Math.hypot(x - (cx - 30), y - (cy + 6)) + (busy([x, y]) ? 400 : 0);
          if (d < score) { score = d; best = [x, y]; }
        }
      }
    }
    where.flag = best || spots.find((q) => insidePolygon(q, outline)) || [cx - 30, cy + 6];
    return where.flag;
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

  /** Where a map point (map units) is on the screen, in client pixels (tests tap there). */
  clientPoint(p) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return [0, 0];
    const [x, y] = this.pt(p);
    const q = new DOMPoint(x, y).matrixTransform(ctm);
    return [q.x, q.y];
  }

  tap(e) {
    const piece = e.target.closest("[data-piece]");
    if (piece && piece.dataset.piece !== "" && this.handlers.onPiece) {
      this.handlers.onPiece(Number(piece.dataset.piece));
      return;
    }
    const el = e.target.closest("[data-region]");
    if (el) this.handlers.onRegion(el.dataset.region);
  }
}
