// The Days of the Valkyrx screen inside the shell (docs/screen-shell.md): the hex board, the prompt for the
// step in hand (infrastructure, deployment, movement, spells, orders), the character cards, the casting banner,
// the health-bar report, and Options' End Phase and Add troops. It renders what the server sends (view,
// selection) and sends the player's acts; it computes no lights, and words no log (the shell shows the
// server's sentences, from the game's words.py).

import { h, fill, icon } from "/static/dom.js";
import { Board, key } from "/static/board.js";
import { humanise } from "/static/api.js";
import { toast, modal, choose } from "/static/ui.js";
import { closeTransientDialogs } from "/static/shell.js";
import { renderCards } from "./cards.js";
import { loadCatalogue, spellInfo, traitsOf } from "./catalogue.js";
import * as panels from "./panels.js";

const TERRAIN = {
  open: { name: "Open ground" },
  difficult: { name: "Difficult ground", pattern: "hatch" },
  impassable: { name: "Impassable", pattern: "cross" },
  quicksand: { name: "Quicksand", tag: "Quicksand", pattern: "dots" },
  temple: { name: "Temple", tag: "Temple" },
};
const DEFAULT_NAMES = ["Forces of the Light", "Forces of Darkness"];
const STEP_NAMES = {
  deployment: "Deployment",
  first_mover: "Who moves first",
  player_1_move: "First player's move",
  player_2_move: "Second player's move",
  combat_round: "Combat round",
  reports: "Reports",
  over: "Game over",
};
const PHASE_NAMES = { deploy: "Deployment", first_mover: "First mover", movement: "Movement", spells: "Spells",
  combat: "Combat", over: "Over" };
const BANNER_MS = 6000;
/** The key of the odds label drawn over an enemy when a unit is picked up (the legend and the label's title). */
const ODDS_KEY = "Expected losses if you attack: theirs in men (and the share of their strength), then ours (us)";

export class Screen {
  /** Hidden information (the Grima, the Sand Worm, secret orders): a shared screen covers between players. */
  static secrets = true;
  /** The movement timer (VX-15-14) shows in the header. */
  static timer = true;

  constructor(shell) {
    this.shell = shell;
    this.tableId = shell.tableId;
    this.order = null; // {type, unit, cells: Map(key -> action), title, hint, then?}
    this.bannerUntil = 0;
    this.banner = "";
    this.bannerAt = ""; // the turn and phase the banner was raised in: it ends with them
    this.dismissedReport = localStorage.getItem(`iwgt-report-${this.tableId}`) || "";
    this.dialogs = { report: null, spells: false };
    this.spellsSent = new Set();
    shell.addStylesheet(new URL("./valkyrx.css", import.meta.url).href);
    loadCatalogue().then(() => shell.render());
  }

  mount(slots) {
    this.elBanner = h("div", { class: "banner", testid: "casting-banner", role: "status", hidden: true });
    this.elCards = h("div", { class: "cards", testid: "cards", "aria-label": "Character cards" });
    this.elTick = h("button", { type: "button", class: "btn primary tick", testid: "tick-button", hidden: true,
      "aria-label": "Army placed: confirm the deployment", onclick: () => this.confirmDeployment() }, icon("tick"), h("span", {}, "Army placed"));
    this.elEnd = h("button", { type: "button", class: "btn secondary", testid: "end-phase", hidden: true,
      onclick: () => this.endPhase() }, "End Phase");
    this.board = new Board(slots.board, {
      onCell: (cell) => this.tapCell(cell),
      onUnit: (id, cell) => this.tapUnit(id, cell),
      onPick: (id) => this.pickUp(id),
      onDrop: (id, cell) => this.setDown(id, cell),
    }, { terrain: TERRAIN, traits: (u) => traitsOf(u.type) });
    return {
      side: [slots.prompt, h("h2", { class: "side-title" }, "Characters"), this.elCards],
      actions: [this.elTick, this.elEnd],
      overlay: [this.elBanner],
    };
  }

  // ---------------------------------------------------------------- the shell's state, read here

  get view() { return this.shell.view; }
  get selected() { return this.shell.selected; }
  set selected(id) { this.shell.selected = id; }
  get selection() { return this.shell.selection; }

  redraw() { this.shell.render(); }

  names() {
    const n = this.shell.names();
    return n.length ? n : DEFAULT_NAMES;
  }

  obs() { return this.shell.obs(); }
  actions() { return this.shell.actions(); }
  movable() { return this.shell.movable(); }
  myTurn() { return this.shell.myTurn(); }
  send(action) { return this.shell.send(action); }

  unitsById() {
    return new Map((this.obs().units || []).map((u) => [u.id, u]));
  }

  myUnitIds() {
    const seat = this.view ? this.view.seat : null;
    return new Set((this.obs().units || []).filter((u) => u.owner === seat && u.status === "active").map((u) => u.id));
  }

  deploying() {
    return this.obs().phase === "deploy" && this.myTurn();
  }

  infraDone() {
    return localStorage.getItem(`iwgt-infra-${this.tableId}`) === "1";
  }

  /** Units this screen may pick up now. */
  pickable() {
    if (!this.myTurn()) return new Set();
    if (this.deploying()) return this.infraDone() ? this.myUnitIds() : new Set();
    const ids = this.movable();
    for (const a of this.actions()) if (["transport", "conceal", "reveal", "tunnel", "surface", "quarry"].includes(a.type)) ids.add(a.unit);
    return ids;
  }

  // ---------------------------------------------------------------- hooks the shell calls

  onView(view, { fresh, previous }) {
    const now = performance.now();
    if (fresh) {
      const obs = view.observation || {};
      if (obs.phase !== "deploy") this.selected = null;
      this.order = null;
      if (this.selected !== null && !this.myUnitIds().has(this.selected)) this.selected = null;
      const prevPhase = previous && previous.observation && previous.observation.phase;
      if (obs.phase !== prevPhase) closeTransientDialogs();
    }
    this.castingBanner(view, Boolean(previous) && fresh, now);
  }

  /**
   * VX-15-14: "X is casting Y" while a spell is being cast (its dice awaited) and for a few seconds after the
   * cast, never past the phase it was cast in, nor Game Over; a (re)opened page shows it only for a casting
   * still in hand, not from the last step's events.
   */
  castingBanner(view, follows, now) {
    const obs = view.observation || {};
    const at = `${obs.turn}:${obs.phase}`;
    if (view.status !== "playing" || (this.bannerAt && this.bannerAt !== at && !obs.casting)) this.bannerUntil = 0;
    const named = (id, spell, name) => `${(this.unitsById().get(id) || { name: "A wizard" }).name} is casting ${name || spellInfo(spell).name}`;
    if (view.status !== "playing") return;
    // Only a new step's events tell of a cast now: a (re)opened page's first view, or the same view again, does not.
    const cast = follows ? (view.events || []).filter((e) => e.event === "SpellCast").pop() : null;
    if (obs.casting) {
      this.banner = named(obs.casting.caster, obs.casting.spell);
      this.bannerUntil = Infinity; // until the casting ends
    } else if (cast) {
      this.banner = named(cast.unit, cast.spell, cast.name);
      this.bannerUntil = now + BANNER_MS;
    } else if (this.bannerUntil === Infinity) {
      this.bannerUntil = now + BANNER_MS; // the casting just ended: a few seconds more
    }
    this.bannerAt = at;
  }

  phase(view) {
    const obs = view.observation || {};
    const step = STEP_NAMES[obs.step] || humanise(obs.step || "");
    const phase = PHASE_NAMES[obs.phase] || humanise(obs.phase || "");
    return obs.phase === "deploy" ? "Deployment"
      : `Turn ${obs.turn}${obs.turn_limit ? ` of ${obs.turn_limit}` : ""} · ${phase}${step && step !== phase ? ` · ${step}` : ""}`;
  }

  waiting(view) {
    const obs = view.observation || {};
    return obs.awaiting_die ? "The dice decide…" : "The table is working…";
  }

  render(view) {
    const obs = view.observation || {};
    this.board.setBoard(obs.board || { width: 0, height: 0, terrain: [] });
    const targets = new Map();
    const previews = [];
    if (this.order) {
      for (const k of this.order.cells.keys()) targets.set(k, this.order.type);
    } else if (this.selection && this.selection.unit === this.selected) {
      for (const m of this.selection.moves || []) if (!targets.has(key(m.to))) targets.set(key(m.to), m.kind);
      for (const p of this.selection.previews || []) {
        const cell = p.cell || (this.unitsById().get(p.target) || {}).cell;
        const starts = { them: (this.unitsById().get(p.target) || {}).start, us: (this.unitsById().get(this.selected) || {}).start };
        const text = previewText(p.expected, starts);
        if (cell) previews.push({ cell, text, title: `${text}: ${ODDS_KEY}.` });
      }
    } else if (this.deploying() && this.selected !== null) {
      for (const a of this.actions()) if (a.type === "place" && a.unit === this.selected) targets.set(key(a.to), "place");
    }
    this.board.render({ units: obs.units || [], lights: this.shell.lights(), mine: this.pickable(), selected: this.selected,
      targets, previews });
    fill(this.elCards, renderCards({
      cards: view.cards,
      units: obs.units || [], seat: view.seat, sideNames: this.names(), actions: this.myTurn() ? this.actions() : [],
      selected: this.selected, onOrder: (type, u, extra) => this.cardOrder(type, u, extra),
    }));
    const deploying = this.deploying();
    this.elTick.hidden = !(deploying && this.infraDone());
    const canEnd = this.myTurn() && !deploying && this.actions().some((a) => a.type === "end_phase");
    this.elEnd.hidden = !canEnd || obs.phase === "spells";
    this.tick(performance.now());
  }

  legend(view) {
    const obs = view.observation || {};
    const kinds = new Set(["open", ...(obs.board && obs.board.terrain ? obs.board.terrain.map((t) => t.kind) : [])]);
    return [...[...kinds].map((k) => h("span", { class: "legend-item" },
      h("span", { class: ["swatch", `terrain-${k}`], "aria-hidden": "true" }), (TERRAIN[k] || {}).name || humanise(k))),
    h("span", { class: "legend-item" }, h("span", { class: "swatch side-0", "aria-hidden": "true" }), this.names()[0]),
    h("span", { class: "legend-item" }, h("span", { class: "swatch side-1", "aria-hidden": "true" }), this.names()[1]),
    this.selection && (this.selection.previews || []).length ? h("span", { class: "legend-item odds-key", testid: "legend-odds", title: ODDS_KEY },
      h("span", { class: "odds-sample", "aria-hidden": "true" }, "−29 (10%) · us −19"), ` ${ODDS_KEY}`) : null];
  }

  /** Options adds End Phase and Add troops (VX-15-23, VX-15-24). */
  options() {
    const acts = this.actions();
    const troops = acts.filter((a) => a.type === "add_troops");
    return [
      { label: "End Phase", kind: "primary", testid: "options-end-phase",
        disabled: !(this.myTurn() && acts.some((a) => a.type === "end_phase")), run: () => this.endPhase() },
      { label: troops.length ? "Add troops" : `Add troops: ${this.whyNoTroops()}`, testid: "options-add-troops",
        disabled: !troops.length, run: () => this.addTroops(troops) },
    ];
  }

  /** Why Add troops is off now (VX-15-24), said on the button itself. */
  whyNoTroops() {
    const seat = this.view ? this.view.seat : null;
    const waiting = (this.obs().units || []).filter((u) => u.owner === seat && u.status === "reserve");
    if (!waiting.length) return "no late troops of yours are waiting";
    if (!this.myTurn() || this.obs().phase !== "movement") return "in your movement phase";
    const turns = waiting.map((u) => u.arrives).filter((t) => typeof t === "number");
    return turns.length ? `they may join from turn ${Math.min(...turns)}` : "not now";
  }

  /** The winner is a side's forces: "Forces of the Light win!". */
  verdict(result) {
    return result.winner !== null && result.winner !== undefined ? `${this.names()[result.winner]} win!` : null;
  }

  /** Game Over's own part: the final health bars and the plague's story. */
  finalReport(view) {
    const obs = view.observation || {};
    return panels.finalReport({ names: this.names(), units: obs.units, report: view.report, plague: obs.plague_chain });
  }

  /** "Tap for help" (docs/screen-shell.md): the topic of a tapped counter or card (its unit type), spell or cell's ground. */
  helpTopic(el) {
    const at = el.closest("[data-unit], article.card, [data-testid^='spell-'], [data-cell]");
    const id = at && at.dataset.testid;
    if (at && (at.dataset.unit !== undefined || at.matches("article.card"))) {
      const u = this.unitsById().get(Number(at.dataset.unit ?? id.slice(5)));
      return u ? `unit:${u.type}` : null;
    }
    if (id && id.startsWith("spell-")) return `spell:${id.slice(6)}`;
    const cell = at && at.dataset.cell ? at.dataset.cell.split(",").map(Number) : null;
    const ground = cell && ((this.obs().board || {}).terrain || []).find((t) => t.cell[0] === cell[0] && t.cell[1] === cell[1]);
    return ground ? `terrain:${ground.kind}` : null;
  }

  tick(now) {
    const on = this.bannerUntil > now;
    this.elBanner.hidden = !on;
    if (on && this.elBanner.textContent !== this.banner) this.elBanner.textContent = this.banner;
  }

  /** Dialogs that follow a view: the health-bar report, the wizards' spells. */
  afterView(v) {
    const names = this.names();
    // The report opens at once, with the view that brings it (its combat lights play under it): the mover's clock
    // is held until it is dismissed (the shell's `ready`), so a report that waited for the lights ate the timer.
    const reportKey = v.report ? `${v.report.turn ?? ""}:${JSON.stringify(v.report).length}` : "";
    if (v.report && reportKey !== this.dismissedReport && !this.dialogs.report) {
      this.dialogs.report = panels.showReport(v.report, names).then(() => {
        // A cast whose own step went on through the combat: its banner ends when the report is read.
        if (!this.bannerAt.endsWith(":spells") && this.bannerUntil !== Infinity) this.bannerUntil = 0;
        this.dismissedReport = reportKey;
        localStorage.setItem(`iwgt-report-${this.tableId}`, reportKey);
        this.dialogs.report = null;
      });
    }
    // VX-15-05: each wizard is asked about his spells once the infrastructure is placed.
    if (this.deploying() && this.infraDone() && !this.dialogs.spells) {
      const next = this.actions().find((a) => a.type === "spells" && !this.spellsSent.has(a.unit));
      if (next) this.armWizard(next.unit);
    }
  }

  // ---------------------------------------------------------------- prompts

  prompt(view) {
    const obs = view.observation || {};
    const parts = [];
    const units = this.unitsById();
    if (view.status !== "playing") {
      parts.push(h("p", {}, view.status === "quit" ? "The game was quit." : "The game is over."));
    } else if (this.order) {
      parts.push(h("h2", {}, this.order.title),
        h("p", {}, this.order.hint),
        h("button", { type: "button", class: "btn secondary", testid: "order-cancel", onclick: () => { this.order = null; this.redraw(); } }, "Cancel"));
    } else if (!this.myTurn()) {
      parts.push(h("h2", {}, "Please wait"),
        h("p", {}, obs.to_move === null || obs.to_move === undefined
          ? (obs.awaiting_die ? `The table waits for a die: ${humanise(obs.awaiting_die)}.` : "The table is resolving the turn.")
          : `${this.names()[obs.to_move] || "The other side"} is playing.`));
    } else if (obs.phase === "deploy") {
      parts.push(...this.deployPrompt(obs));
    } else if (obs.phase === "spells") {
      parts.push(...this.spellsPrompt(units));
    } else {
      parts.push(...this.movePrompt(units));
    }
    return parts;
  }

  deployPrompt(obs) {
    if (!this.infraDone()) {
      const byKind = new Map();
      for (const t of (obs.board && obs.board.terrain) || []) {
        if (!byKind.has(t.kind)) byKind.set(t.kind, []);
        byKind.get(t.kind).push(t.cell);
      }
      return [
        h("h2", {}, "Infrastructure"),
        h("p", {}, byKind.size ? "Place these terrain pieces on the table, then tap the tick. Cells are [column, row], as numbered along the board's edges."
          : "This scenario has no terrain pieces: tap the tick."),
        h("ul", { class: "infra-list", testid: "infra-list" }, [...byKind].map(([kind, cells]) => h("li", {},
          h("span", { class: ["swatch", `terrain-${kind}`], "aria-hidden": "true" }),
          h("strong", {}, (TERRAIN[kind] || {}).name || humanise(kind)), " ", cells.map((c) => `[${c[0]}, ${c[1]}]`).join(" ")))),
        h("button", { type: "button", class: "btn primary huge tick", testid: "infra-tick",
          onclick: () => { localStorage.setItem(`iwgt-infra-${this.tableId}`, "1"); this.redraw(); this.afterView(this.view); } },
        icon("tick"), h("span", {}, "Infrastructure placed")),
      ];
    }
    const units = this.unitsById();
    const sel = this.selected !== null ? units.get(this.selected) : null;
    const wizards = this.actions().filter((a) => a.type === "spells");
    return [
      h("h2", {}, `Deploy: ${this.names()[this.view.seat]}`),
      h("p", {}, sel ? `Tap a lit cell to place ${sel.name}, or tap another unit.` :
        "Tap one of your units, then a lit cell of your zone (or drag it there). Tap the tick when happy."),
      wizards.length ? h("div", { class: "row" }, wizards.map((a) => h("button", { type: "button", class: "btn secondary", testid: `arm-wizard-${a.unit}`,
        onclick: () => this.armWizard(a.unit) }, `Spells of ${(units.get(a.unit) || { name: "#" + a.unit }).name}`))) : null,
    ];
  }

  spellsPrompt(units) {
    const casts = this.actions().filter((a) => a.type === "cast");
    return [
      h("h2", {}, "Cast a spell?"),
      casts.length ? h("p", {}, "Choose a wizard and one of his spells, or go on to the combat.")
        : h("p", {}, "None of your wizards can cast now."),
      h("div", { class: "row" },
        casts.length ? h("button", { type: "button", class: "btn primary huge", testid: "cast-start", onclick: () => this.castFlow() }, "Cast a spell") : null,
        h("button", { type: "button", class: "btn secondary huge", testid: "no-more-spells", onclick: () => this.endPhase() }, "No more spells")),
    ];
  }

  movePrompt(units) {
    const out = [h("h2", {}, "Movement")];
    const sel = this.selected !== null ? units.get(this.selected) : null;
    if (!sel) {
      out.push(h("p", {}, "Tap a lit unit to pick it up (or drag it), then tap where it goes. End Phase when done."));
      return out;
    }
    const answer = this.selection && this.selection.unit === sel.id ? this.selection : null;
    const moves = answer ? answer.moves || [] : null;
    out.push(h("p", { testid: "selected-unit" }, moves === null ? `${sel.name}: asking the table…`
      : moves.length ? `${sel.name}: tap a destination.` : answer.note ? sel.name : `${sel.name} cannot move now.`));
    if (answer && answer.note) out.push(h("p", { class: "unit-note", testid: "selected-note" }, answer.note));
    if (traitsFly(sel) && moves && moves.some((m) => m.kind === "fly")) {
      out.push(h("p", { class: "hint-fly" }, icon("wings"), "Two cells or more: the move is a flight (wings turn red)."));
    }
    const orders = this.actions().filter((a) => a.unit === sel.id && a.type !== "quarry");
    const kinds = [...new Set(orders.map((a) => a.type))];
    if (kinds.length) {
      out.push(h("div", { class: "row" }, kinds.map((t) => h("button", { type: "button", class: "btn secondary", testid: `order-${t}`,
        onclick: () => this.cardOrder(t, sel) }, ORDER_LABEL[t] || humanise(t)))));
    }
    out.push(h("button", { type: "button", class: "btn secondary", testid: "put-down", onclick: () => this.deselect() }, "Put it down"));
    return out;
  }

  // ---------------------------------------------------------------- acting

  async armWizard(unitId) {
    if (this.dialogs.spells) return;
    const wizard = this.unitsById().get(unitId);
    if (!wizard) return;
    this.dialogs.spells = true;
    try {
      const spells = await panels.chooseWizardSpells(wizard);
      this.spellsSent.add(unitId);
      this.send({ type: "spells", unit: unitId, spells });
    } finally {
      this.dialogs.spells = false;
    }
    this.afterView(this.view);
  }

  async confirmDeployment() {
    const waiting = this.actions().find((a) => a.type === "spells" && !this.spellsSent.has(a.unit));
    if (waiting) {
      await this.armWizard(waiting.unit);
      return;
    }
    this.selected = null;
    this.send({ type: "confirm" });
  }

  endPhase() {
    this.order = null;
    this.deselect(false);
    this.send({ type: "end_phase" });
  }

  deselect(render = true) {
    this.shell.select(null, { render });
  }

  selectUnit(id) {
    this.order = null;
    this.shell.select(id, { ask: !this.deploying() }); // always answered: moves, or a note saying why none
  }

  tapUnit(id, cell) {
    const u = this.unitsById().get(id);
    if (this.order) {
      this.tapCell(cell || (u && u.cell));
      return;
    }
    const pick = this.pickable();
    if (this.selected !== null && id === this.selected) {
      this.deselect();
      return;
    }
    if (pick.has(id)) {
      this.selectUnit(id);
      return;
    }
    if (this.selected !== null && cell) {
      this.tapCell(cell); // an enemy (or a friend) in the way: let the table judge the destination
      return;
    }
    if (u) toast(`${u.name}${u.owner === this.view.seat ? "" : ` (${this.names()[u.owner]})`}: ${u.level || ""}`);
  }

  tapCell(cell) {
    if (!cell || !this.view) return;
    const k = key(cell);
    if (this.order) {
      const action = this.order.cells.get(k);
      if (!action) {
        toast("Not one of the cells for this order.", "error");
        return;
      }
      const done = this.order.then;
      this.order = null;
      if (done) done(action);
      else this.send(action);
      this.redraw();
      return;
    }
    if (this.selected === null) return;
    const u = this.unitsById().get(this.selected);
    if (u && u.cell && key(u.cell) === k) {
      this.deselect();
      return;
    }
    if (this.deploying()) {
      this.send({ type: "place", unit: this.selected, to: [cell[0], cell[1]] });
      return;
    }
    const answer = this.selection && this.selection.unit === this.selected ? this.selection : null;
    if (answer && !(answer.moves || []).length) {
      toast(answer.note || `${u ? u.name : "This unit"} cannot move now.`, "error");
      return;
    }
    this.moveTo(this.selected, cell);
  }

  pickUp(id) {
    if (this.selected !== id) this.selectUnit(id);
  }

  setDown(id, cell) {
    const u = this.unitsById().get(id);
    if (!cell || !u || (u.cell && key(u.cell) === key(cell))) {
      this.redraw(); // back where it was
      return;
    }
    if (this.selected !== id) this.selected = id;
    this.tapCell(cell);
    this.redraw();
  }

  async moveTo(unit, cell) {
    const here = this.selection && this.selection.unit === unit
      ? (this.selection.moves || []).filter((m) => key(m.to) === key(cell)) : [];
    const byKind = new Map();
    for (const m of here) if (!byKind.has(m.kind)) byKind.set(m.kind, m);
    let kind = here.length ? here[0].kind : "walk";
    if (byKind.size > 1) {
      kind = await choose("How does it go there?", [...byKind.keys()].map((k) => ({
        label: MOVE_LABEL[k] || humanise(k), value: k, kind: "primary", testid: `move-kind-${k}`,
      })), "move-kind");
      if (!kind) return;
    }
    const chosen = byKind.get(kind);
    if (chosen && chosen.action) {
      this.send(chosen.action);
      return;
    }
    // Not a destination the table offered: send it anyway, the table refuses it and lights it red (VX-14-03).
    const action = { type: "move", unit, to: [cell[0], cell[1]] };
    if (kind === "charge") action.charge = true;
    if (kind === "fly") action.airborne = true;
    if (kind === "pray") action.pray = true;
    this.send(action);
  }

  /** Orders from a card or the prompt: conceal, reveal, quarry, surface, tunnel, transport, focus. */
  async cardOrder(type, u, extra) {
    if (type === "focus") {
      if (this.pickable().has(u.id)) this.selectUnit(u.id);
      else if (u.cell) toast(`${u.name} stands at [${u.cell[0]}, ${u.cell[1]}]`);
      return;
    }
    const acts = this.actions().filter((a) => a.unit === u.id && a.type === type);
    if (type === "conceal" || type === "reveal") {
      if (acts[0]) this.send(acts[0]);
      return;
    }
    if (type === "quarry") {
      const list = (extra && extra.actions) || acts;
      const units = this.unitsById();
      const target = await modal({
        title: "Whom does the Grima follow?",
        testid: "quarry-dialog",
        dismissable: true,
        transient: true,
        body: h("p", {}, "Choose the enemy character she will hunt. The enemy never learns it."),
        buttons: [
          ...list.map((a) => ({ label: (units.get(a.target) || { name: `#${a.target}` }).name, value: a.target, kind: "primary", testid: `quarry-${a.target}` })),
          { label: "Cancel", value: undefined, testid: "quarry-cancel" },
        ],
      }).done;
      if (target !== undefined) this.send({ type: "quarry", unit: u.id, target });
      return;
    }
    const field = type === "surface" ? "at" : "to";
    if (!acts.length) {
      toast("That order is not possible now.", "error");
      return;
    }
    this.order = {
      type,
      unit: u.id,
      title: `${ORDER_LABEL[type] || humanise(type)}: ${u.name}`,
      hint: type === "surface" ? "Tap the cell where he breaks the surface." : type === "tunnel"
        ? "Tap the cell he burrows to, unseen." : "Tap the cell the portal sends it to.",
      cells: new Map(acts.map((a) => [key(a[field]), a])),
    };
    this.redraw();
  }

  async castFlow() {
    const casts = this.actions().filter((a) => a.type === "cast");
    if (!casts.length) return;
    const units = this.unitsById();
    const pick = await panels.chooseCast(casts, units);
    if (!pick) return;
    const wizard = units.get(pick.wizard) || { name: `#${pick.wizard}` };
    const targeted = pick.actions.filter((a) => Array.isArray(a.target));
    const go = async (action) => {
      if (await panels.confirmCast(wizard.name, pick.spell, action.target)) this.send(action);
    };
    if (!targeted.length) {
      await go(pick.actions[0]);
      return;
    }
    if (targeted.length === 1) {
      await go(targeted[0]);
      return;
    }
    this.order = {
      type: "cast",
      unit: pick.wizard,
      title: `${spellInfo(pick.spell).name}: choose the target`,
      hint: "Tap one of the marked cells.",
      cells: new Map(targeted.map((a) => [key(a.target), a])),
      then: (action) => go(action),
    };
    this.redraw();
  }

  /** Late reinforcements: which waiting unit joins, then a lit entry cell. */
  async addTroops(troops) {
    const ids = [...new Set(troops.map((a) => a.unit))];
    const id = await panels.chooseTroops(ids, this.unitsById());
    if (id === undefined) return;
    const u = this.unitsById().get(id) || { name: `#${id}` };
    this.order = {
      type: "add_troops",
      unit: id,
      title: `Add troops: ${u.name}`,
      hint: "Tap a lit entry cell to bring them onto the table.",
      cells: new Map(troops.filter((a) => a.unit === id).map((a) => [key(a.to), a])),
    };
    this.redraw();
  }
}

const MOVE_LABEL = { walk: "Walk", charge: "Charge!", fly: "Fly", pray: "Pray at the Temple" };
const ORDER_LABEL = { conceal: "Conceal", reveal: "Reveal", surface: "Surface", tunnel: "Tunnel", transport: "Through the portal",
  add_troops: "Add troops", cast: "Cast" };

function traitsFly(u) {
  return Boolean(u) && traitsOf(u.type).includes("flyer");
}

/**
 * A short label for a preview's expected casualties: "−12 (30%)", then our own losses ("· us −3"), in whole
 * men; a character's loss is its share of itself ("−16%"). A loss under one man reads "<1"; ours are left out
 * when there are none.
 * @param {object|number} expected the selection's or the preview's expected losses
 * @param {{them?: number, us?: number}} starts the target's and the attacker's starting strength (1: a character)
 */
export function previewText(expected, starts = {}) {
  if (expected === null || expected === undefined) return "?";
  if (typeof expected === "number") return `−${menText(expected)}`;
  const share = typeof expected.share === "number" ? `${pctText(expected.share)}` : "";
  const cas = typeof expected.casualties !== "number" ? "?"
    : starts.them === 1 ? `−${pctText(expected.casualties)}`
      : `−${menText(expected.casualties)}${share ? ` (${share})` : ""}`;
  const ours = expected.attacker_losses;
  const back = typeof ours === "number" && ours > 0 ? ` · us −${starts.us === 1 ? pctText(ours) : menText(ours)}` : "";
  return `${cas}${back}`;
}

/** A count of men as the table reads it: whole men, "<1" for a sliver, never "−0". */
function menText(v) {
  const n = Math.round(Math.abs(Number(v) || 0));
  return n === 0 && Math.abs(v) > 0 ? "<1" : String(n);
}

/** A share as a whole percentage, "<1%" for a sliver. */
function pctText(v) {
  const n = Math.round(Math.abs(Number(v) || 0) * 100);
  return n === 0 && Math.abs(v) > 0 ? "<1%" : `${n}%`;
}
