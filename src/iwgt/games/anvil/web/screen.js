// The Forged upon an Anvil screen inside the shell (docs/screen-shell.md): the table in inches (the shared
// inchboard.js, its units on trays with a front and miniatures as cells), and every step of the game as the
// server offers it: the army builder (running DCP and each availability limit, the table's refusal with the
// rule it breaks, or the scenario's army), the sealed bids (terrain 0..5, each turn 0..limit: on a shared
// touchscreen the shell covers the screen between seats, and a bid typed here is forgotten once sent), the
// terrain placement (palette piece, centre, rotation, designations), the Seats of Power, the activation (tap a
// unit, its reach lit, tap or drag where it goes, then its facing; the stratagems with their cost; the engage,
// shot and spell targets with the exact outcome from the table's preview and Confirm), the interruption prompts
// in the opponent's activation, bounce backs drawn as arrows, CP left for each side in the header, and the
// "don't premeasure" option (no rings, no reach, no distances).
//
// Every rule is the server's: a tapped point is sent as it is and a refusal comes back with its reason; the
// builder's figures (DCP, shares) only help the player read the list, the table judges it. Facings: the game
// counts degrees from +y counter-clockwise (0 faces seat 1's edge); the inch board from +x, so the board's
// facing is the game's + 90.

import { h, fill } from "/static/dom.js";
import { InchBoard } from "/static/inchboard.js";
import { gameCatalogue, humanise } from "/static/api.js";
import { toast, choose, confirmDialog } from "/static/ui.js";

const PHASES = {
  muster: "Muster", terrain_bid: "Terrain bid", terrain: "Field of battle", seats: "Seats of Power", bid: "Turn bid",
  activation: "Activation", interrupt: "Interruption", over: "Game over",
};
const TYPE_ORDER = ["hero", "wizard", "monster", "knight", "war_machine", "troop"];
const TYPE_LETTER = { hero: "H", wizard: "Wz", monster: "M", knight: "K", war_machine: "WM", troop: "T", seat: "S" };
const TYPE_NAME = { hero: "Hero", wizard: "Wizard", monster: "Monster", knight: "Knight", war_machine: "War Machine", troop: "Troop",
  seat: "Seat of Power" };
const SIDE_COLOURS = ["#2563eb", "#b91c1c"];
const DESIGNATIONS = ["halves", "blocks", "impassable"];
const DESIGNATION_WORDS = { halves: "Halves movement", blocks: "Blocks line of sight", impassable: "Impassable" };
const TERRAIN_BID_MAX = 5; // FA-FB-01: each player has 5 CP to bid for the field of battle (the table checks it)
const TURN_STEP_DEGREES = 45; // the facing buttons turn a planned tray this much
const FINE_STEP_DEGREES = 15;
const MIN_LEG = 0.05; // inches: a tap this close to the last waypoint adds no leg
const SNAP_INCHES = 0.4; // a tap this close to a move end the table offers goes exactly there

const capital = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const round2 = (v) => Math.round(Number(v) * 100) / 100;
const inches = (v) => `${round2(v)}"`;
const norm = (deg) => ((Math.round(Number(deg) * 100) / 100) % 360 + 360) % 360;
/** The facing (game degrees: 0 = +y, counter-clockwise) of a line from a to b. */
const facingOf = (a, b) => norm((Math.atan2(-(b[0] - a[0]), b[1] - a[1]) * 180) / Math.PI);

export class Screen {
  /** Bids and army lists are sealed: a shared screen covers itself between seats (the shell's pass screen). */
  static secrets = true;
  static testids = { prompt: "fa-prompt", refusal: "fa-refusal" };
  static sounds = { actions: { engage: "charge", deploy: "move", place_feature: "move", place_seat: "move", bid: null, terrain_bid: null } };

  constructor(shell) {
    this.shell = shell;
    this.cat = null; // the game's catalogue (unit types, stratagems), for names and costs
    this.reset();
    this.army = null; // {seat, units: [{type, name, general, stratagems}]} being built
    this.armyCheck = null; // the table's preview of the army being built
    this.bidDraft = null; // {seat, version, amount}: a sealed bid being chosen (forgotten once sent or on another seat)
    this.asked = []; // previews asked and not yet answered, oldest first
    this.queuedNext = null; // {unit, action}: a move to send once the activation it needs has begun
    this.terrainDraft = { piece: null, rotation: 0, halves: true, blocks: false, impassable: false, centre: null };
    shell.addStylesheet(new URL("./anvil.css", import.meta.url).href);
    gameCatalogue("anvil").then((c) => { this.cat = c; this.shell.render(); }).catch(() => { /* names fall back to the types */ });
  }

  /** What a new view makes stale: the plan, the outcome asked for, the deploy mode. */
  reset() {
    this.plan = null; // {unit, path: [[x, y]], facing}: a move being planned
    this.facingMode = false; // the next tap on the table sets the planned facing
    this.pending = null; // {action, title, verb}: an engage, shot or spell whose outcome is asked for or shown
    this.outcome = null; // its preview
    this.check = null; // the preview of the planned move, terrain piece or seat
    this.deployEdge = null; // the edge chosen for a deploy ("own", "left", "right", "infiltrate")
    this.seatAt = null; // the planned Seat of Power
    this.infiltrating = null; // {unit, at, facing}: an Infiltrate deploy being placed
  }

  mount(slots) {
    this.elCP = h("div", { class: "fa-cp", testid: "fa-cp" });
    this.elPanel = h("section", { class: "fa-panel", testid: "fa-panel" });
    this.elOutcome = h("section", { class: "fa-outcome", testid: "fa-outcome", hidden: true, "aria-live": "polite" });
    this.elDock = h("div", { class: "fa-dock", testid: "fa-dock" });
    this.elRoster = h("div", { class: "fa-roster", testid: "fa-roster" });
    this.elEnd = h("button", { type: "button", class: "btn primary", testid: "fa-end", hidden: true,
      onclick: () => this.send({ type: "end_activation" }) }, "End activation");
    this.elPass = h("button", { type: "button", class: "btn secondary", testid: "fa-pass", hidden: true,
      onclick: () => this.pass() }, "Pass");
    this.board = new InchBoard(slots.board, {
      onPiece: (id) => this.tapUnit(id),
      onPoint: (p) => this.tapPoint(p),
      onDrop: (id, p) => this.dropUnit(id, p),
      onTurn: (key, facing) => this.turnGhost(key, facing),
    }, { prefix: "fa-" });
    return {
      className: "fa-screen",
      header: [this.elCP],
      side: [slots.prompt, this.elPanel, this.elOutcome, this.elDock, h("h2", { class: "side-title" }, "Units"), this.elRoster],
      actions: [this.elEnd, this.elPass],
    };
  }

  // ---------------------------------------------------------------- reading the view

  get view() { return this.shell.view; }
  get selected() { return this.shell.selected; }
  get selection() { return this.shell.selection && this.shell.selection.unit === this.shell.selected ? this.shell.selection : null; }
  obs() { return this.shell.obs(); }
  actions() { return this.shell.actions(); }
  myTurn() { return this.shell.myTurn(); }
  seat() { return this.view ? this.view.seat : null; }
  phaseName() { return this.obs().phase || ""; }
  premeasure() {
    const o = this.obs();
    const opts = o.options || {};
    return opts.premeasure !== false && o.premeasure !== false;
  }

  units() { return this.obs().units || []; }
  unit(id) { return this.units().find((u) => u.id === id) || null; }
  unitName(id) { const u = this.unit(id); return u ? u.name || TYPE_NAME[u.type] || u.type : `unit ${id}`; }
  /** A unit's tray on the table as `{centre, facing}`, or null (not deployed, destroyed). */
  trayOf(u) {
    if (!u || u.destroyed) return null;
    const t = u.tray;
    if (t && Array.isArray(t.centre)) return { centre: t.centre, facing: Number(t.facing) || 0 };
    if (Array.isArray(u.centre)) return { centre: u.centre, facing: Number(u.facing) || 0 };
    return null;
  }
  traySize() {
    const o = this.obs();
    const t = (o.table && o.table.tray) || o.tray;
    if (Array.isArray(t)) return [Number(t[0]) || 3, Number(t[1]) || 1.5];
    if (t && typeof t === "object") return [Number(t.frontage ?? t.width) || 3, Number(t.depth) || 1.5];
    return [3, 1.5];
  }
  figures() { const o = this.obs(); return Number((o.table && o.table.figures) || o.figures) || 3; }
  sideName(seat) {
    const s = (this.obs().sides || [])[seat];
    return (s && s.name) || this.shell.seatName(seat);
  }
  sideColour(seat) {
    const s = (this.obs().sides || [])[seat];
    return (s && s.colour) || SIDE_COLOURS[seat] || "#888888";
  }
  /** A per-seat value of the observation: `sides[seat][key]`. */
  perSeat(key, seat) {
    const p = (this.obs().sides || [])[seat];
    return p ? p[key] : undefined;
  }
  activation() { return this.obs().activation || null; }
  activeUnit() { const a = this.activation(); return a ? a.unit : null; }
  actionsOf(type) { return this.actions().filter((a) => a.type === type); }
  has(type) { return this.actions().some((a) => a.type === type); }

  // catalogue facts (names and costs); the table judges every rule
  typeFacts(type) {
    const c = this.cat || {};
    const list = Array.isArray(c.units) ? c.units : Object.entries(c.units || {}).map(([k, v]) => ({ key: k, ...v }));
    const f = list.find((x) => (x.key || x.type || x.id) === type) || {};
    const avail = f.availability && typeof f.availability === "object" ? f.availability : {};
    return { name: f.name || TYPE_NAME[type] || humanise(type), dcp: Number(f.dcp) || 0, op: f.op ?? avail.op,
      percent: f.percent ?? avail.percent, move: f.move, hp: f.hp, plural: f.plural, stratagems: f.stratagems || null };
  }
  stratFacts(key) {
    const c = this.cat || {};
    const list = Array.isArray(c.stratagems) ? c.stratagems : Object.entries(c.stratagems || {}).map(([k, v]) => ({ key: k, ...v }));
    // The action's key, else the catalogue's longer or shorter name of it (parthian / parthian_shot, fly_burrow / fly).
    const id = (x) => String(x.key || x.id);
    const f = list.find((x) => id(x) === key) || list.find((x) => id(x).startsWith(`${key}_`))
      || list.find((x) => String(key).startsWith(`${id(x)}_`)) || {};
    return { name: f.name || humanise(key), cost: f.cost, currency: f.currency || "CP", group: f.group || "", users: f.users || [],
      text: f.text || f.effect || "" };
  }
  /** The catalogue's key of a stratagem an action names (its help topic). */
  stratKey(key) {
    const c = this.cat || {};
    const keys = Array.isArray(c.stratagems) ? c.stratagems.map((s) => s.key || s.id) : Object.keys(c.stratagems || {});
    return keys.find((k) => k === key) || keys.find((k) => k.startsWith(`${key}_`)) || keys.find((k) => String(key).startsWith(`${k}_`)) || key;
  }

  costText(key) {
    const f = this.stratFacts(key);
    return f.cost === undefined || f.cost === null ? "" : `${f.cost} ${f.currency}`;
  }

  // ---------------------------------------------------------------- hooks the shell calls

  onView(view, { fresh, previous }) {
    if (!fresh) return;
    const seatChanged = !previous || previous.seat !== view.seat;
    this.reset();
    // A sealed bid or an army list typed for one seat is never shown to another.
    if (this.bidDraft && this.bidDraft.seat !== view.seat) this.bidDraft = null;
    if (this.army && this.army.seat !== view.seat) { this.army = null; this.armyCheck = null; }
    if (seatChanged) this.terrainDraft.centre = null;
    const obs = view.observation || {};
    if (obs.phase !== "terrain") this.terrainDraft.centre = null;
    // Keep the active unit picked (its reach and targets come with the selection).
    const active = obs.activation ? obs.activation.unit : null;
    let id = null;
    if (this.myTurn() && active !== null && active !== undefined) id = active;
    else if (this.selected !== null && this.unit(this.selected) && this.trayOf(this.unit(this.selected))) id = this.selected;
    if (obs.phase !== "activation") id = null;
    this.shell.select(id, { render: false });
    if (this.queuedNext && this.myTurn()) {
      const next = this.queuedNext;
      this.queuedNext = null;
      if (next.unit === active) this.shell.send(next.action);
    } else this.queuedNext = null;
  }

  /** Ask the table about an action; the answers come back in the order asked (`kind` says whose it is). */
  askPreview(kind, action) {
    this.asked.push({ kind, key: JSON.stringify(action) });
    this.shell.preview(action);
  }

  onPreview(msg) {
    const q = this.asked.shift();
    if (!q) return;
    if (q.kind === "outcome") {
      if (!this.pending || JSON.stringify(this.pending.action) !== q.key) return; // cancelled since
      if (!msg.legal) {
        toast(msg.reason || "That is not possible now.", "error");
        this.pending = null;
        this.outcome = null;
      } else this.outcome = msg;
    } else if (q.kind === "army") {
      if (this.army && JSON.stringify(this.armyJSON()) === q.key) this.armyCheck = msg;
    } else if (q.kind === this.checkKey) this.check = msg;
  }

  phase(view) {
    const o = view.observation || {};
    const turn = o.turn ? `Turn ${o.turn}${o.turns ? ` of ${o.turns}` : ""} · ` : "";
    return `${turn}${PHASES[o.phase] || humanise(o.phase || "")}`;
  }

  waiting() { return "The table is working…"; }

  render(view) {
    const obs = view.observation || {};
    // At muster the table is still empty: in portrait the side panel (the army builder) gets most of the height.
    if (this.shell.elScreen) this.shell.elScreen.classList.toggle("fa-muster", obs.phase === "muster" && this.myTurn());
    this.board.setTable(this.tableScene(obs));
    this.board.host.classList.toggle("fa-blind", !this.premeasure());
    const sel = this.selection;
    const blind = !this.premeasure();
    this.board.render({
      lights: this.shell.lights(),
      trays: this.trays(obs),
      pickable: this.pickable(),
      selected: this.selected,
      rings: sel && !blind ? (sel.rings || []).map((r) => ({ kind: r.kind, at: r.at, radius: r.radius, label: r.label || null,
        testid: `fa-ring-${r.kind}` })) : [],
      reach: this.reachOutline(sel, blind),
      points: this.points(obs, sel),
      arrows: this.arrows(obs),
      ghosts: this.ghosts(obs),
    });
    this.renderCP(obs);
    this.renderPanel(view);
    this.renderOutcome();
    this.renderDock(view);
    this.renderRoster(obs);
    const mine = this.myTurn();
    this.elEnd.hidden = !(mine && this.has("end_activation"));
    this.elPass.hidden = !(mine && this.has("pass"));
  }

  reachOutline(sel, blind) {
    if (this.phaseName() === "terrain" && this.terrainDraft.centre) return this.pieceOutline();
    if (blind || !sel) return null;
    return Array.isArray(sel.reach) && sel.reach.length > 2 && typeof sel.reach[0][0] === "number" ? sel.reach : null;
  }

  /** The table and its terrain features as the inch board draws them. */
  tableScene(obs) {
    const t = obs.table || {};
    const feats = obs.features || [];
    return {
      width: Number(t.width) || 36,
      height: Number(t.height) || 36,
      areas: feats.map((f, i) => {
        const des = DESIGNATIONS.filter((d) => f[d] || (f.feature && f.feature[d]));
        const outline = f.outline || (f.feature && f.feature.outline) || [];
        const name = f.name || this.pieceName(f.piece);
        return { outline, kind: `fa-${des.join("-") || "plain"}`, testid: `fa-feature-${i}`, name,
          title: `${name}: ${des.map((d) => DESIGNATION_WORDS[d].toLowerCase()).join(", ") || "no effect"}` };
      }),
      zones: (obs.zones || []).map((z, i) => ({ outline: z.outline, colour: this.sideColour(z.seat), testid: `fa-zone-${i}`,
        title: z.title || "", label: z.label || "" })),
    };
  }

  pieceName(key) {
    const p = this.palette().find((x) => (x.key || x.name) === key);
    return (p && (p.title || p.label || p.name)) || humanise(key || "feature");
  }

  palette() {
    const o = this.obs();
    return o.palette || o.terrain || (o.scenario && o.scenario.terrain) || [];
  }

  trays(obs) {
    const [w, d] = this.traySize();
    const active = this.activeUnit();
    const out = [];
    for (const u of obs.units || []) {
      const t = this.trayOf(u);
      if (!t) continue;
      const marks = [u.general && "General", u.braced && "braced", u.transfixed && "transfixed", u.skirmishing && "skirmishing"].filter(Boolean);
      out.push({
        id: u.id, at: t.centre, width: w, depth: d, facing: t.facing + 90, colour: this.sideColour(u.seat),
        cells: u.type === "seat" ? 0 : this.figures(), letter: TYPE_LETTER[u.type] || "?", badge: { text: u.hp, cls: "fa-hp" },
        name: u.name || TYPE_NAME[u.type], title: `${TYPE_NAME[u.type] || u.type}, ${u.hp} HP${marks.length ? `, ${marks.join(", ")}` : ""}`,
        classes: [`side-${u.seat}`, `type-${u.type}`, u.general && "general", active === u.id && "active", u.braced && "braced",
          u.transfixed && "transfixed", u.skirmishing && "skirmishing", this.isTarget(u.id) && "target"],
        data: { unit: u.id, type: u.type, hp: u.hp },
        testid: `fa-unit-${u.id}`,
      });
    }
    return out;
  }

  /** Units this screen may pick to act with now: the server's movable ones, else those an action names. */
  pickable() {
    if (!this.myTurn() || this.phaseName() !== "activation") return new Set();
    const set = this.shell.movable();
    for (const a of this.actions()) {
      if ((a.type === "activate" || a.type === "move") && typeof a.unit === "number") set.add(a.unit);
    }
    const active = this.activeUnit();
    if (active !== null && active !== undefined) set.add(active);
    return set;
  }

  targetsOf(id) {
    const sel = this.selection;
    return sel ? (sel.targets || []).filter((t) => t.target === id) : [];
  }

  isTarget(id) {
    return this.myTurn() && this.targetsOf(id).length > 0;
  }

  points(obs, sel) {
    const out = [];
    if (this.plan) for (const p of this.plan.path) out.push({ at: p, kind: "waypoint" });
    if (this.phaseName() === "terrain" && this.terrainDraft.centre) out.push({ at: this.terrainDraft.centre, kind: "feature" });
    // A unit to deploy: the places along the edges the table offers (any other point may be tapped too).
    const u = this.selected !== null ? this.unit(this.selected) : null;
    if (sel && u && !this.trayOf(u) && this.myTurn() && (this.activeUnit() === null || this.activeUnit() === undefined)) {
      (sel.deploy || []).filter((d) => Array.isArray(d.at) && (d.edge || "own") === (this.deployEdge || "own"))
        .forEach((d, i) => out.push({ at: d.at, kind: `deploy-${i}` }));
    }
    return out;
  }

  /** A tap this close to a move end the table offers goes exactly there, with its facing. */
  snapMove(p, unit) {
    const sel = this.selection;
    let best = null;
    for (const m of (sel && sel.unit === unit && sel.moves) || []) {
      if (!Array.isArray(m.to)) continue;
      const d = Math.hypot(m.to[0] - p[0], m.to[1] - p[1]);
      if (d <= SNAP_INCHES && (!best || d < best.d)) best = { d, to: m.to, facing: m.facing };
    }
    return best;
  }

  arrows(obs) {
    const out = [];
    // The planned move: from the unit through its waypoints.
    if (this.plan && this.plan.path.length) {
      const u = this.unit(this.plan.unit);
      const t = this.trayOf(u);
      const from = t ? t.centre : this.plan.path[0];
      const path = t ? this.plan.path : this.plan.path.slice(1);
      if (path.length) out.push({ from, via: path.slice(0, -1), to: path[path.length - 1], kind: "plan", testid: "fa-plan-arrow" });
    }
    // Bounce backs of the last step, and of the outcome shown: where from, where to.
    let i = 0;
    for (const e of (this.view && this.view.events) || []) {
      const b = this.bounceOf(e);
      if (b) out.push({ ...b, kind: "bounce", testid: `fa-bounce-${i++}` });
    }
    for (const b of this.outcomeBounces()) out.push({ ...b, kind: "bounce", testid: `fa-bounce-preview-${i++}` });
    return out;
  }

  /** A bounce back in an event or an outcome: `{from, to, label}` (its points in inches), or null. */
  bounceOf(e) {
    if (!e || typeof e !== "object") return null;
    const kind = String(e.type || e.kind || e.event || "").toLowerCase();
    if (!kind.includes("bounce")) return null;
    const from = e.from || e.start || (e.from_tray && e.from_tray.centre);
    const to = e.to || e.end || e.landing || (e.to_tray && e.to_tray.centre);
    if (!Array.isArray(from) || !Array.isArray(to)) return null;
    return { from, to, label: `${this.unitName(e.unit)} bounces back` };
  }

  outcomeBounces() {
    const o = this.outcomeData();
    if (!o || !this.premeasure()) return [];
    return (o.bounces || []).filter((b) => Array.isArray(b.from) && Array.isArray(b.to))
      .map((b) => ({ from: b.from, to: b.to, unit: b.unit, label: `${this.unitName(b.unit)} ${b.push ? "is pushed" : "bounces back"}` }));
  }

  ghosts() {
    const [w, d] = this.traySize();
    const out = [];
    if (this.plan && this.plan.path.length) {
      const end = this.plan.path[this.plan.path.length - 1];
      out.push({ at: end, width: w, depth: d, facing: this.plan.facing + 90, kind: "plan", testid: "fa-ghost-plan", turn: "plan" });
    }
    if (this.infiltrating && this.deployEdge === "infiltrate") {
      out.push({ at: this.infiltrating.at, width: w, depth: d, facing: this.infiltrating.facing + 90, kind: "plan", testid: "fa-ghost-infiltrate",
        turn: "infiltrate" });
    }
    if (this.phaseName() === "seats" && this.seatAt) {
      out.push({ at: this.seatAt, width: w, depth: d, facing: (this.seat() === 1 ? 180 : 0) + 90, kind: "plan", label: "Seat",
        testid: "fa-ghost-seat" });
    }
    const o = this.outcomeData();
    if (o) {
      const t = o.contact && Array.isArray(o.contact.centre) && this.premeasure() ? o.contact : null;
      if (t) {
        const aim = this.trayOf(this.unit(this.pending && this.pending.action.target));
        const facing = typeof t.facing === "number" ? t.facing : aim ? facingOf(t.centre, aim.centre) : 0;
        out.push({ at: t.centre, width: w, depth: d, facing: facing + 90, kind: "contact", testid: "fa-ghost-contact" });
      }
      this.outcomeBounces().forEach((b, i) => {
        const own = this.trayOf(this.unit(b.unit));
        out.push({ at: b.to, width: w, depth: d, facing: (own ? own.facing : 0) + 90, kind: "landing", testid: `fa-ghost-landing-${i}` });
      });
    }
    return out;
  }

  // ---------------------------------------------------------------- the header's CP and the side panels

  renderCP(obs) {
    const show = ["bid", "activation", "interrupt"].includes(obs.phase) || obs.turn;
    fill(this.elCP, [0, 1].map((seat) => {
      const cp = this.perSeat("cp", seat);
      const bid = this.bidState(seat);
      return h("span", { class: ["fa-cp-chip", seat === obs.mover && "moving"], testid: `fa-cp-${seat}`, "data-cp": cp ?? "", "data-help": "idea:cp",
        style: { "--side": this.sideColour(seat) }, title: `${this.sideName(seat)}: command points left this turn` },
      h("span", { class: "fa-side-dot", "aria-hidden": "true" }),
      h("span", { class: "fa-cp-name" }, this.sideName(seat)),
      // While the turn's bids are sealed, each side's limit (its CP come with the bid).
      h("strong", { class: "fa-cp-count" }, obs.phase === "bid" ? `≤ ${this.perSeat("limit", seat) ?? "?"} CP`
        : show && cp !== undefined && cp !== null ? `${cp} CP` : "–"),
      bid ? h("span", { class: "fa-cp-bid", testid: `fa-bid-state-${seat}` }, bid) : null);
    }));
  }

  /** A seat's bid as this view may show it: the amount once public, else only whether it is in. */
  bidState(seat) {
    const o = this.obs();
    if (o.phase !== "bid" && o.phase !== "terrain_bid") return "";
    const key = o.phase === "bid" ? "bid" : "terrain_bid";
    const amount = this.perSeat(key, seat);
    if (typeof amount === "number") return `bid ${amount}`;
    return this.perSeat(`${key}_in`, seat) ? "has bid" : "";
  }

  prompt(view) {
    const o = view.observation || {};
    const parts = [];
    if (view.status !== "playing") return [h("p", {}, view.status === "quit" ? "The game was quit." : "The game is over.")];
    if (!this.myTurn()) {
      const who = view.to_move === null || view.to_move === undefined ? "The table" : this.shell.seatName(view.to_move);
      parts.push(h("h2", {}, "Please wait"), h("p", {}, o.phase === "interrupt" ? `${who} may interrupt.` : `${who} is playing.`));
      return parts;
    }
    switch (o.phase) {
      case "muster": parts.push(h("h2", {}, "Muster your army"), h("p", {}, "Build an army within the DCP and the availability limits, name its General, or take the scenario's army. The other player will not see it until both are in.")); break;
      case "terrain_bid": parts.push(h("h2", {}, "Bid for the field of battle"), h("p", {}, `A sealed bid of 0 to ${TERRAIN_BID_MAX} CP: the higher bidder places the first feature. 4 or 5 features placed give extra CP in turn 1.`)); break;
      case "terrain": parts.push(h("h2", {}, "Place a terrain feature"), h("p", {}, "Choose a piece, its rotation and what it does, then tap the table where its centre goes.")); break;
      case "seats": parts.push(h("h2", {}, "Place your Seat of Power"), h("p", {}, "Tap the table near your own edge where your Seat of Power stands.")); break;
      case "bid": parts.push(h("h2", {}, `Turn ${o.turn}: bid your CP`), h("p", {}, "A sealed bid: the lower bid goes first, and the bid is the CP you have this turn. A tie bids again and the tied CP are lost; a second tie stands, the side that went second last turn going first.")); break;
      case "interrupt": parts.push(h("h2", {}, "Interrupt?"), h("p", {}, this.pendingWords(o))); break;
      case "activation": parts.push(...this.activationPrompt(o)); break;
      default: parts.push(h("p", {}, humanise(o.phase || "")));
    }
    return parts;
  }

  activationPrompt(o) {
    const active = this.activeUnit();
    if (active === null || active === undefined) {
      return [h("h2", {}, "Activate a unit"), h("p", {}, "Tap a lit unit on the table (or in the list) to activate it for 1 CP, or a unit to deploy, or pass.")];
    }
    const a = this.activation() || {};
    const u = this.unit(active);
    if (a.excess_only) {
      const how = this.premeasure() && a.excess ? ` ${inches(a.excess)}` : "";
      return [h("h2", {}, `${this.unitName(active)}: excess damage`),
        h("p", { testid: "fa-active-words" }, `The excess damage gives${how} of movement to use at once: plan a move and tap Move, or end the activation.`)];
    }
    const title = h("h2", {}, `${this.unitName(active)} (${TYPE_NAME[u && u.type] || ""})`);
    if (a.engaged || a.shot) {
      return [title, h("p", { testid: "fa-active-words" }, `It has ${a.engaged ? "fought" : "shot"}: use a stratagem still offered, or end its activation.`)];
    }
    const left = typeof a.allowance === "number" && this.premeasure() ? ` ${inches(a.allowance)} of movement left.` : "";
    const how = a.allowance > 0 || !this.premeasure() ? "Tap the table to plan its move (each tap a leg), or drag it; drag its outline to turn it; tap a lit enemy to engage." : "Its movement is spent: use a stratagem still offered, or end its activation.";
    return [title, h("p", { testid: "fa-active-words" }, `${how}${a.allowance > 0 ? left : ""}`)];
  }

  /** The interruption offered, in words: which of your units, by whom, and what the stratagem would do. */
  pendingWords(o) {
    const p = o.interruption || {};
    const whose = (id) => {
      const u = this.unit(id);
      if (!u) return `unit ${id}`;
      return u.seat === this.seat() ? `your ${this.unitName(id)}` : `${this.sideName(u.seat)}'s ${this.unitName(id)}`;
    };
    switch (p.kind) {
      case "counterattack":
        return `${capital(whose(p.defender))} is engaged${p.side ? ` on its ${p.side}` : ""} by ${whose(p.attacker)}: Counterattack strikes back at the same time, or decline.`;
      case "hero_of_the_day":
        return `${capital(whose(p.unit ?? p.defender))} would be destroyed: Hero of the Day bounces it back with 1 HP instead, or decline.`;
      case "dispel":
        return `${capital(whose(p.caster))} casts ${this.stratFacts(p.spell).name}${p.target !== undefined && p.target !== null ? ` at ${whose(p.target)}` : ""}: Dispel stops it, or decline.`;
      default:
        return `${humanise(p.kind || "an interruption")}: use it, or decline.`;
    }
  }

  renderPanel(view) {
    const o = view.observation || {};
    if (!this.myTurn()) {
      fill(this.elPanel, this.waitingPanel(o));
      return;
    }
    switch (o.phase) {
      case "muster": fill(this.elPanel, this.armyPanel(o)); break;
      case "terrain_bid": fill(this.elPanel, this.bidPanel(TERRAIN_BID_MAX, "terrain_bid")); break;
      case "bid": fill(this.elPanel, this.bidPanel(this.perSeat("limit", this.seat()) ?? 0, "bid")); break;
      case "terrain": fill(this.elPanel, this.terrainPanel(o)); break;
      case "seats": fill(this.elPanel, this.seatPanel()); break;
      case "interrupt": fill(this.elPanel, this.interruptPanel(o)); break;
      case "activation": fill(this.elPanel, this.deployPanel(o)); break;
      default: fill(this.elPanel);
    }
  }

  waitingPanel(o) {
    if (o.phase === "bid" || o.phase === "terrain_bid") {
      return [h("p", { class: "muted", testid: "fa-sealed" }, "Bids are sealed until both are in.")];
    }
    return [];
  }

  // ---------------------------------------------------------------- muster: the army builder

  armyPanel(o) {
    const seat = this.seat();
    const budget = Number((o.table && o.table.dcp) ?? o.dcp) || 0;
    const offered = this.actionsOf("army");
    const out = [];
    if (offered.length) {
      out.push(h("div", { class: "row" }, offered.map((a, i) => h("button", { type: "button", class: "btn primary", testid: i ? `fa-army-suggested-${i}` : "fa-army-suggested",
        onclick: () => this.send(a) }, offered.length > 1 ? `Take army ${i + 1} of the scenario` : "Take the scenario's army"))));
      out.push(h("ul", { class: "fa-army-preview" }, (offered[0].units || []).map((u) => h("li", {},
        `${u.name || TYPE_NAME[u.type]}${u.general ? " (General)" : ""}${(u.stratagems || []).length ? `: ${u.stratagems.map((k) => this.stratFacts(k).name).join(", ")}` : ""}`))));
    }
    if (!this.army) this.army = { seat, units: [] };
    const units = this.army.units;
    const dcp = units.reduce((n, u) => n + this.typeFacts(u.type).dcp, 0);
    out.push(h("h3", {}, "Build your own"),
      h("p", { class: ["fa-dcp", budget && dcp > budget && "bad"], testid: "fa-dcp", "data-dcp": dcp, "data-budget": budget },
        `DCP ${dcp}${budget ? ` of ${budget}` : ""}`),
      h("div", { class: "fa-add-row" }, TYPE_ORDER.map((type) => {
        const f = this.typeFacts(type);
        return h("button", { type: "button", class: "btn secondary small", testid: `fa-add-${type}`, "data-help": `unit:${type}`,
          onclick: () => this.addUnit(type) }, `+ ${f.name} (${f.dcp} DCP)`);
      })),
      h("ul", { class: "fa-limits", testid: "fa-limits" }, TYPE_ORDER.map((type) => this.limitLine(type, dcp))));
    out.push(h("ol", { class: "fa-army", testid: "fa-army" }, units.map((u, i) => this.armyRow(u, i))));
    const check = this.armyCheck;
    if (units.length && check && !check.legal && check.reason) out.push(h("p", { class: "fa-army-reason", testid: "fa-army-reason", role: "alert" }, check.reason));
    if (units.length && check && check.legal) out.push(h("p", { class: "fa-good", testid: "fa-army-ok" }, "The table accepts this army."));
    out.push(h("button", { type: "button", class: "btn primary", testid: "fa-army-submit", disabled: !units.length,
      onclick: () => this.send(this.armyJSON()) }, "Muster this army"));
    return out;
  }

  limitLine(type, total) {
    const f = this.typeFacts(type);
    const units = this.army ? this.army.units : [];
    const mine = units.filter((u) => u.type === type).reduce((n, u) => n + this.typeFacts(u.type).dcp, 0);
    const pct = total ? Math.round((100 * mine) / total) : 0;
    const op = f.op || (type === "troop" ? ">=" : "<=");
    const limit = f.percent ?? undefined;
    const ok = limit === undefined || !total ? true : op === ">=" ? pct >= limit : pct <= limit;
    return h("li", { class: ["fa-limit", ok ? "ok" : "bad"], testid: `fa-limit-${type}`, "data-ok": ok ? "true" : "false" },
      `${f.plural || f.name}: ${mine} DCP (${pct}%)`, limit !== undefined ? ` · ${op === ">=" ? "at least" : "at most"} ${limit}%` : "");
  }

  armyRow(u, i) {
    const allowed = this.allowedStratagems(u.type);
    return h("li", { class: "fa-army-row", testid: `fa-army-${i}` },
      h("div", { class: "row" },
        h("input", { class: "fa-name", value: u.name, "aria-label": "Unit name", testid: `fa-name-${i}`, maxlength: 40,
          onchange: (e) => { u.name = e.target.value.slice(0, 40); this.armyChanged(); } }),
        h("span", { class: "muted" }, `${this.typeFacts(u.type).name} · ${this.typeFacts(u.type).dcp} DCP`),
        h("label", { class: "fa-general" }, h("input", { type: "radio", name: "fa-general", checked: u.general, testid: `fa-general-${i}`,
          onchange: () => { for (const x of this.army.units) x.general = false; u.general = true; this.armyChanged(); } }), "General"),
        h("button", { type: "button", class: "btn secondary small", testid: `fa-remove-${i}`, "aria-label": `Remove ${u.name}`,
          onclick: () => { this.army.units.splice(i, 1); this.armyChanged(); } }, "✕")),
      allowed.length ? h("div", { class: "fa-strats" }, allowed.map((k) => h("label", { class: "fa-strat-toggle", "data-help": `stratagem:${k}` },
        h("input", { type: "checkbox", checked: u.stratagems.includes(k), testid: `fa-deploy-strat-${i}-${k}`,
          onchange: (e) => { u.stratagems = e.target.checked ? [...u.stratagems, k] : u.stratagems.filter((x) => x !== k); this.armyChanged(); } }),
        `${this.stratFacts(k).name} (${this.costText(k) || "?"})`))) : null);
  }

  /** Deployment stratagems a unit type may carry (the catalogue's users; the table judges the list). */
  allowedStratagems(type) {
    const c = this.cat || {};
    const list = Array.isArray(c.stratagems) ? c.stratagems : Object.entries(c.stratagems || {}).map(([k, v]) => ({ key: k, ...v }));
    return list.filter((s) => s.group === "deployment" && (!Array.isArray(s.users) || !s.users.length || s.users.includes(type)))
      .map((s) => s.key || s.id);
  }

  armyJSON() {
    return { type: "army", units: this.army.units.map((u) => ({ type: u.type, name: u.name, general: u.general, stratagems: [...u.stratagems] })) };
  }

  addUnit(type) {
    const n = this.army.units.filter((u) => u.type === type).length + 1;
    this.army.units.push({ type, name: `${this.typeFacts(type).name} ${n}`, general: !this.army.units.length, stratagems: [] });
    this.armyChanged();
  }

  armyChanged() {
    this.armyCheck = null;
    if (this.army.units.length) this.askPreview("army", this.armyJSON());
    this.shell.render();
  }

  // ---------------------------------------------------------------- sealed bids

  bidPanel(limit, type) {
    const seat = this.seat();
    const max = Math.max(0, Number(limit) || 0);
    if (!this.bidDraft || this.bidDraft.seat !== seat || this.bidDraft.type !== type) this.bidDraft = { seat, type, amount: null };
    const chosen = this.bidDraft.amount;
    const o = this.obs();
    const tie = type === "bid" && o.bid_round > 0;
    return [
      tie ? h("p", { class: "fa-warn", testid: "fa-bid-tie" }, "The bids tied: bid again. The tied CP are lost, so your limit is lower. If this bid ties too, it stands: the side that went second last turn goes first.") : null,
      h("p", { class: "muted" }, `Your sealed bid: 0 to ${max} CP.`),
      h("div", { class: "fa-bid-buttons", role: "radiogroup", "aria-label": "Your bid" }, Array.from({ length: max + 1 }, (_, n) => h("button", {
        type: "button", role: "radio", class: ["btn", "fa-bid-n", chosen === n ? "primary" : "secondary"], testid: `fa-bid-${n}`,
        "aria-checked": chosen === n ? "true" : "false", onclick: () => { this.bidDraft.amount = n; this.shell.render(); },
      }, String(n)))),
      h("button", { type: "button", class: "btn primary huge", testid: "fa-bid-submit", disabled: chosen === null,
        onclick: () => {
          const amount = this.bidDraft.amount;
          this.bidDraft = null; // sealed: nothing of it stays on this screen
          this.send({ type, amount });
          this.shell.render();
        } }, chosen === null ? "Choose your bid" : `Bid ${chosen} CP`),
    ];
  }

  // ---------------------------------------------------------------- terrain and seats

  terrainPanel(o) {
    const d = this.terrainDraft;
    const pieces = this.palette();
    if (!d.piece && pieces.length) d.piece = pieces[0].key || pieces[0].name;
    const toPlace = this.perSeat("to_place", this.seat());
    const out = [];
    if (toPlace !== undefined) out.push(h("p", { class: "muted", testid: "fa-to-place" }, `${plural(toPlace, "feature")} still to place.`));
    out.push(h("div", { class: "fa-palette", role: "radiogroup", "aria-label": "Terrain piece" }, pieces.map((p) => {
      const key = p.key || p.name;
      return h("button", { type: "button", role: "radio", class: ["btn", "small", d.piece === key ? "primary" : "secondary"], testid: `fa-piece-${key}`,
        "aria-checked": d.piece === key ? "true" : "false", onclick: () => { d.piece = key; this.terrainChanged(); } }, p.title || p.label || humanise(p.name || key));
    })));
    out.push(h("div", { class: "row" },
      h("button", { type: "button", class: "btn secondary", testid: "fa-rotate", "aria-pressed": d.rotation ? "true" : "false",
        onclick: () => { d.rotation = d.rotation ? 0 : 90; this.terrainChanged(); } }, `Rotation ${d.rotation}°`)));
    out.push(h("div", { class: "fa-designations" }, DESIGNATIONS.map((k) => h("label", { class: "fa-des" },
      h("input", { type: "checkbox", checked: d[k], testid: `fa-des-${k}`, onchange: (e) => { d[k] = e.target.checked; this.terrainChanged(); } }),
      DESIGNATION_WORDS[k]))));
    const none = !DESIGNATIONS.some((k) => d[k]);
    if (none) out.push(h("p", { class: "fa-warn" }, "Choose at least one designation."));
    if (d.centre && this.check && !this.check.legal && this.check.reason) out.push(h("p", { class: "fa-check bad", testid: "fa-check", role: "alert" }, this.check.reason));
    out.push(h("div", { class: "row" },
      h("button", { type: "button", class: "btn primary", testid: "fa-place", disabled: !d.centre || none || !d.piece,
        onclick: () => this.send(this.featureAction()) }, d.centre ? `Place at (${round2(d.centre[0])}, ${round2(d.centre[1])})` : "Tap the table first"),
      this.has("skip_feature") ? h("button", { type: "button", class: "btn secondary", testid: "fa-skip", onclick: () => this.send({ type: "skip_feature" }) },
        "Skip: no room left") : null));
    return out;
  }

  featureAction() {
    const d = this.terrainDraft;
    return { type: "place_feature", piece: d.piece, centre: d.centre, rotation: d.rotation, halves: d.halves, blocks: d.blocks, impassable: d.impassable };
  }

  terrainChanged() {
    this.check = null;
    if (this.terrainDraft.centre && this.terrainDraft.piece) this.askCheck(this.featureAction());
    this.shell.render();
  }

  /** The planned feature's outline: the piece's shape about its centre, turned, at the tapped point. */
  pieceOutline() {
    const d = this.terrainDraft;
    const p = this.palette().find((x) => (x.key || x.name) === d.piece);
    const shape = p && (p.outline || p.shape || p.polygon);
    if (!Array.isArray(shape) || !d.centre) return null;
    const a = (d.rotation * Math.PI) / 180;
    const [cx, cy] = d.centre;
    return shape.map(([x, y]) => [cx + x * Math.cos(a) - y * Math.sin(a), cy + x * Math.sin(a) + y * Math.cos(a)]);
  }

  seatPanel() {
    const at = this.seatAt;
    const out = [];
    if (at && this.check && !this.check.legal && this.check.reason) out.push(h("p", { class: "fa-check bad", testid: "fa-check", role: "alert" }, this.check.reason));
    out.push(h("button", { type: "button", class: "btn primary", testid: "fa-place-seat", disabled: !at,
      onclick: () => this.send({ type: "place_seat", centre: at }) }, at ? `Place the Seat at (${round2(at[0])}, ${round2(at[1])})` : "Tap the table first"));
    return out;
  }

  // ---------------------------------------------------------------- interruptions

  interruptPanel(o) {
    const offers = this.actionsOf("interrupt");
    const cp = this.perSeat("cp", this.seat());
    return [
      h("p", { class: "muted" }, `You have ${cp ?? "?"} CP left this turn.`),
      h("div", { class: "fa-interrupts" },
        offers.map((a) => h("button", { type: "button", class: "btn primary", testid: `fa-interrupt-${a.key}${a.unit !== undefined ? `-${a.unit}` : ""}`,
          "data-help": `stratagem:${a.key}`, onclick: () => this.send(a) },
        `${this.stratFacts(a.key).name}${a.unit !== undefined ? ` (${this.unitName(a.unit)})` : ""}: ${this.costText(a.key) || "?"}`)),
        this.has("decline") ? h("button", { type: "button", class: "btn secondary", testid: "fa-decline", onclick: () => this.send({ type: "decline" }) }, "Decline") : null),
    ];
  }

  // ---------------------------------------------------------------- activation: deploying

  waitingUnits() {
    const seat = this.seat();
    return this.units().filter((u) => u.seat === seat && !u.destroyed && !this.trayOf(u) && u.type !== "seat");
  }

  deployActions(uid) {
    return this.actionsOf("deploy").filter((a) => a.unit === uid);
  }

  deployable(uid) {
    return this.deployActions(uid).length > 0 || (this.shell.movable().has(uid) && !this.trayOf(this.unit(uid)));
  }

  /** The edges a waiting unit may come on from: the server's deploy actions, else by its stratagems. */
  deployEdges(u) {
    const edges = new Set(this.deployActions(u.id).map((a) => a.edge || "own"));
    if (!edges.size) {
      edges.add("own");
      if ((u.stratagems || []).includes("flanking")) { edges.add("left"); edges.add("right"); }
      if ((u.stratagems || []).includes("infiltrate")) edges.add("infiltrate");
    }
    return [...edges];
  }

  deployPanel(o) {
    const active = this.activeUnit();
    if (active !== null && active !== undefined) return [];
    const sel = this.selected !== null ? this.unit(this.selected) : null;
    if (!sel || sel.seat !== this.seat() || this.trayOf(sel) || !this.deployable(sel.id)) return [];
    const edges = this.deployEdges(sel);
    if (!this.deployEdge || !edges.includes(this.deployEdge)) this.deployEdge = edges[0];
    const words = { own: "From our edge", left: "From the left edge", right: "From the right edge", infiltrate: "Infiltrate" };
    const how = { own: "Tap the table where its centre comes on along your edge.", left: "Tap the table where it comes on along the left edge.",
      right: "Tap the table where it comes on along the right edge.", infiltrate: "Tap where it stands; then its facing." };
    return [
      h("h3", {}, `Deploy ${this.unitName(sel.id)}`),
      edges.length > 1 ? h("div", { class: "row" }, edges.map((e) => h("button", { type: "button", class: ["btn", "small", this.deployEdge === e ? "primary" : "secondary"],
        testid: `fa-deploy-edge-${e}`, onclick: () => { this.deployEdge = e; this.shell.render(); } }, words[e] || humanise(e)))) : null,
      h("p", { class: "muted", testid: "fa-deploy-how" }, how[this.deployEdge] || ""),
      h("p", { class: "muted", testid: "fa-deploy-cost" }, typeof sel.deploy_cost === "number"
        ? `Cost: ${sel.deploy_cost} CP (1 to activate${sel.general ? ", the General's unit no DCP" : ` + ${this.typeFacts(sel.type).dcp} DCP`}${(sel.stratagems || []).length ? " + its deployment stratagems" : ""}).`
        : `Cost: 1 CP${sel.general ? "" : ` + ${this.typeFacts(sel.type).dcp} DCP`}.`),
      this.infiltrating && this.infiltrating.unit === sel.id ? this.infiltrateControls() : null,
    ];
  }

  /** Infiltrate: the point tapped, then the facing (the unit moves no further in that activation). */
  infiltrateControls() {
    const f = this.infiltrating;
    const turn = (d) => { f.facing = norm(f.facing + d); this.shell.render(); };
    return h("div", { class: "fa-plan", testid: "fa-infiltrate" },
      h("p", { class: "muted" }, `At (${round2(f.at[0])}, ${round2(f.at[1])}), ${this.facingWords(f.facing)}.`),
      h("div", { class: "row fa-facing" },
        h("button", { type: "button", class: "btn secondary small", testid: "fa-infiltrate-left", onclick: () => turn(TURN_STEP_DEGREES) }, `⟲ ${TURN_STEP_DEGREES}°`),
        h("button", { type: "button", class: "btn secondary small", testid: "fa-infiltrate-right", onclick: () => turn(-TURN_STEP_DEGREES) }, `⟳ ${TURN_STEP_DEGREES}°`),
        h("button", { type: "button", class: "btn primary", testid: "fa-infiltrate-go",
          onclick: () => { const a = { type: "deploy", unit: f.unit, edge: "infiltrate", x: round2(f.at[0]), y: round2(f.at[1]), facing: round2(f.facing) }; this.infiltrating = null; this.send(a); } },
        "Infiltrate here")));
  }

  deployAt(uid, p) {
    const e = this.deployEdge || "own";
    const seat = this.seat();
    const facing = seat === 1 ? 180 : 0;
    if (e === "own") return { type: "deploy", unit: uid, edge: "own", x: round2(p[0]) };
    if (e === "left" || e === "right") return { type: "deploy", unit: uid, edge: e, y: round2(p[1]) };
    return { type: "deploy", unit: uid, edge: "infiltrate", x: round2(p[0]), y: round2(p[1]), facing };
  }

  // ---------------------------------------------------------------- activation: the dock

  renderDock(view) {
    if (this.pending) {
      fill(this.elDock, h("div", { class: "row fa-confirm-row" },
        h("button", { type: "button", class: "btn primary huge", testid: "fa-confirm", disabled: !this.outcome, onclick: () => this.confirm() }, this.pending.verb),
        h("button", { type: "button", class: "btn secondary", testid: "fa-cancel", onclick: () => this.cancel() }, "Cancel")));
      return;
    }
    if (!this.myTurn() || this.phaseName() !== "activation") {
      fill(this.elDock);
      return;
    }
    const out = [];
    const active = this.activeUnit();
    const sel = this.selected;
    if ((active === null || active === undefined) && sel !== null) {
      const act = this.actionsOf("activate").find((a) => a.unit === sel);
      if (act) out.push(h("button", { type: "button", class: "btn primary", testid: "fa-activate", onclick: () => this.send(act) }, `Activate ${this.unitName(sel)} (1 CP)`));
    }
    const uid = active ?? sel;
    if (this.plan) out.push(this.planControls());
    const strat = this.actionsOf("stratagem");
    if (strat.length) {
      out.push(h("div", { class: "fa-strat-row", testid: "fa-stratagems" }, strat.map((a) => h("button", { type: "button", class: "btn secondary small",
        testid: `fa-strat-${a.key}`, "data-help": `stratagem:${this.stratKey(a.key)}`, onclick: () => this.send(a) },
      `${this.stratFacts(a.key).name} (${this.costText(a.key) || "?"})`))));
    }
    const targets = this.selection ? this.selection.targets || [] : [];
    const mineTargets = targets.filter((t) => t.action && t.action.unit === uid);
    // One button per order and target (a spell's variants, Stormwind's distances, a summon's places: a chooser).
    const groups = new Map();
    const group = (a, kind) => {
      const key = [kind || a.type, a.target ?? "", a.spell || ""].join("|");
      if (!groups.has(key)) groups.set(key, { kind: kind || a.type, list: [] });
      const g = groups.get(key);
      if (!g.list.some((x) => JSON.stringify(x) === JSON.stringify(a))) g.list.push(a);
    };
    for (const t of mineTargets) group(t.action, t.kind);
    for (const a of this.actions()) {
      if (["cast", "steady", "raise_champion", "shoot", "engage"].includes(a.type) && a.unit === uid) group(a);
    }
    if (groups.size) {
      out.push(h("div", { class: "fa-target-row", testid: "fa-targets" }, [...groups.values()].map((g) => {
        const a = g.list[0];
        const id = ["fa-target", g.kind, a.target ?? "", a.spell || ""].filter((x) => x !== "").join("-");
        const main = a.type === "engage" || a.type === "shoot";
        return h("button", { type: "button", class: ["btn", "small", main ? "primary" : "secondary"], testid: id,
          "data-help": a.type === "cast" ? `stratagem:${this.stratKey(a.spell)}` : null, onclick: () => this.pickOf(g.list) },
        g.list.length > 1 ? `${this.actTitle(a)}…` : `${this.actionTitle(a)}${this.orderCost(a)}`);
      })));
    }
    fill(this.elDock, out);
  }

  planControls() {
    const p = this.plan;
    const turn = (d) => { p.facing = norm(p.facing + d); this.planChanged(); };
    const check = this.check;
    const cost = check && check.legal && check.cost !== undefined && this.premeasure() ? ` (${inches(check.cost)})` : "";
    return h("div", { class: "fa-plan", testid: "fa-plan" },
      h("p", { class: "muted", testid: "fa-plan-words", "data-facing": round2(p.facing) }, `${plural(p.path.length, "leg")}, ${this.facingWords(p.facing)}${cost}.`,
        this.facingMode ? " Tap the table: the unit will face that point." : ""),
      h("div", { class: "row fa-facing" },
        h("button", { type: "button", class: "btn secondary small", testid: "fa-turn-left", "aria-label": `Turn left ${TURN_STEP_DEGREES}°`, onclick: () => turn(TURN_STEP_DEGREES) }, `⟲ ${TURN_STEP_DEGREES}°`),
        h("button", { type: "button", class: "btn secondary small", testid: "fa-turn-left-fine", onclick: () => turn(FINE_STEP_DEGREES) }, `⟲ ${FINE_STEP_DEGREES}°`),
        h("button", { type: "button", class: "btn secondary small", testid: "fa-turn-right-fine", onclick: () => turn(-FINE_STEP_DEGREES) }, `⟳ ${FINE_STEP_DEGREES}°`),
        h("button", { type: "button", class: "btn secondary small", testid: "fa-turn-right", "aria-label": `Turn right ${TURN_STEP_DEGREES}°`, onclick: () => turn(-TURN_STEP_DEGREES) }, `⟳ ${TURN_STEP_DEGREES}°`),
        h("button", { type: "button", class: ["btn", "small", this.facingMode ? "primary" : "secondary"], testid: "fa-face-point", "aria-pressed": this.facingMode ? "true" : "false",
          onclick: () => { this.facingMode = !this.facingMode; this.shell.render(); } }, "Face a point")),
      check && !check.legal && check.reason ? h("p", { class: "fa-check bad", testid: "fa-check", role: "alert" }, check.reason) : null,
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn primary", testid: "fa-move-go", onclick: () => this.sendPlan() }, "Move"),
        h("button", { type: "button", class: "btn secondary", testid: "fa-move-undo", disabled: p.path.length < 2,
          onclick: () => { p.path.pop(); this.planChanged(); } }, "Last leg off"),
        h("button", { type: "button", class: "btn secondary", testid: "fa-move-clear", onclick: () => { this.plan = null; this.facingMode = false; this.check = null; this.shell.render(); } }, "Clear")));
  }

  /** A facing in a player's words: turned left or right of straight at the enemy's edge. */
  facingWords(facing) {
    const home = this.seat() === 1 ? 180 : 0;
    const rel = Math.round(norm(facing - home));
    if (rel === 0) return "facing straight ahead";
    if (rel === 180) return "facing back to its own edge";
    return rel < 180 ? `turned ${rel}° left` : `turned ${360 - rel}° right`;
  }

  /** An order's stratagem cost in words (" (3 CP)"), or nothing for a plain engage. */
  orderCost(a) {
    const key = { cast: a.spell, steady: "steady", shoot: "ballistics", raise_champion: "raise_champion" }[a.type];
    const c = key ? this.costText(key) : "";
    return c ? ` (${c})` : "";
  }

  actTitle(a) {
    switch (a.type) {
      case "cast": return `${this.stratFacts(a.spell).name} (${this.costText(a.spell) || "?"})`;
      case "steady": return `Steady (${this.costText("steady") || "?"})`;
      case "raise_champion": return `Raise a Champion (${this.costText("raise_champion") || "?"})`;
      case "shoot": return `Ballistics (${this.costText("ballistics") || "?"})`;
      case "engage": return "Engage";
      default: return humanise(a.type);
    }
  }

  actionTitle(a) {
    const t = a.target !== undefined ? this.unitName(a.target) : "";
    switch (a.type) {
      case "engage": return `Engage ${t}`;
      case "shoot": return `Shoot at ${t}`;
      case "cast": {
        const where = Array.isArray(a.point) ? ` at (${round2(a.point[0])}, ${round2(a.point[1])})` : t ? ` at ${t}` : "";
        const extras = (a.extras || []).length ? `, with ${a.extras.map((k) => this.stratFacts(k).name).join(" and ")}` : "";
        const push = a.direction ? ` (${a.direction}${a.distance ? ` ${inches(a.distance)}` : ""})` : "";
        return `${this.stratFacts(a.spell).name}${where}${push}${extras}`;
      }
      case "steady": return `Steady ${t}`;
      case "raise_champion": return Array.isArray(a.centre) ? `Raise a Champion at (${round2(a.centre[0])}, ${round2(a.centre[1])})` : "Raise a Champion";
      default: return humanise(a.type);
    }
  }

  async pickOf(list) {
    if (list.length === 1) { this.ask(list[0]); return; }
    const a = await choose(this.actTitle(list[0]), list.map((x, i) => ({ label: this.actionTitle(x), value: x, kind: "primary", testid: `fa-choose-${i}` })), "fa-choose");
    if (a) this.ask(a);
  }

  // ---------------------------------------------------------------- the outcome before Confirm

  /** An engage, shot, spell or heroic act: ask the table for its exact outcome; Confirm sends it. */
  ask(action) {
    const verbs = { engage: "Engage!", shoot: "Shoot", cast: "Cast", steady: "Steady", raise_champion: "Raise" };
    this.pending = { action, title: this.actionTitle(action), verb: verbs[action.type] || "Confirm", asked: "outcome" };
    this.outcome = null;
    this.plan = null;
    this.askPreview("outcome", action);
    this.shell.render();
    this.bringIntoView(this.elDock);
    this.bringIntoView(this.elOutcome);
  }

  confirm() {
    if (!this.pending || !this.outcome) return;
    const { action } = this.pending;
    this.send(action);
  }

  cancel() {
    this.pending = null;
    this.outcome = null;
    this.shell.render();
  }

  /** The outcome in the preview: `outcome`, or the older `odds` key. */
  outcomeData() {
    const m = this.outcome;
    if (!m) return null;
    return m.outcome || m.odds || null;
  }

  renderOutcome() {
    const p = this.pending;
    if (!p) {
      this.elOutcome.hidden = true;
      this.elOutcome.replaceChildren();
      return;
    }
    this.elOutcome.hidden = false;
    const parts = [h("h2", {}, p.title)];
    const o = this.outcomeData();
    if (!this.outcome) parts.push(h("p", { class: "muted" }, "Asking the table for the outcome…"));
    else if (!o) parts.push(h("p", { class: "muted" }, this.outcome.text || "The table gives no outcome for this act."));
    else parts.push(...this.outcomeLines(o, p.action));
    fill(this.elOutcome, parts);
  }

  outcomeLines(o, action) {
    const out = [];
    const target = action.target !== undefined ? this.unitName(action.target) : "";
    const me = this.unitName(action.unit);
    if (o.bands) {
      // A shot without premeasuring: the outcome at each range band (the distance is not told).
      out.push(h("p", {}, "Without premeasuring, the damage by range band:"));
      for (const [band, b] of Object.entries(o.bands)) {
        out.push(h("p", { testid: `fa-outcome-band-${band}` }, `${humanise(band)} band: ${b.damage === null ? "not allowed" : plural(b.damage, "hit point")}${b.destroyed ? ", destroyed" : ""}`));
      }
      return out;
    }
    if (o.stopped) out.push(h("p", { class: "fa-warn", testid: "fa-outcome-stopped" }, `It stops short: ${o.stopped.reason}`));
    if (action.type === "engage" || action.type === "shoot" || o.damage !== null) {
      out.push(h("p", { class: "big-text", testid: "fa-outcome-damage", "data-damage": o.damage ?? "" },
        o.damage === null || o.damage === undefined ? "No combat" : `${plural(o.damage, "hit point")} of damage${target ? ` to ${target}` : ""}${o.side ? ` (${o.side})` : ""}`));
    }
    if (o.counter_damage !== undefined && o.counter_damage !== null) out.push(h("p", { testid: "fa-outcome-counter" }, `${target} strikes back: ${plural(o.counter_damage, "hit point")}.`));
    if (o.damage !== null && o.damage !== undefined) {
      out.push(h("p", { class: o.destroyed ? "fa-good" : "", testid: "fa-outcome-destroyed", "data-destroyed": o.destroyed ? "true" : "false" },
        o.destroyed ? `${target || "The target"} is destroyed.` : `${target || "The target"} survives${o.hp_left !== undefined && o.hp_left !== null ? ` with ${o.hp_left} HP` : ""}.`));
    }
    if (o.attacker_destroyed) out.push(h("p", { class: "fa-bad", testid: "fa-outcome-attacker-destroyed" }, `${me} is destroyed too.`));
    if (o.excess_move !== undefined && o.excess_move !== null && this.premeasure()) {
      out.push(h("p", { testid: "fa-outcome-excess", "data-excess": o.excess_move }, o.excess_move > 0 ? `Excess damage: ${inches(o.excess_move)} of movement at once.` : "No excess movement."));
    }
    const bb = o.bounce_back;
    if (bb) out.push(h("p", { testid: "fa-outcome-bounce" }, `Bounce back: ${bb === "both" ? "both units" : bb === "attacker" ? me : target || "the defender"}.`));
    this.outcomeBounces().forEach((b, i) => out.push(h("p", { class: "muted", testid: `fa-outcome-landing-${i}` }, `${b.label}: lands at (${round2(b.to[0])}, ${round2(b.to[1])}).`)));
    for (const b of o.blocked || []) out.push(h("p", { class: "muted", testid: "fa-outcome-blocked" }, `${this.unitName(b.unit)} cannot bounce back: loses 1 HP (${b.hp} left).`));
    const shown = new Set();
    (o.combats || []).forEach((c, i) => {
      if (!i) return; // the first combat is the headline above
      if (c.text) shown.add(c.text);
      out.push(h("p", { class: "fa-chain", testid: `fa-outcome-chain-${i}` }, `Chain: ${c.text || `${this.unitName(c.attacker)} against ${this.unitName(c.defender)}, ${c.damage} damage`}`));
    });
    const lines = (o.lines || []).filter((l) => !shown.has(l));
    if (lines.length) out.push(h("details", { class: "fa-account", testid: "fa-outcome-account", open: window.innerHeight > 700 }, h("summary", {}, "Step by step"),
      h("ol", {}, lines.map((l) => h("li", {}, l)))));
    for (const i of o.interruptions || []) {
      const alt = o.if_interrupted && o.if_interrupted.key === i.key ? o.if_interrupted : null;
      const then = alt && alt.damage !== null && alt.damage !== undefined ? `: then ${plural(alt.damage, "hit point")}${alt.counter_damage ? `, ${alt.counter_damage} back` : ""}${alt.destroyed ? ", destroyed" : ""}${alt.attacker_destroyed ? `, ${me} destroyed` : ""}` : "";
      out.push(h("p", { class: "fa-warn", testid: `fa-outcome-interrupt-${i.key}` }, `The enemy may answer with ${this.stratFacts(i.key).name} (${this.costText(i.key) || "?"})${then}.`));
    }
    if (o.measured === false) out.push(h("p", { class: "muted" }, "Without premeasuring: if it reaches."));
    if (Array.isArray(o.clauses) && o.clauses.length) out.push(h("p", { class: "muted small" }, o.clauses.join(" · ")));
    return out;
  }

  // ---------------------------------------------------------------- the roster

  renderRoster(obs) {
    const units = obs.units || [];
    const active = this.activeUnit();
    fill(this.elRoster, [0, 1].map((seat) => {
      const mine = units.filter((u) => u.seat === seat);
      if (!mine.length) return null;
      return h("div", { class: "fa-roster-side", style: { "--side": this.sideColour(seat) } },
        h("h3", {}, this.sideName(seat)),
        mine.map((u) => {
          const onTable = Boolean(this.trayOf(u));
          const state = u.destroyed ? "destroyed" : onTable ? `${u.hp} HP` : `${u.type === "seat" ? "to place" : "to deploy"} · ${u.hp} HP`;
          const marks = [u.general && "General", u.braced && "braced", u.transfixed && "transfixed", u.skirmishing && "skirmishing",
            ...(u.stratagems || []).map((k) => this.stratFacts(k).name)].filter(Boolean);
          return h("button", { type: "button", class: ["fa-roster-row", u.destroyed && "dead", this.selected === u.id && "selected", active === u.id && "active",
            this.pickable().has(u.id) && "pickable", !onTable && !u.destroyed && "waiting"], testid: `fa-roster-${u.id}`, "data-help": `unit:${u.type}`,
          onclick: () => this.tapUnit(u.id) },
          h("span", { class: "fa-roster-letter" }, TYPE_LETTER[u.type] || "?"),
          h("span", { class: "fa-roster-name" }, u.name || TYPE_NAME[u.type]),
          h("span", { class: "fa-roster-state" }, state),
          marks.length ? h("span", { class: "fa-roster-marks" }, marks.join(" · ")) : null);
        }));
    }));
  }

  legend(view) {
    const o = view.observation || {};
    const items = [0, 1].map((seat) => h("span", { class: "legend-item" }, h("span", { class: "swatch", style: { background: this.sideColour(seat) }, "aria-hidden": "true" }),
      this.sideName(seat)));
    items.push(h("span", { class: "legend-item fa-legend-long" }, "H hero · Wz wizard · M monster · K knight · WM war machine · T troop · S Seat of Power"),
      h("span", { class: "legend-item fa-legend-long" }, "yellow edge: the tray's front · number: HP"),
      ...DESIGNATIONS.map((d) => h("span", { class: "legend-item" }, h("span", { class: ["swatch", `fa-swatch-${d}`], "aria-hidden": "true" }), DESIGNATION_WORDS[d])));
    if (!this.premeasure()) items.push(h("span", { class: "legend-item", testid: "fa-no-premeasure" }, "Don't premeasure: no distances shown"));
    if (o.options && o.options.win) items.push(h("span", { class: "legend-item fa-legend-long" }, `Win by destroying the ${o.options.win === "seat" ? "Seat of Power" : "General's unit"}`));
    return items;
  }

  helpTopic(el) {
    if (el.closest(".ib-badge")) return "marker:hp";
    const unit = el.closest("[data-unit]");
    if (unit) return `unit:${unit.dataset.type}`;
    const ground = el.closest("[data-kind]");
    if (ground) {
      const des = DESIGNATIONS.find((d) => String(ground.dataset.kind).includes(d));
      return `terrain:${des || "feature"}`;
    }
    if (el.closest(".ib-arrow, .ib-ghost")) return "idea:bounce_back";
    return null;
  }

  finalReport(view) {
    const sides = (view.observation || {}).sides || [];
    if (!sides.length) return [];
    return [h("p", { class: "muted", testid: "fa-final" }, sides.map((s, i) => `${this.sideName(i)}: ${s.score ?? 0} DCP-worth of enemies destroyed`).join(" · "))];
  }

  // ---------------------------------------------------------------- acting

  send(action) {
    this.pending = null;
    this.outcome = null;
    return this.shell.send(action);
  }

  /** Pass gives up every CP left this turn (FA-AC-04 decided): asked first when there are any. */
  async pass() {
    const cp = this.perSeat("cp", this.seat());
    if (cp > 0 && !(await confirmDialog("Pass?", `You give up your ${plural(cp, "CP")} left this turn.`, "Pass"))) return;
    this.send({ type: "pass" });
  }

  tapUnit(id) {
    const u = this.unit(id);
    if (!u) return;
    const phase = this.phaseName();
    if (phase !== "activation") {
      const t = this.trayOf(u);
      if (t) this.tapPoint(t.centre);
      return;
    }
    if (this.pending) return;
    if (this.myTurn() && this.facingMode && this.plan) {
      const t = this.trayOf(u);
      if (t) this.tapPoint(t.centre);
      return;
    }
    const targets = this.myTurn() ? this.targetsOf(id) : [];
    if (targets.length === 1) { this.ask(targets[0].action); return; }
    if (targets.length > 1) {
      choose(this.unitName(id), targets.map((t, i) => ({ label: this.actionTitle(t.action), value: t.action, kind: "primary", testid: `fa-choose-${i}` })), "fa-choose")
        .then((a) => { if (a) this.ask(a); });
      return;
    }
    const active = this.activeUnit();
    if (this.myTurn() && active !== null && active !== undefined && id !== active && u.seat === this.seat()) {
      toast(`${this.unitName(active)} is active: end its activation first.`);
      return;
    }
    this.plan = null;
    this.check = null;
    this.deployEdge = null;
    if (this.selected !== id || !this.selection) this.shell.select(id);
    else this.shell.render();
    this.bringIntoView(this.elPanel); // a unit to deploy: how, at the top of the side panel
  }

  /** Bring a side panel's part into view once drawn (the side panel may be scrolled to the units, on a phone). */
  bringIntoView(el) {
    requestAnimationFrame(() => { if (el.childNodes.length && !el.hidden) el.scrollIntoView({ block: "nearest" }); });
  }

  tapPoint(p) {
    if (!this.myTurn()) return;
    const phase = this.phaseName();
    if (phase === "terrain") {
      this.terrainDraft.centre = [round2(p[0]), round2(p[1])];
      this.terrainChanged();
      return;
    }
    if (phase === "seats") {
      this.seatAt = [round2(p[0]), round2(p[1])];
      this.askCheck({ type: "place_seat", centre: this.seatAt });
      this.shell.render();
      return;
    }
    if (phase !== "activation" || this.pending) return;
    const sel = this.selected;
    const u = sel !== null ? this.unit(sel) : null;
    if (!u || u.seat !== this.seat()) {
      toast("Tap one of your lit units first.");
      return;
    }
    if (!this.trayOf(u)) {
      if (this.activeUnit() !== null && this.activeUnit() !== undefined) return;
      if (this.deployEdge === "infiltrate") {
        const keep = this.infiltrating && this.infiltrating.unit === u.id ? this.infiltrating.facing : this.seat() === 1 ? 180 : 0;
        this.infiltrating = { unit: u.id, at: [round2(p[0]), round2(p[1])], facing: keep };
        this.shell.render();
        return;
      }
      this.send(this.deployAt(u.id, p));
      return;
    }
    const active = this.activeUnit();
    if (active !== u.id && !this.pickable().has(u.id)) return;
    const at = [round2(p[0]), round2(p[1])];
    if (this.plan && this.plan.unit === u.id && this.facingMode) {
      const end = this.plan.path[this.plan.path.length - 1];
      this.plan.facing = facingOf(end, at);
      this.facingMode = false;
      this.planChanged();
      return;
    }
    if (!this.plan || this.plan.unit !== u.id) this.plan = { unit: u.id, path: [], facing: this.trayOf(u).facing };
    const last = this.plan.path.length ? this.plan.path[this.plan.path.length - 1] : this.trayOf(u).centre;
    if (Math.hypot(at[0] - last[0], at[1] - last[1]) < MIN_LEG) return;
    const snap = this.plan.path.length ? null : this.snapMove(at, u.id);
    this.plan.path.push(snap ? snap.to : at);
    // By default the unit ends facing the way it went (or as the move offered there does).
    this.plan.facing = snap && typeof snap.facing === "number" ? snap.facing : facingOf(last, snap ? snap.to : at);
    this.planChanged();
  }

  dropUnit(id, p) {
    if (!this.myTurn() || this.phaseName() !== "activation" || !this.pickable().has(id)) return;
    const u = this.unit(id);
    const t = this.trayOf(u);
    if (!t) return;
    if (this.selected !== id) this.shell.select(id, { render: false });
    const at = [round2(p[0]), round2(p[1])];
    this.plan = { unit: id, path: [at], facing: facingOf(t.centre, at) };
    this.facingMode = false;
    this.planChanged();
  }

  /** Check a planned move, feature or seat with the table (only the latest check counts). */
  askCheck(action) {
    this.check = null;
    this.checkKey = `check:${JSON.stringify(action)}`;
    this.askPreview(this.checkKey, action);
  }

  /** A planned tray turned by a drag on its ghost: the board's facing (from +x) back to the game's (from +y). */
  turnGhost(key, facing) {
    const f = norm(facing - 90);
    if (key === "plan" && this.plan) {
      this.plan.facing = f;
      this.facingMode = false;
      this.planChanged();
    } else if (key === "infiltrate" && this.infiltrating) {
      this.infiltrating.facing = f;
      this.shell.render();
    }
  }

  moveAction() {
    const p = this.plan;
    return { type: "move", unit: p.unit, path: p.path.map((q) => [q[0], q[1]]), facing: round2(p.facing) };
  }

  planChanged() {
    this.check = null;
    if (this.plan && this.plan.path.length && this.activeUnit() === this.plan.unit) this.askCheck(this.moveAction());
    this.shell.render();
  }

  /** Send the planned move; a unit not yet active is activated first (1 CP), the move follows its view. */
  sendPlan() {
    if (!this.plan || !this.plan.path.length) return;
    const action = this.moveAction();
    if (this.activeUnit() === this.plan.unit) {
      this.plan = null;
      this.send(action);
      return;
    }
    const act = this.actionsOf("activate").find((a) => a.unit === this.plan.unit);
    if (!act) { toast("This unit may not activate now."); return; }
    this.queuedNext = { unit: this.plan.unit, action };
    this.send(act);
  }
}
