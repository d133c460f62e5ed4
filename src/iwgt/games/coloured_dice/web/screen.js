// The Coloured-Dice screen inside the shell (docs/screen-shell.md): the shared inch board (inchboard.js) with
// the terrain by kind, the objectives, and each unit as a tray whose models are drawn as their bases (the
// observation's `cells` and `base`), its outline the unit's coherency (open, skirmish, loose, tight), shaken
// and engaged marks; a tapped unit shows its move reach and its legal orders as buttons; a move is planned by
// tapping the table (a ghost tray with its facing, turned by a drag), a charge, fight, shot or spell by tapping
// its target; before a shot or fight is sent the pool preview (the observation's `previews`: the dice by
// colour, the effective armour and its parts, the casualty histogram, the chance the target's morale breaks)
// with Confirm; a shooter's range bands are drawn round its tray at multiples of its weapon range. The
// questions the table asks (hero points, a bear-wound die, a reaction, resisting a spell) open as dialogs; the
// last roll is shown as coloured dice with their faces; each side's general morale and VP sit in the header.
//
// Every rule is the server's: the orders are the legal actions it offers, a tapped point is sent as it is and
// a refusal comes back with its reason. Facings: the game counts degrees from +y counter-clockwise (0 faces
// seat 1's edge); the inch board from +x, so the board's facing is the game's + 90.

import { h, fill } from "/static/dom.js";
import { InchBoard } from "/static/inchboard.js";
import { humanise } from "/static/api.js";
import { toast, modal } from "/static/ui.js";
import { askDie } from "/static/shell.js";

const SIDE_COLOURS = ["#2563eb", "#b91c1c"];
const PHASES = { turn: "Turn", roll: "Rolling", decide: "A choice", over: "Game over" };
/**
 * The faces of each die in face order 1..6 (data/dice.toml, CD-DI), in pool order: the one copy in JS, needed
 * to read a roll the observation gives as face indices and to build the pool tally of physical dice; a die the
 * table asks for brings its own labels (`view.die.faces`), which win. The dice look (ink) is in coloured-dice.css.
 * Requested from the server (cd-deviations.md): the dice table in the observation, which would replace this.
 */
const FACES = {
  white: [1, 1, 2, "miss", "miss", "miss"], blue: [1, 1, 1, 2, "miss", "miss"], green: [0, 0, 0, 1, 2, "kill"],
  black: [0, 0, 1, 1, 2, "kill"], red: [1, 2, 3, "miss", "miss", "miss"], violet: [1, 2, 2, 3, "miss", "miss"],
  yellow: [1, 2, "miss", "miss", "miss", "miss"], orange: [1, 1, 2, 2, 3, "miss"],
};
const KIND_LETTER = { infantry: "I", cavalry: "C", monster: "M", character: "H", spirit: "S" };
const ORDER_WORDS = { open: "open order", skirmish: "skirmishers", loose: "loose formation", tight: "tight formation" };
const ORDER_TYPES = ["move", "charge", "fight", "shoot", "cast", "release", "reform", "rally"];
const ORDER_NAMES = { move: "Move", charge: "Charge", fight: "Fight", shoot: "Shoot", cast: "Cast", release: "Release", reform: "Reform", rally: "Rally" };
const TARGETED = new Set(["charge", "fight", "shoot", "cast", "release"]);
const QUESTIONS = ["hero", "bear_wound", "react", "resist"];
const NAME_CLEAR_INCHES = 1.5; // a feature's name this near an objective marker goes this far under it
const MOVE_LIGHTS = new Set(["destination", "reach"]); // the selection's lights that belong to a move
const MIN_LEG = 0.3; // inches: a tap this close to where the plan stands adds no leg
const SNAP_INCHES = 0.5; // a tap this close to a move end the table offers goes exactly there
const TURN_STEP_DEGREES = 45;
const CIRCLE_POINTS = 48;
const ARC_STEPS = 8;

const round2 = (v) => Math.round(Number(v) * 100) / 100;
const inches = (v) => `${round2(v)}"`;
const pct = (p) => `${Math.round(Number(p) * 1000) / 10}%`;
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const norm = (deg) => ((Math.round(Number(deg) * 100) / 100) % 360 + 360) % 360;
/** The facing (game degrees: 0 = +y, counter-clockwise) of a line from a to b. */
const facingOf = (a, b) => norm((Math.atan2(-(b[0] - a[0]), b[1] - a[1]) * 180) / Math.PI);

/** A face as printed on a die: its number, "–" for a miss, "☠" for a kill. */
export function faceText(face) {
  if (face === "miss") return "–";
  if (face === "kill") return "☠";
  return String(face);
}

/** A face given as a value ("miss", "kill", 0..3) or, with `byIndex`, as its index 1..6 on that colour's die. */
export function faceOf(colour, face, byIndex = false) {
  if (typeof face === "string" && !/^\d+$/.test(face)) return face;
  if (byIndex && FACES[colour]) return FACES[colour][Number(face) - 1] ?? face;
  return Number(face);
}

/** What each die of a roll shows: its `labels` (or `values`) when the observation gives them, else its faces
 * read as the chance outcomes 1..6 (the state keeps a die's face index). */
export function rollFaces(r) {
  const dice = r.dice || [];
  const given = r.labels || r.values;
  if (Array.isArray(given) && given.length) return dice.map((c, i) => faceOf(c, given[i]));
  return dice.map((c, i) => faceOf(c, (r.faces || [])[i], r.face_index !== false));
}

/** A tray's corners (game facing: 0 = +y, counter-clockwise), counter-clockwise round the tray. */
export function trayCorners(tray) {
  const [cx, cy] = tray.centre;
  const a = (Number(tray.facing) * Math.PI) / 180;
  const front = [-Math.sin(a), Math.cos(a)];
  const right = [Math.cos(a), Math.sin(a)];
  const w = Number(tray.frontage) / 2;
  const d = Number(tray.depth) / 2;
  const pt = (sx, sy) => [cx + right[0] * w * sx + front[0] * d * sy, cy + right[1] * w * sx + front[1] * d * sy];
  return [pt(1, 1), pt(-1, 1), pt(-1, -1), pt(1, -1)];
}

/** The outline of the points within `r` of a convex polygon: its edges pushed out, its corners rounded. */
export function offsetOutline(poly, r) {
  let area = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x1, y1] = poly[i];
    const [x2, y2] = poly[(i + 1) % poly.length];
    area += x1 * y2 - x2 * y1;
  }
  const ccw = area >= 0 ? poly : [...poly].reverse();
  const n = ccw.length;
  const normal = (i) => {
    const [x1, y1] = ccw[i];
    const [x2, y2] = ccw[(i + 1) % n];
    return Math.atan2(-(x2 - x1), y2 - y1); // outward for a counter-clockwise polygon: (dy, -dx)
  };
  const out = [];
  for (let i = 0; i < n; i++) {
    let a0 = normal((i - 1 + n) % n);
    let a1 = normal(i);
    while (a1 < a0) a1 += 2 * Math.PI;
    for (let k = 0; k <= ARC_STEPS; k++) {
      const a = a0 + ((a1 - a0) * k) / ARC_STEPS;
      out.push([round2(ccw[i][0] + r * Math.cos(a)), round2(ccw[i][1] + r * Math.sin(a))]);
    }
  }
  return out;
}

/** A circle as a polygon. */
function circle(c, r) {
  return Array.from({ length: CIRCLE_POINTS }, (_, i) => {
    const a = (2 * Math.PI * i) / CIRCLE_POINTS;
    return [round2(c[0] + r * Math.cos(a)), round2(c[1] + r * Math.sin(a))];
  });
}

/** A model's centre in its tray's own frame (x along the front, y towards it), as the inch board draws models. */
export function inTrayFrame(tray, p) {
  const a = (Number(tray.facing) * Math.PI) / 180;
  const dx = p[0] - tray.centre[0];
  const dy = p[1] - tray.centre[1];
  return [dx * Math.cos(a) + dy * Math.sin(a), -dx * Math.sin(a) + dy * Math.cos(a)];
}

/** The die awaited or the question asked now (the observation's `awaiting`; `pending` in older records). */
function awaiting(obs) {
  return obs.awaiting !== undefined ? obs.awaiting : obs.pending || null;
}

const POOL_ORDER = Object.keys(FACES);

/** A die drawn as a chip of its colour (coloured-dice.css paints it by `data-colour`): a face, or empty. */
function dieChip(colour, text, attrs = {}) {
  return h("span", { class: ["cd-die", `cd-die-${colour}`], "data-colour": colour, title: `${colour} die`, ...attrs }, text);
}

/** A count of dice of one colour, named: "10 white". */
function diceCount(colour, n, attrs = {}) {
  return h("span", { class: "cd-dice-count", ...attrs }, dieChip(colour, "", { "aria-hidden": "true" }), ` ${n} ${colour}`);
}

/** Capitalise a sentence's first letter ("the Host of Pohjola …" → "The Host of Pohjola …"). */
const sentence = (text) => { const t = String(text); return t.charAt(0).toUpperCase() + t.slice(1); };

/** The number a face counts in a summed roll: its number; a miss or a kill counts 0 (CD-DI-12/13). */
const facePoints = (face) => (typeof face === "number" ? face : 0);

export class Screen {
  static testids = { prompt: "cd-prompt", refusal: "cd-refusal" };
  static sounds = { actions: { reform: "move", rally: null, end_turn: null, hero: null, bear_wound: null, react: null, resist: null } };

  constructor(shell) {
    this.shell = shell;
    this.mode = null; // the order chosen for the picked unit: "move", "charge", "fight", "shoot", "cast", "reform"...
    this.plan = null; // {unit, path: [[x, y]], facing}: a move being planned
    this.pending = null; // {action, kind}: a charge, fight, shot or spell waiting for Confirm
    this.asked = null; // {key, answer}: the table's preview of the pending act when the observation has none
    this.check = null; // the table's answer about the planned move
    this.checkKey = null;
    this.question = null; // {version, dlg}: the dialog of the question asked now
    this.heroPoints = 0;
    this.spell = null; // the spell chosen in the cast order
    this.tally = null; // physical dice: the faces of a pool's tally still to send, [{colour, face}] in pool order
    this.tallyVersion = -1; // the view whose die the last tallied face answered
    this.diceDlg = null; // {version, dlg}: this screen's die prompt (the tally, or one die after "one at a time")
    this.singlePool = null; // the pool whose dice the player chose to enter one at a time
    shell.addStylesheet(new URL("./coloured-dice.css", import.meta.url).href);
  }

  mount(slots) {
    this.elSides = h("div", { class: "cd-sides", testid: "cd-sides" });
    this.elUnit = h("section", { class: "cd-unit-panel", testid: "cd-unit-panel" });
    this.elPreview = h("section", { class: "cd-preview", testid: "cd-preview", hidden: true, "aria-live": "polite" });
    this.elDock = h("div", { class: "cd-dock", testid: "cd-dock" });
    this.elRoll = h("section", { class: "cd-roll", testid: "cd-last-roll", hidden: true });
    this.elRoster = h("div", { class: "cd-roster", testid: "cd-roster" });
    this.elEnd = h("button", { type: "button", class: "btn primary", testid: "cd-end-turn", hidden: true, "data-help": "action:end_turn",
      onclick: () => this.send({ type: "end_turn" }) }, "End turn");
    this.board = new InchBoard(slots.board, {
      onPiece: (id, p) => this.tapUnit(id, p),
      onPoint: (p) => this.tapPoint(p),
      onDrop: (id, p) => this.dropUnit(id, p),
      onTurn: (key, facing) => this.turnGhost(key, facing),
    }, { prefix: "cd-" });
    return {
      className: "cd-screen",
      header: [this.elSides],
      side: [slots.prompt, this.elUnit, this.elPreview, this.elDock, this.elRoll, h("h2", { class: "side-title" }, "Units"), this.elRoster],
      actions: [this.elEnd],
    };
  }

  // ---------------------------------------------------------------- reading the view

  get view() { return this.shell.view; }
  get selected() { return this.shell.selected; }
  obs() { return this.shell.obs(); }
  actions() { return this.shell.actions(); }
  myTurn() { return this.shell.myTurn(); }
  seat() { return this.view ? this.view.seat : null; }
  units() { return (this.obs().units || []).filter((u) => u.tray && !u.destroyed && !u.routed); }
  unit(id) { return (this.obs().units || []).find((u) => u.id === id) || null; }
  unitName(id) { const u = this.unit(id); return u ? u.name || humanise(u.key) : `unit ${id}`; }
  sideName(seat) { const s = (this.obs().sides || [])[seat]; return (s && s.name) || this.shell.seatName(seat); }
  /** A side's short name for a narrow header: its army's name ("Kaleva"), else its name without "the". */
  shortName(seat) {
    const s = (this.obs().sides || [])[seat] || {};
    if (s.army) return humanise(s.army);
    return sentence(this.sideName(seat).replace(/^the\s+/i, ""));
  }
  /** The army a unit belongs to (its side's), for its help topic `unit:<army>.<key>`. */
  armyOf(u) { const s = (this.obs().sides || [])[u.seat]; return u.army || (s && s.army) || ""; }
  sideColour(seat) { const s = (this.obs().sides || [])[seat]; return (s && s.colour) || SIDE_COLOURS[seat] || "#888888"; }
  /** The legal actions of one unit (and of one type); its moves come with its selection. */
  unitActions(id, type = null) {
    const list = this.actions().filter((a) => a.unit === id && (!type || a.type === type));
    if (!type || type === "move") list.push(...this.movesOf(id));
    return list;
  }
  /** The moves the table offers a unit: its selection's (`moves: [{to, facing, action}]`). */
  movesOf(id) {
    const sel = this.shell.selection;
    if (!sel || sel.unit !== id || !Array.isArray(sel.moves)) return [];
    return sel.moves.map((m) => m.action || { type: "move", unit: id, path: [m.to], facing: m.facing }).filter((a) => a && a.type === "move");
  }
  /** Whether the unit's selection has come (its moves are known). */
  selectionIn(id) { return Boolean(this.shell.selection && this.shell.selection.unit === id); }
  /** The order types the unit may give now, in the table's order. */
  orderTypes(id) {
    const types = new Set(this.unitActions(id).map((a) => a.type));
    return ORDER_TYPES.filter((t) => types.has(t));
  }
  question_() {
    const p = awaiting(this.obs());
    return p && QUESTIONS.includes(p.kind) ? p : null;
  }
  /** The answers this seat may give to the question asked: the options' actions, else the observation's. */
  answers(kind) {
    const own = this.actions().filter((a) => a.type === kind);
    return own.length ? own : (this.obs().questions || []).filter((a) => a.type === kind);
  }
  /** The preview the observation gives for an attack, or the table's answer asked for it. */
  previewOf(action) {
    if (!action) return null;
    const kind = action.type === "fight" ? "fight" : action.type === "shoot" ? "shot" : action.type === "cast" ? "spell" : null;
    if (!kind) return null;
    const found = (this.obs().previews || []).find((p) => p.kind === kind && p.unit === action.unit && p.target === action.target
      && (kind !== "spell" || !p.spell || p.spell === action.spell));
    if (found) return found;
    if (this.asked && this.asked.key === JSON.stringify(action) && this.asked.answer) {
      const m = this.asked.answer;
      return m.odds || m.preview || m.outcome || (m.casualties ? m : null);
    }
    return null;
  }
  /** The longest missile range of a unit's weapons, or 0. */
  missileRange(u) {
    let best = 0;
    for (const w of (u && u.weapons) || []) {
      const m = w.missile;
      const r = m && typeof m === "object" ? Number(m.range) : Number(m);
      if (r > best) best = r;
    }
    return best;
  }

  // ---------------------------------------------------------------- hooks the shell calls

  onView(view, { fresh }) {
    if (!fresh) return;
    this.plan = null;
    this.pending = null;
    this.asked = null;
    this.check = null;
    const obs = view.observation || {};
    // Keep the picked unit while it is still ours to order; else pick nothing.
    let id = this.selected;
    if (id !== null && !(this.myTurn() && obs.phase === "turn" && this.shell.movable().has(id))) id = null;
    if (id === null) this.mode = null;
    this.shell.select(id, { render: false });
  }

  /** The picked unit's moves, reach and bands have come: an order it no longer has falls back to another. */
  onSelection(msg) {
    if (msg.unit !== this.selected || !this.myTurn()) return;
    if (!this.mode || !this.orderTypes(msg.unit).includes(this.mode)) this.mode = this.defaultMode(msg.unit);
    // A destination tapped before the moves came: near an offered end, it goes exactly there after all.
    const p = this.plan;
    if (p && p.unit === msg.unit && p.path.length === 1) {
      const snap = this.snapMove(p.path[0], p.unit);
      if (snap) {
        p.path = snap.path.map((q) => [q[0], q[1]]); // the place only: the facing stays the leg's
        this.planChanged();
      }
    }
  }

  onPreview(msg) {
    const key = msg && msg.action ? JSON.stringify(msg.action) : null;
    if (this.checkKey && (!key || key === this.checkKey) && this.plan) {
      this.check = msg;
    } else if (this.asked && !this.asked.answer) {
      this.asked.answer = msg;
      if (msg && msg.legal === false) toast(msg.reason || "That is not possible now.", "error");
    }
    this.shell.render();
  }

  phase(view) {
    const o = view.observation || {};
    const round = o.round ? `Round ${o.round}${o.rounds ? ` of ${o.rounds}` : ""} · ` : "";
    const whose = o.phase === "turn" && o.seat !== undefined && o.seat !== null ? `Turn: ${this.sideName(o.seat)}` : PHASES[o.phase] || humanise(o.phase || "");
    return `${round}${whose}`;
  }

  waiting(view) {
    const p = awaiting(view.observation || {});
    if (view.die) return `Roll ${view.die.colour ? `a ${view.die.colour} die` : "the die"}`;
    if (p && p.kind === "roll") return "The table rolls the dice…";
    return "The table is working…";
  }

  render(view) {
    const obs = view.observation || {};
    this.board.setTable(this.tableScene(obs));
    const sel = this.selected !== null ? this.unit(this.selected) : null;
    this.board.render({
      lights: this.boardLights(),
      trays: this.trays(obs),
      things: this.objectives(obs),
      pickable: this.pickable(),
      selected: this.selected,
      reach: this.reach(sel),
      rings: this.rings(sel),
      outlines: this.rangeBands(sel),
      points: this.points(sel),
      links: this.links(obs),
      arrows: this.arrows(),
      ghosts: this.ghosts(),
    });
    this.renderSides(obs);
    this.renderUnit(sel);
    this.renderPreview();
    this.renderDock(sel);
    this.renderRoll(obs);
    this.renderRoster(obs);
    this.elEnd.hidden = !(this.myTurn() && this.actions().some((a) => a.type === "end_turn"));
  }

  afterView(view) {
    if (this.diceDlg && (!view.die || this.diceDlg.version !== view.version)) { this.diceDlg.dlg.close(null); this.diceDlg = null; }
    if (!view.die) this.tally = null;
    const q = this.question_();
    const mine = q && this.myTurn() && this.answers(q.kind).length > 0;
    if (this.question && (!mine || this.question.version !== view.version)) {
      this.question.dlg.close(null);
      this.question = null;
    }
    if (mine && !this.question) this.openQuestion(q, view.version);
  }

  legend(view) {
    const items = [0, 1].map((seat) => h("span", { class: "legend-item" },
      h("span", { class: "swatch", style: { background: this.sideColour(seat) }, "aria-hidden": "true" }), sentence(this.sideName(seat))));
    items.push(h("span", { class: "legend-item cd-legend-long" },
      "yellow edge: the front · dashed outline: open order or skirmishers · orange: shaken · red line: engaged"));
    return items;
  }

  prompt(view) {
    const o = view.observation || {};
    if (view.status !== "playing") return [h("p", {}, view.status === "quit" ? "The game was quit." : "The battle is over.")];
    if (!this.myTurn()) {
      const who = view.to_move === null || view.to_move === undefined ? "The table" : this.shell.seatName(view.to_move);
      return [h("h2", {}, "Please wait"), h("p", {}, view.die ? "Roll the die the table asks for and tap the face you see." : `${who} is playing.`)];
    }
    const q = this.question_();
    if (q) return [h("h2", {}, "Your choice"), h("p", {}, this.questionWords(q))];
    const sel = this.selected !== null ? this.unit(this.selected) : null;
    if (!sel || sel.seat !== this.seat()) {
      return [h("h2", {}, "Order a unit"), h("p", {}, "Tap one of your lit units (each has two actions this turn), or end your turn.")];
    }
    const left = sel.actions_left ?? 0;
    const how = {
      move: "Tap the table where its tray goes (each tap a leg); drag the outline to turn it; then Move.",
      charge: "Tap an enemy unit it can reach to charge it.",
      fight: "Tap an enemy in contact to fight it.",
      shoot: "Tap an enemy in range to shoot at it.",
      cast: "Choose a spell and its target.",
      release: "Choose the spirit to release.",
      reform: "Choose its new order and files.",
      rally: "Rally: a morale test with both actions.",
    }[this.mode] || "Choose an order.";
    return [h("h2", {}, `${this.unitName(sel.id)}: ${plural(left, "action")} left`), h("p", { testid: "cd-how" }, how)];
  }

  verdict(result) {
    const w = Array.isArray(result.winners) ? result.winners : [];
    // "Victory: the Host of Pohjola": no verb to agree with a side's name.
    if (w.length === 1) return `Victory: ${this.sideName(w[0])}`;
    return null;
  }

  finalReport(view) {
    const sides = (view.observation || {}).sides || [];
    return sides.map((s, i) => h("p", { class: "muted", testid: `cd-final-${i}` },
      `${sentence(this.sideName(i))}: ${s.vp ?? 0} VP, general morale ${s.general_morale ?? 0}, ${s.points_lost ?? 0} of ${s.points ?? "?"} points lost`));
  }

  helpTopic(el) {
    const unit = el.closest("[data-unit]");
    if (unit) return `unit:${unit.dataset.army}.${unit.dataset.key}`;
    const ground = el.closest("[data-kind]");
    if (ground && String(ground.dataset.kind).startsWith("cd-")) return `terrain:${String(ground.dataset.kind).slice(3)}`;
    if (el.closest(".cd-die")) return `die:${el.closest(".cd-die").dataset.colour}`;
    return null;
  }

  // ---------------------------------------------------------------- the board

  /** The live lights, less the picked unit's move spots and reach while another order is chosen (a shot's
   * targets, not where it could walk, are what the player looks at then). */
  boardLights() {
    const all = this.shell.lights();
    if (!this.mode || this.mode === "move") return all;
    const picked = new Set(this.shell.lightLists.selection || []);
    return all.filter((l) => !(picked.has(l) && MOVE_LIGHTS.has(l.effect)));
  }

  tableScene(obs) {
    const t = obs.table || {};
    return {
      width: Number(t.width) || 48,
      height: Number(t.height) || 36,
      areas: (obs.features || []).filter((f) => !f.removed).map((f) => {
        const high = f.kind === "hill" && f.height ? ` (height ${f.height})` : "";
        const name = `${f.name || humanise(f.kind)}${high}`;
        return { outline: f.outline || [], kind: `cd-${f.kind}`, name, title: name, testid: `cd-feature-${f.id}`, labelAt: this.nameAt(f, obs) };
      }),
    };
  }

  /** Where a feature's name goes: its middle, or under an objective marker standing there (the marker would hide it). */
  nameAt(f, obs) {
    const pts = f.outline || [];
    if (!pts.length) return null;
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const mid = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
    const hidden = (obs.objectives || []).some((o) => Array.isArray(o.at) && Math.hypot(o.at[0] - mid[0], o.at[1] - mid[1]) < NAME_CLEAR_INCHES);
    return hidden ? [mid[0], mid[1] - NAME_CLEAR_INCHES] : null;
  }

  trays(obs) {
    const out = [];
    const pending = this.pending;
    const targets = this.targetIds();
    for (const u of obs.units || []) {
      if (!u.tray || u.destroyed || u.routed) continue;
      const t = u.tray;
      const base = Array.isArray(u.base) ? u.base : null;
      const models = Array.isArray(u.cells) && u.cells.length ? u.cells.map((p) => inTrayFrame(t, p)) : u.models;
      const marks = [ORDER_WORDS[u.order] || u.order, u.shaken && "shaken", (u.engaged || []).length && "engaged"].filter(Boolean);
      out.push({
        id: u.id, at: t.centre, width: t.frontage, depth: t.depth, facing: Number(t.facing) + 90, colour: this.sideColour(u.seat),
        models, files: u.files, bases: base, letter: KIND_LETTER[u.kind] || "",
        badge: { text: u.shaken ? `${u.models}!` : u.models, cls: u.shaken ? "cd-badge-shaken" : "cd-badge" },
        name: u.name, title: `${u.models} of ${u.start_models}, ${marks.join(", ")}`,
        classes: [`side-${u.seat}`, `order-${u.order}`, `kind-${u.kind}`, u.shaken && "shaken", (u.engaged || []).length && "engaged",
          targets.has(u.id) && "target", pending && pending.action.target === u.id && "aimed"],
        data: { unit: u.id, key: u.key, army: this.armyOf(u), models: u.models, order: u.order, shaken: u.shaken ? "true" : "false" },
        testid: `cd-unit-${u.id}`,
      });
    }
    return out;
  }

  objectives(obs) {
    return (obs.objectives || []).map((o) => {
      const taken = o.taken_by || [];
      return { id: `obj-${o.id}`, at: o.at, radius: 0.6, shape: "disc", text: `${o.vp}`, colour: taken.length === 1 ? this.sideColour(taken[0]) : null,
        title: `Objective: ${o.vp} VP${taken.length ? `, taken by ${taken.map((s) => this.sideName(s)).join(" and ")}` : ""}`,
        classes: ["cd-objective", taken.length && "taken"], testid: `cd-objective-${o.id}` };
    });
  }

  pickable() {
    if (!this.myTurn()) return new Set();
    const set = this.shell.movable();
    for (const a of this.actions()) if (typeof a.unit === "number") set.add(a.unit);
    return set;
  }

  /** The ids the chosen order may be aimed at (the enemies lit as targets). */
  targetIds() {
    if (!this.myTurn() || this.selected === null || !TARGETED.has(this.mode)) return new Set();
    return new Set(this.unitActions(this.selected, this.mode).filter((a) => a.type !== "cast" || a.spell === this.spell)
      .map((a) => a.target).filter((t) => typeof t === "number"));
  }

  reach(u) {
    if (!u || !this.myTurn() || this.mode !== "move" || !u.tray) return null;
    const sel = this.shell.selection;
    if (sel && sel.unit === u.id && Array.isArray(sel.reach) && sel.reach.length > 2 && typeof sel.reach[0][0] === "number") return sel.reach;
    const move = Number(u.move) || 0;
    return move > 0 ? circle(u.tray.centre, move) : null;
  }

  /** The table's rings for the picked unit while it moves: its move allowance. */
  rings(u) {
    const sel = this.shell.selection;
    if (!u || !this.myTurn() || this.mode !== "move" || !sel || sel.unit !== u.id) return [];
    return (sel.rings || []).filter((r) => r.kind === "move")
      .map((r) => ({ kind: r.kind, at: r.at, radius: r.radius,
      label: r.label || null, testid: `cd-ring-${r.kind}` }));
  }

  /** A shooter's range bands: outlines round its tray at each multiple of its weapon's range (CD-RA). */
  rangeBands(u) {
    if (!u || !u.tray) return [];
    const range = this.missileRange(u);
    const shooting = this.mode === "shoot" || (this.pending && this.pending.action.type === "shoot");
    if (!range || !shooting) return [];
    // The table's own bands for the picked unit (its first weapon's): as many as the rules' maximum range allows.
    const sel = this.shell.selection;
    const given = sel && sel.unit === u.id && Array.isArray(sel.bands) ? sel.bands.filter((b) => Array.isArray(b.outline)) : [];
    if (!given.length) return [];
    const first = given[0].range;
    return [{ testid: "cd-range-bands", kind: "range-band", items: given.filter((b) => b.range === first).map((b) => ({
      outline: b.outline, label: `${inches(b.to)} · +${b.armour ?? b.band}`, testid: `cd-range-band-${Number(b.band) + 1}`,
    })) }];
  }

  points(u) {
    const out = [];
    if (this.plan) for (const p of this.plan.path) out.push({ at: p, kind: "waypoint" });
    if (u && this.myTurn() && this.mode === "move" && !this.plan) {
      for (const a of this.unitActions(u.id, "move")) {
        const end = Array.isArray(a.path) && a.path.length ? a.path[a.path.length - 1] : null;
        if (end) out.push({ at: end, kind: "move" });
      }
    }
    return out;
  }

  links(obs) {
    const seen = new Set();
    const out = [];
    for (const u of obs.units || []) {
      if (!u.tray || u.destroyed || u.routed) continue;
      for (const e of u.engaged || []) {
        const key = [Math.min(u.id, e), Math.max(u.id, e)].join("-");
        const o = this.unit(e);
        if (seen.has(key) || !o || !o.tray) continue;
        seen.add(key);
        out.push([u.tray.centre, o.tray.centre]);
      }
    }
    return out;
  }

  arrows() {
    const out = [];
    if (this.plan && this.plan.path.length) {
      const u = this.unit(this.plan.unit);
      if (u && u.tray) out.push({ from: u.tray.centre, via: this.plan.path.slice(0, -1),
        to: this.plan.path[this.plan.path.length - 1], kind: "plan", testid: "cd-plan-arrow" });
    }
    const p = this.pending;
    if (p && typeof p.action.target === "number") {
      const a = this.unit(p.action.unit);
      const b = this.unit(p.action.target);
      if (a && b && a.tray && b.tray) out.push({ from: a.tray.centre, to: b.tray.centre, kind: p.action.type, testid: "cd-aim-arrow" });
    }
    return out;
  }

  ghosts() {
    const p = this.pending;
    if (p && p.action.type === "charge") {
      const c = this.contactOf(p.action);
      const u = this.unit(p.action.unit);
      if (c && u && u.tray && Array.isArray(c.centre)) {
        return [{ at: c.centre, width: u.tray.frontage, depth: u.tray.depth, facing: Number(c.facing) + 90, kind: "contact", testid: "cd-ghost-contact" }];
      }
    }
    if (!this.plan || !this.plan.path.length) return [];
    const u = this.unit(this.plan.unit);
    if (!u || !u.tray) return [];
    const end = this.plan.path[this.plan.path.length - 1];
    return [{ at: end, width: u.tray.frontage, depth: u.tray.depth, facing: this.plan.facing + 90, kind: "plan", testid: "cd-ghost-plan", turn: "plan" }];
  }

  // ---------------------------------------------------------------- the side panels

  renderSides(obs) {
    fill(this.elSides, (obs.sides || []).map((s, seat) => h("span", { class: ["cd-side-chip", obs.seat === seat && "moving"], testid: `cd-side-${seat}`,
      "data-gm": s.general_morale ?? 0, "data-vp": s.vp ?? 0, style: { "--side": this.sideColour(seat) },
      title: `${this.sideName(seat)}: general morale ${s.general_morale ?? 0}, ${s.vp ?? 0} victory points` },
    h("span", { class: "cd-side-dot", "aria-hidden": "true" }),
    h("span", { class: "cd-side-name" }, this.sideName(seat)),
    h("span", { class: "cd-side-short", testid: `cd-side-short-${seat}` }, this.shortName(seat)),
    h("span", { class: "cd-gm", testid: `cd-gm-${seat}` }, `GM ${s.general_morale > 0 ? "+" : ""}${s.general_morale ?? 0}`),
    h("strong", { class: "cd-vp", testid: `cd-vp-${seat}` }, `${s.vp ?? 0} VP`))),
    obs.round ? h("span", { class: "cd-round", testid: "cd-round", "data-round": obs.round }, `Round ${obs.round}/${obs.rounds ?? "?"}`) : null);
  }

  renderUnit(u) {
    if (!u) { fill(this.elUnit); return; }
    const wp = (u.weapons || []).map((w) => {
      const m = w.missile;
      const parts = [];
      const melee = this.diceWords(w.melee || []);
      if (melee.length) parts.push(["close combat ", ...melee]);
      if (m) parts.push([`shoots ${inches(m.range ?? m)}${(m.dice || []).length ? " with " : ""}`, ...this.diceWords(m.dice || [])]);
      const said = parts.length ? parts.flatMap((x, i) => (i ? ["; ", ...x] : x)) : ["no dice of its own"];
      return h("li", {}, `${w.name}${w.reach > 1 ? " (reach 2)" : ""}: `, ...said);
    });
    const facts = [
      `${u.models} of ${u.start_models} models`, ORDER_WORDS[u.order] || u.order, `${u.files} abreast`,
      `armour ${u.armour}`, `slowness ${u.slowness}`, `morale ${u.morale_target} (${u.us_kind} ${u.us})`, `move ${inches(u.move)}`,
      u.body > 1 ? `body ${u.body} (${u.wounds} wounds)` : null,
      u.hero_left ? `${u.hero_left} hero points` : null, u.bear_left ? `${u.bear_left} ${u.bear_colour || ""} bear-wound dice` : null,
      u.will !== null && u.will !== undefined ? `will ${u.will}` : null, u.god_like ? `God-likeness ${u.god_like}` : null,
      u.shaken ? "SHAKEN" : null, (u.engaged || []).length ? `engaged with ${(u.engaged || []).map((e) => this.unitName(e)).join(", ")}` : null,
    ].filter(Boolean);
    fill(this.elUnit, h("h3", { style: { color: this.sideColour(u.seat) } }, `${u.name} (${this.sideName(u.seat)})`),
      h("p", { class: "cd-facts", testid: "cd-unit-facts" }, facts.join(" · ")),
      wp.length ? h("ul", { class: "cd-weapons" }, wp) : null,
      (u.buffs || []).length ? h("p", { class: "muted" }, `Under: ${(u.buffs || []).map((b) => humanise(b.key || b.effect)).join(", ")}`) : null);
  }

  /** Dice per model in words, each colour with its chip: "1 white", "2 red". */
  diceWords(colours) {
    const counts = new Map();
    for (const c of colours) counts.set(c, (counts.get(c) || 0) + 1);
    return [...counts].flatMap(([c, n], i) => [i ? ", " : "", diceCount(c, n)]).filter((x) => x !== "");
  }

  renderDock(u) {
    if (!this.myTurn() || this.question_()) { fill(this.elDock); return; }
    const out = [];
    if (this.pending) {
      const verbs = { charge: "Charge!", fight: "Fight!", shoot: "Shoot!", cast: "Cast", release: "Release" };
      const answer = this.asked && this.asked.answer;
      const ready = Boolean(this.previewOf(this.pending.action)) || Boolean(answer && answer.legal !== false);
      out.push(h("div", { class: "row cd-confirm-row" },
        h("button", { type: "button", class: "btn primary huge", testid: "cd-confirm", disabled: !ready,
          onclick: () => this.send(this.pending.action) },
          verbs[this.pending.action.type] || "Confirm"),
        h("button", { type: "button", class: "btn secondary", testid: "cd-cancel",
          onclick: () => { this.pending = null; this.asked = null; this.shell.render(); } }, "Cancel")));
      fill(this.elDock, out);
      return;
    }
    if (!u || u.seat !== this.seat()) { fill(this.elDock); return; }
    const types = this.orderTypes(u.id);
    if (types.length) {
      out.push(h("div", { class: "cd-orders", testid: "cd-orders" }, types.map((t) => h("button", { type: "button",
        class: ["btn", "small", this.mode === t ? "primary" : "secondary"], testid: `cd-order-${t}`, "aria-pressed": this.mode === t ? "true" : "false",
        "data-help": `action:${t}`, onclick: () => this.chooseOrder(t) }, ORDER_NAMES[t] || humanise(t)))));
    } else out.push(h("p", { class: "muted" }, "This unit has no order left this turn."));
    if (this.mode === "move" && this.plan) out.push(this.planControls());
    if (this.mode === "cast") {
      // The spells first (one button each), then the chosen spell's targets.
      const spells = [...new Set(this.unitActions(u.id, "cast").map((a) => a.spell))];
      if (!spells.includes(this.spell)) this.spell = spells.length === 1 ? spells[0] : null;
      out.push(h("div", { class: "cd-targets", testid: "cd-spells" }, h("span", { class: "cd-targets-what" }, "Spell:"), spells.map((k) => h("button", {
        type: "button", class: ["btn", "small", this.spell === k ? "primary" : "secondary"],
          testid: `cd-spell-${k}`, "aria-pressed": this.spell === k ? "true" : "false",
        "data-help": `spell:${k}`, onclick: () => { this.spell = k; this.shell.render(); } }, humanise(k)))));
    }
    if (TARGETED.has(this.mode) && (this.mode !== "cast" || this.spell)) {
      const list = this.unitActions(u.id, this.mode).filter((a) => a.type !== "cast" || a.spell === this.spell);
      const at = { charge: "Charge:", fight: "Fight:", shoot: "Shoot at:", cast: "Cast:", release: "Release:" }[this.mode];
      out.push(h("div", { class: "cd-targets", testid: "cd-targets" }, h("span", { class: "cd-targets-what" }, at), list.map((a) => {
        const where = typeof a.target === "number" ? a.target : Array.isArray(a.at) ? `at-${Math.round(a.at[0])}-${Math.round(a.at[1])}` : "self";
        const key = a.type === "cast" ? `${a.spell}-${where}` : a.type === "release" ? `${a.spirit}` : `${a.target}`;
        return h("button", { type: "button", class: "btn small primary",
          testid: a.type === "cast" || a.type === "release" ? `cd-target-${a.type}-${key}` : `cd-target-${a.target}`,
          title: this.actionTitle(a), onclick: () => this.aim(a) }, a.type === "cast" || a.type === "release" ? this.actionTitle(a) : this.unitName(a.target));
      })));
    }
    if (this.mode === "reform") {
      out.push(h("div", { class: "cd-targets", testid: "cd-reforms" }, this.unitActions(u.id, "reform").map((a, i) => h("button", { type: "button",
        class: "btn small secondary", testid: `cd-reform-${a.order}-${a.files}${a.facing !== undefined && a.facing !== null ? `-${Math.round(a.facing)}` : ""}`,
        "data-index": i, onclick: () => this.send(a) }, this.actionTitle(a)))));
    }
    if (this.mode === "rally") {
      const a = this.unitActions(u.id, "rally")[0];
      if (a) out.push(h("button", { type: "button", class: "btn primary", testid: "cd-rally", onclick: () => this.send(a) }, "Rally (both actions)"));
    }
    fill(this.elDock, out);
  }

  planControls() {
    const p = this.plan;
    const turn = (d) => { p.facing = norm(p.facing + d); this.planChanged(); };
    const check = this.check;
    return h("div", { class: "cd-plan", testid: "cd-plan" },
      h("p", { class: "muted", testid: "cd-plan-words", "data-facing": round2(p.facing) },
        `${plural(p.path.length, "leg")}, ${this.pathLength()} long, ${this.facingWords(p.facing)}.`),
      check && check.legal && check.move ? h("p", { class: "muted", testid: "cd-plan-cost", "data-used": check.move.used },
        `Uses ${inches(check.move.used)} of ${inches(check.move.allowance)}
          ${check.move.taxes ? ` (terrain −${inches(check.move.taxes)})` : ""}${check.move.march ? ", marching" : ""}.`) : null,
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn secondary small", testid: "cd-turn-left",
          onclick: () => turn(TURN_STEP_DEGREES) }, `⟲ ${TURN_STEP_DEGREES}°`),
        h("button", { type: "button", class: "btn secondary small", testid: "cd-turn-right",
          onclick: () => turn(-TURN_STEP_DEGREES) }, `⟳ ${TURN_STEP_DEGREES}°`),
        h("button", { type: "button", class: "btn secondary small", testid: "cd-face-enemy", onclick: () => this.faceEnemy() }, "Face the enemy")),
      check && check.legal === false && check.reason ? h("p", { class: "cd-bad", testid: "cd-check", role: "alert" }, check.reason) : null,
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn primary", testid: "cd-move-go", onclick: () => this.sendPlan() }, "Move here"),
        h("button", { type: "button", class: "btn secondary", testid: "cd-move-clear",
          onclick: () => { this.plan = null; this.check = null; this.shell.render(); } }, "Clear")));
  }

  /** A facing in a player's words: turned left or right of straight at the enemy's edge. */
  facingWords(facing) {
    const home = this.seat() === 1 ? 180 : 0;
    const rel = Math.round(norm(facing - home));
    if (rel === 0 || rel === 360) return "facing straight ahead";
    if (rel === 180) return "facing back to its own edge";
    return rel < 180 ? `turned ${rel}° left` : `turned ${360 - rel}° right`;
  }

  pathLength() {
    const p = this.plan;
    const u = p && this.unit(p.unit);
    if (!u || !u.tray) return "?";
    let at = u.tray.centre;
    let total = 0;
    for (const q of p.path) { total += Math.hypot(q[0] - at[0], q[1] - at[1]); at = q; }
    return inches(total);
  }

  actionTitle(a) {
    const t = typeof a.target === "number" ? this.unitName(a.target) : "";
    switch (a.type) {
      case "charge": return `Charge ${t}`;
      case "fight": return `Fight ${t}`;
      case "shoot": return `Shoot at ${t}`;
      case "cast": return `${humanise(a.spell)}${t ? ` at ${t}` : Array.isArray(a.at) ? ` at (${round2(a.at[0])}, ${round2(a.at[1])})` : ""}`;
      case "release": return `Release ${humanise(a.spirit)}`;
      case "reform": {
        const facing = typeof a.facing === "number" ? `, facing ${Math.round(a.facing)}°` : "";
        return `${humanise(ORDER_WORDS[a.order] || a.order)}, ${a.files} abreast${facing}`;
      }
      default: return humanise(a.type);
    }
  }

  renderPreview() {
    const p = this.pending;
    if (!p) {
      this.elPreview.hidden = true;
      this.elPreview.replaceChildren();
      return;
    }
    this.elPreview.hidden = false;
    const pv = this.previewOf(p.action);
    const title = h("h2", {}, this.actionTitle(p.action));
    if (!pv) {
      // No dice to weigh (a charge, a spell that rolls none): what the table says the order does.
      const answer = this.asked && this.asked.answer;
      const lines = answer ? (answer.lines || []) : null;
      const contact = p.action.type === "charge" ? this.contactOf(p.action) : null;
      fill(this.elPreview, title, contact ? this.chargeFacts(p.action, contact) : null,
        lines === null ? h("p", { class: "muted" }, "Asking the table…")
        : answer.legal === false ? h("p", { class: "cd-bad", testid: "cd-preview-refused" }, answer.reason || "Not possible now.")
          : lines.length ? h("ul", { class: "cd-lines", testid: "cd-preview-lines" }, lines.map((l) => h("li", {}, l)))
            : h("p", { class: "muted", testid: "cd-preview-lines" }, "No dice are rolled for this order."));
      return;
    }
    const dice = Object.entries(pv.dice || {}).sort((a, b) => POOL_ORDER.indexOf(a[0]) - POOL_ORDER.indexOf(b[0]));
    // The armour's parts that change it (a 0 says nothing); the target's own armour always.
    const parts = Object.entries(pv.parts || {}).filter(([k, v]) => v !== null && v !== undefined && (k === "armour" || Number(v) !== 0));
    const far = pv.kind !== "fight" && typeof pv.distance === "number" && pv.distance > 0;
    const hist = Object.entries(pv.casualties || {}).map(([k, v]) => [Number(k), Number(v)]).sort((a, b) => a[0] - b[0]);
    const top = Math.max(1e-9, ...hist.map(([, v]) => v));
    fill(this.elPreview, title,
      h("div", { class: "cd-pool", testid: "cd-preview-dice" }, dice.map(([c, n]) => diceCount(c, n, { testid: `cd-preview-die-${c}`, "data-count": n,
        "data-colour": c }))),
      h("p", { testid: "cd-preview-armour", "data-armour": pv.armour }, `Armour ${pv.armour}: each casualty costs ${Number(pv.armour) + 1} points`,
        far ? `, at ${inches(pv.distance)}` : ""),
      h("div", { class: "cd-parts" }, parts.map(([k, v]) => h("span", { class: "cd-part", testid: `cd-preview-part-${k}`, "data-value": v },
        `${k} ${Number(v) > 0 && k !== "armour" ? "+" : ""}${v}`))),
      h("p", { class: "big-text", testid: "cd-preview-morale", "data-p": pv.morale_break ?? "" }, `Morale breaks: ${pct(pv.morale_break ?? 0)}`),
      pv.destroyed ? h("p", { testid: "cd-preview-destroyed", "data-p": pv.destroyed }, `Destroyed: ${pct(pv.destroyed)}`) : null,
      h("p", { testid: "cd-preview-mean", "data-mean": pv.mean ?? "" }, `Expected casualties: ${round2(pv.mean ?? 0)}`),
      h("div", { class: "cd-hist", testid: "cd-preview-hist", role: "img", "aria-label": "Chance of each number of casualties" },
        hist.map(([k, v]) => h("div", { class: "cd-hist-col", testid: `cd-preview-bar-${k}`, "data-p": v,
          title: `${k} ${k === 1 ? "casualty" : "casualties"}: ${pct(v)}` },
          h("span", { class: "cd-hist-p" }, v >= 0.005 ? pct(v) : ""),
          h("span", { class: "cd-hist-bar", style: { height: `${Math.max(2, Math.round((v / top) * 100))}%` } }),
          h("span", { class: "cd-hist-k" }, String(k))))));
  }

  /** Where a charge ends and what it costs: the table adapter's `contact` (its preview's, else the selection's). */
  contactOf(action) {
    const answer = this.asked && this.asked.answer;
    if (answer && answer.contact) return answer.contact;
    const sel = this.shell.selection;
    const entry = sel && sel.unit === action.unit && Array.isArray(sel.targets)
      ? sel.targets.find((t) => t.kind === "charge" && t.target === action.target) : null;
    return (entry && entry.contact) || null;
  }

  /** A charge's distance against the allowance and the reaction the target may roll (CD-MS-16, CD-RE-02). */
  chargeFacts(action, c) {
    const target = this.unit(action.target);
    const n = Number(c.reaction_dice) || 0;
    const react = n > 0
      ? [`Reaction of ${this.unitName(action.target)}: `, c.reaction_colour ? diceCount(c.reaction_colour, n) : `${n} ${n === 1 ? "die" : "dice"}`,
        `${target && target.slowness !== undefined ? `, a total over slowness ${target.slowness} succeeds` : ""}`]
      : [`No reaction: the gap of ${inches(c.gap ?? 0)} is too short for a reaction die.`];
    return h("div", { class: "cd-charge-facts", testid: "cd-charge-facts", "data-distance": c.distance, "data-allowance": c.allowance,
      "data-reaction": n },
    h("p", { testid: "cd-charge-distance" }, `Distance ${inches(c.distance)} of an allowance of ${inches(c.allowance)} (start gap ${inches(c.gap ?? 0)}).`),
    h("p", { testid: "cd-charge-reaction" }, ...react));
  }

  renderRoll(obs) {
    // While hero points are asked about a roll, the panel shows that roll, not an older one.
    const q = this.question_();
    const asked = q && q.kind === "hero" ? this.heroResult(q, 0) : null;
    const r = asked ? { ...asked, purpose: "the roll in question", dice: q.dice, faces: q.faces } : obs.last_roll;
    if (!r || !(r.dice || []).length) { this.elRoll.hidden = true; this.elRoll.replaceChildren(); return; }
    this.elRoll.hidden = false;
    const shown = rollFaces(r);
    const sum = [r.points !== undefined ? `${r.points} points` : null, r.kills ? plural(r.kills, "kill") : null,
      r.armour !== undefined && r.armour !== null ? `armour ${r.armour}` : null,
        r.wounds !== undefined && r.wounds !== null ? plural(r.wounds, "wound") : null].filter(Boolean);
    const total = r.total !== undefined ? [`2d6 total ${r.total}`] : [];
    fill(this.elRoll, h("h3", { testid: "cd-last-title" }, asked ? "The roll in question" : `Last roll${r.purpose ? `: ${humanise(r.purpose)}` : ""}`),
      h("div", { class: "cd-pool cd-faces" }, r.dice.map((c, i) => {
        const f = shown[i];
        if (f === undefined) return null;
        return dieChip(c, faceText(f), { testid: `cd-last-die-${i}`, "data-face": String(f), class: ["cd-die", `cd-die-${c}`, `face-${f}`] });
      })),
      sum.length || total.length ? h("p", { testid: "cd-last-sum" }, [...total, ...sum].join(" · ")) : null);
  }

  renderRoster(obs) {
    const units = obs.units || [];
    fill(this.elRoster, [0, 1].map((seat) => {
      const mine = units.filter((u) => u.seat === seat);
      if (!mine.length) return null;
      return h("div", { class: "cd-roster-side", style: { "--side": this.sideColour(seat) } }, h("h3", {}, sentence(this.sideName(seat))),
        mine.map((u) => {
          const gone = !u.tray || u.destroyed || u.routed;
          const state = gone ? (u.routed ? "routed" : "destroyed") : `${u.models}/${u.start_models} · ${u.actions_left ?? 0} act.`;
          return h("button", { type: "button", class: ["cd-roster-row", gone && "dead",
            this.selected === u.id && "selected", this.pickable().has(u.id) && "pickable"],
            testid: `cd-roster-${u.id}`, "data-help": `unit:${this.armyOf(u)}.${u.key}`, onclick: () => this.tapUnit(u.id) },
          h("span", { class: "cd-roster-name" }, u.name),
          h("span", { class: "cd-roster-state" }, state),
          h("span", { class: "cd-roster-marks" },
            [ORDER_WORDS[u.order] || u.order, u.shaken && "shaken", (u.engaged || []).length && "engaged"].filter(Boolean).join(" · ")));
        }));
    }));
  }

  // ---------------------------------------------------------------- the questions the table asks

  questionWords(q) {
    // Neutral words (no verb to agree with a unit's name); the server's own sentence (`purpose`) where it has one.
    const who = typeof q.unit === "number" ? this.unitName(q.unit) : "your unit";
    const u = this.unit(q.unit) || {};
    switch (q.kind) {
      case "hero": {
        const r = this.heroResult(q, 0);
        const now = r ? ` — ${this.heroAbout(q)}: ${this.resultWords(r)}` : "";
        return `Hero points for ${who} (${q.left ?? u.hero_left ?? "?"} left)${now}. Each point adds or takes 1 from a number die.`;
      }
      case "bear_wound": {
        const die = [q.colour, "bear-wound die"].filter(Boolean).join(" ");
        return `Wounds coming through to ${who}: ${q.wounds ?? 0}. A ${die} may cancel some (${u.bear_left ?? "?"} left).`;
      }
      case "react": {
        const n = q.dice_count ?? (q.dice || []).length;
        const colour = (q.dice || [])[0] || "";
        const head = q.purpose ? sentence(q.purpose)
          : `Charge on ${who}${typeof q.charger === "number" ? ` by ${this.unitName(q.charger)}` : ""}`;
        const slow = u.slowness !== undefined ? ` over slowness ${u.slowness}` : " over the unit's slowness";
        return `${head}. Reaction roll: ${[n, colour].filter((x) => x !== "").join(" ")} ${n === 1 ? "die" : "dice"}, a total${slow} succeeds.`;
      }
      case "resist": {
        if (q.purpose) return `${sentence(q.purpose)}: resisting cancels the spell.`;
        return `Spell${q.spell ? ` ${humanise(q.spell)}` : ""} on ${who}: resisting costs ${q.cost ?? "its cost in"} will.`;
      }
      default: return q.purpose ? sentence(q.purpose) : humanise(q.kind);
    }
  }

  /** What a hero-points question's roll is: "the roll of Poison archers at Lemminkäinen (shot)", a morale test. */
  heroAbout(q) {
    if (typeof q.source === "number" && typeof q.target === "number") {
      const kind = { fight: "close combat", shot: "shot", spell: "spell", stand_and_shoot: "stand and shoot" }[q.attack] || humanise(q.attack || "attack");
      return `the roll of ${this.unitName(q.source)} at ${this.unitName(q.target)} (${kind})`;
    }
    if (typeof q.tested === "number") return `the morale test of ${this.unitName(q.tested)}${q.close_combat ? " in close combat" : ""}`;
    return "the roll";
  }

  /**
   * The result of a hero question's roll with `extra` hero points more: {points, kills, armour, wounds} of an
   * attack (wounds = floor(points / (armour + 1)) + kills, CD-FI-05), or {total} of a morale test's 2d6; null when
   * the question does not carry its roll.
   */
  heroResult(q, extra) {
    if (!Array.isArray(q.dice) || !Array.isArray(q.faces) || !q.faces.length) return null;
    const shown = rollFaces(q);
    const sum = shown.reduce((t, f) => t + facePoints(f), 0) + (Number(q.adjust) || 0) + extra;
    if (q.on === "morale" || typeof q.tested === "number") return { total: sum };
    const kills = shown.filter((f) => f === "kill").length;
    if (q.armour === undefined || q.armour === null) return { points: sum, kills };
    return { points: sum, kills, armour: Number(q.armour), wounds: Math.floor(Math.max(0, sum) / (Number(q.armour) + 1)) + kills };
  }

  /** A roll's result in words: "7 points against armour 1: 3 wounds", "2d6 total 7". */
  resultWords(r) {
    if (r.total !== undefined) return `2d6 total ${r.total}`;
    const kills = r.kills ? ` and ${plural(r.kills, "kill")}` : "";
    if (r.wounds === undefined) return `${plural(r.points, "point")}${kills}`;
    return `${plural(r.points, "point")}${kills} against armour ${r.armour}: ${plural(r.wounds, "wound")}`;
  }

  /** The dice of the roll a question is about, drawn as they fell. */
  questionDice(q) {
    const src = Array.isArray(q.dice) ? q : q.attack || q.roll || {};
    if (!Array.isArray(src.dice) || !(src.faces || src.labels || src.values || []).length) return null;
    const shown = rollFaces(src);
    return h("div", { class: "cd-pool cd-faces", testid: "cd-ask-dice" }, src.dice.map((c, i) => (shown[i] === undefined ? null
      : dieChip(c, faceText(shown[i]), { "data-face": String(shown[i]), testid: `cd-ask-die-${i}` }))));
  }

  openQuestion(q, version) {
    const offered = this.answers(q.kind);
    const send = (a) => { dlg.close(true); this.send(a); };
    let dlg;
    const words = h("p", {}, this.questionWords(q));
    if (q.kind === "hero") {
      const values = offered.map((a) => Number(a.points)).sort((x, y) => x - y);
      const lo = values.length ? values[0] : 0;
      const hi = values.length ? values[values.length - 1] : 0;
      this.heroPoints = values.includes(0) ? 0 : lo;
      const value = h("output", { class: "cd-hero-value big-text", testid: "cd-hero-value" }, "0");
      const go = h("button", { type: "button", class: "btn primary", testid: "cd-hero-send" }, "Keep them");
      const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0");
      // What each choice makes of the roll ("+1: 8 points → 4 wounds"), the one chosen marked.
      const outcome = (v) => {
        const r = this.heroResult(q, v);
        if (!r) return null;
        if (r.total !== undefined) return `2d6 total ${r.total}`;
        return `${plural(r.points, "point")}${r.wounds !== undefined ? ` → ${plural(r.wounds, "wound")}` : ""}`;
      };
      const now = this.heroResult(q, 0);
      const choices = now ? h("ul", { class: "cd-hero-choices", testid: "cd-hero-choices" }, values.map((v) => h("li", {
        testid: `cd-hero-choice-${v}`, "data-points": v, "data-wounds": (this.heroResult(q, v) || {}).wounds ?? "" },
      `${signed(v)}: ${outcome(v)}`))) : null;
      const show = () => {
        value.textContent = `${this.heroPoints > 0 ? "+" : ""}${this.heroPoints}`;
        value.dataset.points = String(this.heroPoints);
        if (choices) for (const li of choices.children) li.classList.toggle("chosen", Number(li.dataset.points) === this.heroPoints);
        go.textContent = this.heroPoints ? `Spend ${Math.abs(this.heroPoints)} (${this.heroPoints > 0 ? "+" : "-"}${Math.abs(this.heroPoints)})` : "Keep them";
        minus.disabled = !values.some((v) => v < this.heroPoints);
        plus.disabled = !values.some((v) => v > this.heroPoints);
      };
      const step = (d) => {
        const next = d > 0 ? values.find((v) => v > this.heroPoints) : [...values].reverse().find((v) => v < this.heroPoints);
        if (next !== undefined) this.heroPoints = next;
        show();
      };
      const minus = h("button", { type: "button", class: "btn secondary", testid: "cd-hero-minus", "aria-label": "One point less",
        onclick: () => step(-1) }, "−");
      const plus = h("button", { type: "button", class: "btn secondary", testid: "cd-hero-plus", "aria-label": "One point more", onclick: () => step(1) }, "+");
      go.addEventListener("click", () => {
        const a = offered.find((x) => Number(x.points) === this.heroPoints);
        if (a) send(a);
      });
      const current = now ? h("p", { class: "big-text", testid: "cd-hero-now" }, `Now: ${this.resultWords(now)}`) : null;
      dlg = modal({ title: "Hero points", testid: "cd-ask-hero", body: [words, this.questionDice(q), current,
        h("p", { class: "muted" }, `One counter for the whole roll, from ${signed(lo)} to ${signed(hi)}: each point adds or takes 1 from a number die.`),
        h("div", { class: "row cd-stepper" }, minus, value, plus), choices, go] });
      show();
    } else {
      const yes = { bear_wound: ["cd-bear-roll", "Roll a bear-wound die", "roll", true], react: ["cd-react-roll", "Roll for a reaction", "roll", true],
        resist: ["cd-resist-spend", "Spend will to resist", "spend", true] }[q.kind];
      const no = { bear_wound: ["cd-bear-pass", "Let them through", "roll", false], react: ["cd-react-no", "No reaction", "roll", false],
        resist: ["cd-resist-no", "Do not resist", "spend", false] }[q.kind];
      const titles = { bear_wound: "Bear wound", react: "Reaction", resist: "Resist the spell" };
      const ids = { bear_wound: "cd-ask-bear", react: "cd-ask-react", resist: "cd-ask-resist" };
      const button = ([testid, label, key, val], kind) => {
        const a = offered.find((x) => Boolean(x[key]) === val);
        return h("button", { type: "button", class: ["btn", kind], testid, disabled: !a, onclick: () => a && send(a) }, label);
      };
      dlg = modal({ title: titles[q.kind], testid: ids[q.kind],
        body: [words, this.questionDice(q),
        h("div", { class: "dialog-buttons" }, button(yes, "primary"), button(no, "secondary"))].filter(Boolean) });
    }
    this.question = { version, dlg };
    dlg.done.then(() => { if (this.question && this.question.dlg === dlg) this.question = null; });
  }

  // ---------------------------------------------------------------- physical dice: a pool's tally

  /**
   * The shell's die prompt, taken over for a pool (docs/screen-shell.md `askDice`): when the die awaited is one
   * of several still to roll, one dialog counts the rest of the pool by colour and face label; its faces then go
   * one by one, each as its die is asked for. True when this screen handled the die.
   */
  askDice(view, send) {
    const die = view.die;
    if (this.tally && this.tally.length) {
      const next = this.tally[0];
      if (this.tallyVersion === view.version) return true;
      if (String(die.colour || "") === next.colour) {
        this.tally.shift();
        this.tallyVersion = view.version;
        send(next.face);
        return true;
      }
      this.tally = null; // the table asks for another die than the tally's: back to asking
    }
    if (this.diceDlg) {
      if (this.diceDlg.version === view.version) return true;
      this.diceDlg.dlg.close(null);
      this.diceDlg = null;
    }
    const pool = this.poolRest(view);
    if (!pool || pool.rest.length < 2 || this.singlePool === pool.key) return false;
    this.openTally(view, pool, send);
    return true;
  }

  /** The dice of the pool still to roll (the awaited die first) and the pool's key, or null. */
  poolRest(view) {
    const a = awaiting(view.observation || {});
    if (!a || a.kind !== "roll" || !Array.isArray(a.dice)) return null;
    const rest = a.dice.slice((a.faces || []).length).map(String);
    if (!rest.length || rest[0] !== String(view.die.colour || "") || !rest.every((c) => this.labelsOf(c, view.die))) return null;
    // The pool's key leaves out the purpose (it names the die being rolled, "die 3 of 10").
    const purpose = String(a.purpose || view.die.purpose || "").replace(/:\s*die \d+ of \d+.*$/, "");
    return { rest, purpose, key: JSON.stringify([a.attack, a.dice, a.source, a.target, a.unit]) };
  }

  /** A die's six face labels: the awaited die's own (`view.die.faces`), else the one dice table (FACES). */
  labelsOf(colour, die) {
    if (die && String(die.colour) === colour && Array.isArray(die.faces) && die.faces.length === 6) return die.faces.map(String);
    return FACES[colour] ? FACES[colour].map(String) : null;
  }

  openTally(view, pool, send) {
    const groups = [];
    for (const c of pool.rest) {
      const g = groups.find((x) => x.colour === c);
      if (g) g.n += 1; else groups.push({ colour: c, n: 1 });
    }
    for (const g of groups) {
      const labels = this.labelsOf(g.colour, view.die);
      const distinct = [...new Set(labels)];
      // "The rest" is the miss face when the die has one, else its commonest face: counting it would be the
      // most taps.
      const often = (l) => labels.filter((x) => x === l).length;
      g.labels = labels;
      g.rest = distinct.includes("miss") ? "miss" : distinct.reduce((a, b) => (often(b) > often(a) ? b : a));
      g.counted = distinct.filter((l) => l !== g.rest).sort((a, b) => (a === "kill") - (b === "kill") || Number(b) - Number(a));
      g.inputs = g.counted.map((l) => h("input", { type: "number", min: 0, max: g.n, value: 0, inputmode: "numeric", class: "cd-tally-input",
        testid: `cd-tally-${g.colour}-${l}`, "aria-label": `How many ${g.colour} dice show ${l}` }));
      g.restOut = h("output", { class: "cd-tally-rest", testid: `cd-tally-${g.colour}-rest` }, String(g.n));
    }
    const error = h("p", { class: "cd-bad", testid: "cd-tally-error", role: "alert" });
    const go = h("button", { type: "button", class: "btn primary", testid: "cd-tally-send" }, "Enter the roll");
    const check = () => {
      let ok = true;
      const bad = [];
      for (const g of groups) {
        const counts = g.inputs.map((i) => Number(i.value));
        const sum = counts.reduce((t, v) => t + v, 0);
        const valid = counts.every((v) => Number.isInteger(v) && v >= 0) && sum <= g.n;
        g.inputs.forEach((i) => i.classList.toggle("invalid", !valid));
        g.restOut.textContent = valid ? String(g.n - sum) : "?";
        if (!valid) { ok = false; bad.push(`${g.n} ${g.colour}`); }
      }
      error.textContent = ok ? "" : `More faces counted than dice rolled (${bad.join(", ")}).`;
      go.disabled = !ok;
      return ok;
    };
    const rows = groups.map((g) => h("fieldset", { class: "cd-tally-group", testid: `cd-tally-${g.colour}` },
      h("legend", {}, diceCount(g.colour, g.n)),
      g.counted.map((l, i) => h("label", { class: "cd-tally-row" }, dieChip(g.colour, faceText(faceOf(g.colour, l))), ` ${l}: `, g.inputs[i])),
      h("p", { class: "cd-tally-row muted" }, dieChip(g.colour, faceText(faceOf(g.colour, g.rest))), ` ${g.rest}: the rest, `, g.restOut)));
    for (const g of groups) for (const i of g.inputs) i.addEventListener("input", check);
    const single = h("button", { type: "button", class: "btn secondary", testid: "cd-tally-single" }, "One die at a time");
    const dlg = modal({ title: "Roll the dice", testid: "cd-tally-dialog", body: [
      h("p", { class: "big-text" }, `Roll ${pool.rest.length} dice${pool.purpose ? ` for ${pool.purpose.replace(/_/g, " ")}` : ""}`),
      h("p", { class: "muted" }, "Count the faces of each colour; the dice not counted show the rest."),
      ...rows, error, h("div", { class: "dialog-buttons" }, go, single)] });
    go.addEventListener("click", () => {
      if (!check()) return;
      // Each colour's dice take the counted labels in order, the rest after; a label is sent as the first face
      // with it (face n is labels[n - 1]), in pool order.
      const queue = new Map(groups.map((g) => [g.colour, [...g.counted.flatMap((l, i) => Array(Number(g.inputs[i].value)).fill(l)),
        ...Array(g.n - g.inputs.reduce((t, x) => t + Number(x.value), 0)).fill(g.rest)]]));
      const faces = pool.rest.map((c) => {
        const g = groups.find((x) => x.colour === c);
        return { colour: c, face: g.labels.indexOf(queue.get(c).shift()) + 1 };
      });
      this.diceDlg = null;
      dlg.close(true);
      const first = faces.shift();
      this.tally = faces;
      this.tallyVersion = view.version;
      send(first.face);
    });
    single.addEventListener("click", () => {
      this.singlePool = pool.key;
      dlg.close(null);
      this.diceDlg = { version: view.version, dlg: askDie(view.die, send) };
    });
    this.diceDlg = { version: view.version, dlg };
    check();
  }

  // ---------------------------------------------------------------- acting

  send(action) {
    this.pending = null;
    this.plan = null;
    this.asked = null;
    return this.shell.send(action);
  }

  defaultMode(id) {
    const types = this.orderTypes(id);
    for (const t of ["fight", "move", "shoot", "charge"]) if (types.includes(t)) return t;
    return types[0] || null;
  }

  chooseOrder(type) {
    this.mode = type;
    this.pending = null;
    this.asked = null;
    if (type !== "move") { this.plan = null; this.check = null; }
    this.shell.render();
    // On a zoomed board (a phone) an aimed order shows the unit with its targets, not the unit alone.
    const u = this.selected !== null ? this.unit(this.selected) : null;
    if (u && u.tray && TARGETED.has(type)) {
      const targets = [...this.targetIds()].map((id) => this.unit(id)).filter((x) => x && x.tray).map((x) => x.tray.centre);
      this.reveal([u.tray.centre, ...targets]);
    }
  }

  tapUnit(id, at = null) {
    const u = this.unit(id);
    if (!u) return;
    if (at && this.myTurn() && id === this.selected && this.mode === "move" && u.seat === this.seat()) {
      // The picked unit moving a short way: a tap on its own tray is a destination too.
      this.tapPoint(at);
      return;
    }
    if (this.myTurn() && this.selected !== null && this.targetIds().has(id)) {
      const list = this.unitActions(this.selected, this.mode).filter((a) => a.target === id && (a.type !== "cast" || a.spell === this.spell));
      if (list.length) { this.aim(list[0]); return; }
    }
    if (this.myTurn() && this.mode === "move" && this.plan && u.id !== this.plan.unit) {
      // A tap on a tray while a move is planned aims the plan's facing at it.
      this.plan.facing = facingOf(this.plan.path[this.plan.path.length - 1], u.tray.centre);
      this.planChanged();
      return;
    }
    this.plan = null;
    this.pending = null;
    this.check = null;
    if (this.selected !== id) {
      this.mode = null; // its default order once its selection (its moves) has come
      this.shell.select(id);
      if (u.tray) this.reveal([u.tray.centre]); // picked from the roster: shown on the board
    } else {
      if (!this.mode && u.seat === this.seat() && this.myTurn()) this.mode = this.defaultMode(id);
      this.shell.render();
    }
  }

  /** On a board drawn larger than its frame (a phone), bring these points (inches) to the middle of the frame. */
  reveal(points) {
    const host = this.board.host;
    if (!host.classList.contains("zoomed") || !points.length) return;
    requestAnimationFrame(() => {
      const at = points.map((p) => this.board.clientPoint(p)).filter(Boolean);
      if (!at.length) return;
      const r = host.getBoundingClientRect();
      const x = at.reduce((t, p) => t + p[0], 0) / at.length;
      const y = at.reduce((t, p) => t + p[1], 0) / at.length;
      host.scrollBy({ left: x - (r.left + r.width / 2), top: y - (r.top + r.height / 2) });
    });
  }

  /** A charge, fight, shot or spell: shown with its odds, sent by Confirm. */
  aim(action) {
    this.pending = { action };
    this.plan = null;
    this.asked = null;
    if (!this.previewOf(action)) {
      this.asked = { key: JSON.stringify(action), answer: null };
      this.shell.preview(action);
    }
    this.shell.render();
    const ends = [this.unit(action.unit), this.unit(action.target)].filter((x) => x && x.tray).map((x) => x.tray.centre);
    this.reveal(ends);
    requestAnimationFrame(() => { if (!this.elPreview.hidden) this.elPreview.scrollIntoView({ block: "nearest" }); });
  }

  tapPoint(p) {
    if (!this.myTurn() || this.pending) return;
    const u = this.selected !== null ? this.unit(this.selected) : null;
    if (!u || u.seat !== this.seat() || !u.tray) { toast("Tap one of your lit units first."); return; }
    if (this.selectionIn(u.id) && !this.unitActions(u.id, "move").length) { toast(`${this.unitName(u.id)} cannot move now.`); return; }
    if (this.mode !== "move") this.mode = "move";
    const at = [round2(p[0]), round2(p[1])];
    const mine = this.plan && this.plan.unit === u.id && this.plan.path.length ? this.plan : null;
    const last = mine ? mine.path[mine.path.length - 1] : u.tray.centre;
    if (Math.hypot(at[0] - last[0], at[1] - last[1]) < MIN_LEG) return;
    if (!mine) this.plan = { unit: u.id, path: [], facing: Number(u.tray.facing) };
    const snap = this.plan.path.length ? null : this.snapMove(at, u.id);
    if (snap) {
      // The place snaps to the offered end; the facing stays the tapped leg's (the player's, not the offer's).
      this.plan.path = snap.path.map((q) => [q[0], q[1]]);
      this.plan.facing = facingOf(last, this.plan.path[this.plan.path.length - 1]);
    } else {
      this.plan.path.push(at);
      this.plan.facing = facingOf(last, at);
    }
    this.planChanged();
  }

  dropUnit(id, p) {
    const u = this.unit(id);
    if (!this.myTurn() || !u || !u.tray || !this.shell.movable().has(id)) return;
    if (this.selected !== id) this.shell.select(id, { render: false });
    this.mode = "move";
    const at = [round2(p[0]), round2(p[1])];
    this.plan = { unit: id, path: [at], facing: facingOf(u.tray.centre, at) };
    this.planChanged();
  }

  turnGhost(key, facing) {
    if (key !== "plan" || !this.plan) return;
    this.plan.facing = norm(facing - 90);
    this.planChanged();
  }

  faceEnemy() {
    const p = this.plan;
    if (!p) return;
    const end = p.path[p.path.length - 1];
    const enemies = this.units().filter((x) => x.seat !== this.seat());
    if (!enemies.length) return;
    const near = enemies.reduce((a, b) => (Math.hypot(a.tray.centre[0] - end[0], a.tray.centre[1] - end[1])
      <= Math.hypot(b.tray.centre[0] - end[0], b.tray.centre[1] - end[1]) ? a : b));
    p.facing = facingOf(end, near.tray.centre);
    this.planChanged();
  }

  snapMove(p, unit) {
    let best = null;
    for (const a of this.unitActions(unit, "move")) {
      const end = Array.isArray(a.path) && a.path.length ? a.path[a.path.length - 1] : null;
      if (!end) continue;
      const d = Math.hypot(end[0] - p[0], end[1] - p[1]);
      if (d <= SNAP_INCHES && (!best || d < best.d)) best = { d, path: a.path, facing: a.facing };
    }
    return best;
  }

  moveAction() {
    const p = this.plan;
    return { type: "move", unit: p.unit, path: p.path.map((q) => [q[0], q[1]]), facing: round2(p.facing) };
  }

  planChanged() {
    this.check = null;
    if (this.plan && this.plan.path.length) {
      const a = this.moveAction();
      this.checkKey = JSON.stringify(a);
      this.shell.preview(a);
    }
    this.shell.render();
  }

  sendPlan() {
    if (!this.plan || !this.plan.path.length) return;
    this.send(this.moveAction());
  }
}
