// The table screen: header (turn, step, whose turn, connection, timer), the board, the prompt for the step in
// hand (infrastructure, deployment, movement, spells, orders), character cards, the log and the action bar.
// It renders what the server sends (view, selection, error) and sends the player's acts; it computes no lights.

import { h, fill, icon } from "/static/dom.js";
import { Board, TERRAIN, key } from "/static/board.js";
import { TableSocket } from "/static/socket.js";
import { renderCards } from "./cards.js";
import { valkyrxCatalogue, spellInfo, humanise, traitsOf, listGames } from "/static/api.js";
import { toast, modal, choose } from "/static/ui.js";
import * as panels from "/static/panels.js";
import { showConnection, closedScreen, fatalScreen, confirmQuit, downloadRecord } from "/static/screen.js";
import { describeStep } from "./logtext.js";

/** How long the board shows a combat's lights before the report or Game Over covers it (the table's 3 s). */
const LIGHTS_BEFORE_REPORT_MS = 3200;

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
const ILLEGAL_MS = 2000;
const TIMER_RED_S = 20;

/** A light as the board draws it: t0 is when it arrived; transient ones expire after delay + duration. */
function normaliseLight(l, now) {
  const delay = Math.max(0, Number(l.delay_ms) || 0);
  const duration = l.duration_ms ? Number(l.duration_ms) : null;
  return {
    cell: l.cell,
    effect: l.effect || "light",
    colour: l.colour || l.color || "#ffffff",
    pattern: l.pattern || "steady",
    delay_ms: delay,
    duration_ms: duration,
    t0: now,
    expires: duration ? now + delay + duration : null,
  };
}

export class TableScreen {
  constructor(root, tableId, token, socket = null) {
    this.root = root;
    this.tableId = tableId;
    this.token = token;
    this.welcome = null;
    this.view = null;
    this.heldView = null; // a view waiting behind the pass-and-play cover
    this.shownSeat = null;
    this.lights = { view: [], selection: [], error: [] };
    this.selected = null; // the unit picked up
    this.selection = null; // the server's answer for it
    this.order = null; // {type, unit, cells: Map(key -> action), prompt}
    this.bannerUntil = 0;
    this.banner = "";
    this.timerEnd = null;
    this.dismissedReport = localStorage.getItem(`iwgt-report-${tableId}`) || "";
    this.dialogs = { report: null, die: null, over: null, cover: null, spells: false };
    this.spellsSent = new Set();
    this.connState = "connecting";
    this.build();
    if (socket) {
      this.socket = socket; // opened by the page, which found this table's game in the welcome
    } else {
      this.socket = new TableSocket(tableId, token, (m) => this.onMessage(m), (st, d) => this.onState(st, d));
      this.socket.connect();
    }
    this.tick = setInterval(() => this.everySecond(), 250);
    this.scenarioTitles = new Map();
    valkyrxCatalogue().then(() => this.render());
    listGames().then((games) => {
      for (const g of games || []) for (const sc of g.scenarios || []) this.scenarioTitles.set(`${g.name}/${sc.name}`, sc.title);
      this.render();
    }).catch(() => { /* the lobby may be closed to this screen: keep the scenario's name */ });
  }

  // ---------------------------------------------------------------- layout

  build() {
    document.title = "The table: Intelligent Wargames Table";
    this.elTitle = h("div", { class: "title", testid: "table-title" }, "Connecting…");
    this.elPhase = h("div", { class: "phase", testid: "phase" }, "");
    this.elTurn = h("div", { class: "whose", testid: "whose-turn" }, "");
    this.elConn = h("div", { class: "conn", testid: "conn-state", "data-state": "connecting", role: "status" }, "Connecting");
    this.elTimer = h("div", { class: "timer idle", testid: "timer", role: "timer", "aria-label": "Movement time left" }, "–:––");
    this.elBanner = h("div", { class: "banner", testid: "casting-banner", role: "status", hidden: true });
    this.elBoardHost = h("div", { class: "board-host" });
    this.elLegend = h("div", { class: "legend", testid: "legend", "aria-label": "Terrain legend" });
    this.elPrompt = h("section", { class: "prompt", testid: "prompt", "aria-live": "polite" });
    this.elCards = h("div", { class: "cards", testid: "cards", "aria-label": "Character cards" });
    this.elLog = h("ol", { class: "log", testid: "log" });
    this.elTick = h("button", { type: "button", class: "btn primary tick", testid: "tick-button", hidden: true,
      "aria-label": "Army placed: confirm the deployment", onclick: () => this.confirmDeployment() }, icon("tick"), h("span", {}, "Army placed"));
    this.elEnd = h("button", { type: "button", class: "btn secondary", testid: "end-phase", hidden: true,
      onclick: () => this.endPhase() }, "End Phase");
    this.elOptions = h("button", { type: "button", class: "btn secondary", testid: "options-button",
      onclick: () => this.openOptions() }, icon("cog"), h("span", {}, "Options"));
    this.board = new Board(this.elBoardHost, {
      onCell: (cell) => this.tapCell(cell),
      onUnit: (id, cell) => this.tapUnit(id, cell),
      onPick: (id) => this.pickUp(id),
      onDrop: (id, cell) => this.setDown(id, cell),
    });
    fill(this.root,
      h("div", { class: "table-screen" },
        h("header", { class: "topbar" },
          h("div", { class: "top-left" }, this.elTitle, this.elPhase),
          this.elTurn,
          h("div", { class: "top-right" }, this.elConn, this.elTimer)),
        h("main", { class: "table-main" },
          h("section", { class: "board-area", "aria-label": "The table" }, this.elBanner, this.elBoardHost, this.elLegend),
          h("aside", { class: "side" },
            this.elPrompt,
            h("h2", { class: "side-title" }, "Characters"),
            this.elCards,
            h("details", { class: "log-panel", testid: "log-panel", open: window.innerHeight > 700 },
              h("summary", {}, "Game log"), this.elLog))),
        h("footer", { class: "actionbar" }, this.elTick, this.elEnd, h("div", { class: "spacer" }), this.elOptions)));
  }

  // ---------------------------------------------------------------- messages

  onState(state, detail) {
    this.connState = state;
    showConnection(this.elConn, state, detail);
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.welcome = msg;
        break;
      case "view":
        this.onView(msg);
        break;
      case "selection":
        if (msg.unit === this.selected) {
          this.selection = msg;
          this.lights.selection = (msg.lights || []).map((l) => normaliseLight(l, performance.now()));
          this.render();
        }
        break;
      case "error":
        this.onError(msg);
        break;
      case "preview":
        break;
      case "closed":
        this.onClosed(msg.reason);
        break;
      default:
        break;
    }
  }

  names() {
    return (this.welcome && this.welcome.names) || DEFAULT_NAMES;
  }

  mySeats() {
    return (this.welcome && this.welcome.seats) || (this.view && this.view.seats) || [];
  }

  onView(view) {
    const several = this.mySeats().length > 1;
    const over = view.status !== "playing";
    if (several && !over && this.shownSeat !== null && view.seat !== this.shownSeat) {
      // Pass and play: hold the view behind an opaque cover until the next player taps.
      this.heldView = view;
      if (!this.dialogs.cover) {
        this.closeTransientDialogs();
        this.dialogs.cover = panels.passCover(this.names()[view.seat] || `seat ${view.seat}`);
        this.root.classList.add("covered");
        this.dialogs.cover.done.then(() => {
          this.dialogs.cover = null;
          this.root.classList.remove("covered");
          const held = this.heldView;
          this.heldView = null;
          if (held) this.showView(held);
        });
      }
      return;
    }
    if (this.dialogs.cover) {
      this.heldView = view;
      return;
    }
    this.showView(view);
  }

  showView(view) {
    const now = performance.now();
    const fresh = !this.view || view.version !== this.view.version || view.seat !== this.view.seat;
    const prevPhase = this.view && this.view.observation && this.view.observation.phase;
    this.view = view;
    this.shownSeat = view.seat;
    this.lights.view = (view.lights || []).map((l) => normaliseLight(l, now));
    if (fresh) {
      this.lights.selection = [];
      this.selection = null;
      const obs = view.observation || {};
      if (obs.phase !== "deploy") this.selected = null;
      this.order = null;
      if (this.selected !== null && !this.myUnitIds().has(this.selected)) this.selected = null;
      if (obs.phase !== prevPhase) this.closeTransientDialogs();
    }
    if (view.timer && typeof view.timer.remaining === "number") this.timerEnd = now + view.timer.remaining * 1000;
    else this.timerEnd = null;
    for (const e of view.events || []) {
      if (e.event === "SpellCast") {
        const caster = this.unitsById().get(e.unit);
        this.banner = `${caster ? caster.name : "A wizard"} is casting ${e.name || spellInfo(e.spell).name}`;
        this.bannerUntil = now + BANNER_MS;
      }
    }
    const obs = view.observation || {};
    if (obs.casting && !(this.bannerUntil > now)) {
      const caster = this.unitsById().get(obs.casting.caster);
      this.banner = `${caster ? caster.name : "A wizard"} is casting ${spellInfo(obs.casting.spell).name}`;
      this.bannerUntil = now + BANNER_MS;
    }
    // A selected unit (deployment) keeps its marks; re-ask the server for a moving unit's destinations.
    this.render();
    this.afterRender();
  }

  onError(msg) {
    const now = performance.now();
    const lights = (msg.lights || []).map((l) => normaliseLight({ duration_ms: ILLEGAL_MS, ...l }, now));
    if (lights.length) this.lights.error = lights;
    toast(msg.message || humanise(msg.error || "refused"), "error");
    if (msg.error === "unauthorized" && !this.welcome) {
      this.fatal("This link does not open the table", msg.message || "The invitation is not valid (any more).");
      return;
    }
    this.render();
  }

  onClosed(reason) {
    this.socket.close();
    clearInterval(this.tick);
    closedScreen(reason);
  }

  fatal(title, text) {
    this.socket.close();
    clearInterval(this.tick);
    fatalScreen(this.root, title, text);
  }

  closeTransientDialogs() {
    // Choices made stale by a new phase close as cancelled (their promises settle). The Options menu stays:
    // Quit Game is always valid, and End Phase is checked by the server when tapped.
    const stale = ["wizard-dialog", "cast-spell-dialog", "cast-confirm-dialog", "move-kind", "add-troops-dialog",
      "quarry-dialog"].map((t) => `.backdrop[data-testid="${t}"]`).join(", ");
    for (const el of document.querySelectorAll(stale)) {
      if (typeof el.iwgtClose === "function") el.iwgtClose(undefined);
      else el.remove();
    }
  }

  // ---------------------------------------------------------------- derived facts

  obs() {
    return (this.view && this.view.observation) || {};
  }

  unitsById() {
    return new Map((this.obs().units || []).map((u) => [u.id, u]));
  }

  actions() {
    return (this.view && this.view.options && this.view.options.actions) || [];
  }

  movable() {
    return new Set((this.view && this.view.options && this.view.options.movable) || []);
  }

  myTurn() {
    const v = this.view;
    if (!v || v.status !== "playing") return false;
    const obs = this.obs();
    return obs.to_move === v.seat && this.mySeats().includes(v.seat);
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

  // ---------------------------------------------------------------- rendering

  render() {
    const v = this.view;
    if (!v) return;
    const obs = this.obs();
    const names = this.names();
    const now = performance.now();
    this.board.setBoard(obs.board || { width: 0, height: 0, terrain: [] });
    const live = (list) => list.filter((l) => !l.expires || l.expires > now);
    this.lights.error = live(this.lights.error);
    this.lights.view = live(this.lights.view);
    this.lights.selection = live(this.lights.selection);
    const lights = [...this.lights.view, ...this.lights.selection, ...this.lights.error];
    const targets = new Map();
    const previews = [];
    if (this.order) {
      for (const k of this.order.cells.keys()) targets.set(k, this.order.type);
    } else if (this.selection && this.selection.unit === this.selected) {
      for (const m of this.selection.moves || []) if (!targets.has(key(m.to))) targets.set(key(m.to), m.kind);
      for (const p of this.selection.previews || []) {
        const cell = p.cell || (this.unitsById().get(p.target) || {}).cell;
        if (cell) previews.push({ cell, text: previewText(p.expected) });
      }
    } else if (this.deploying() && this.selected !== null) {
      for (const a of this.actions()) if (a.type === "place" && a.unit === this.selected) targets.set(key(a.to), "place");
    }
    this.board.render({ units: obs.units || [], lights, mine: this.pickable(), selected: this.selected, targets, previews });

    // Header.
    const title = this.scenarioTitles.get(`${obs.game}/${obs.scenario}`) || humanise(obs.scenario || "Table");
    this.elTitle.textContent = title;
    this.elTitle.title = `Table ${this.tableId}`;
    const step = STEP_NAMES[obs.step] || humanise(obs.step || "");
    const phase = PHASE_NAMES[obs.phase] || humanise(obs.phase || "");
    this.elPhase.textContent = obs.phase === "deploy" ? "Deployment" :
      `Turn ${obs.turn}${obs.turn_limit ? ` of ${obs.turn_limit}` : ""} · ${phase}${step && step !== phase ? ` · ${step}` : ""}`;
    let whose;
    if (v.status !== "playing") whose = v.status === "quit" ? "Game quit" : "Game over";
    else if (obs.to_move === null || obs.to_move === undefined) whose = obs.awaiting_die ? "The dice decide…" : "The table is working…";
    else if (this.myTurn()) whose = `Your turn: ${names[obs.to_move]}`;
    else whose = `${names[obs.to_move] || `Seat ${obs.to_move}`} to play`;
    this.elTurn.textContent = whose;
    this.elTurn.dataset.mine = this.myTurn() ? "true" : "false";
    this.elTurn.dataset.side = String(obs.to_move ?? "");
    this.root.dataset.seat = String(v.seat);

    this.renderLegend(obs);
    this.renderPrompt();
    fill(this.elCards, renderCards({
      cards: v.cards,
      units: obs.units || [], seat: v.seat, sideNames: names, actions: this.myTurn() ? this.actions() : [],
      selected: this.selected, onOrder: (type, u, extra) => this.cardOrder(type, u, extra),
    }));
    this.renderLog();

    // Action bar.
    const deploying = this.deploying();
    this.elTick.hidden = !(deploying && this.infraDone());
    const canEnd = this.myTurn() && !deploying && this.actions().some((a) => a.type === "end_phase");
    this.elEnd.hidden = !canEnd || obs.phase === "spells";
    this.updateBanner(now);
    this.updateTimer(now);
  }

  renderLegend(obs) {
    const kinds = new Set(["open", ...(obs.board && obs.board.terrain ? obs.board.terrain.map((t) => t.kind) : [])]);
    fill(this.elLegend, [...kinds].map((k) => h("span", { class: "legend-item" },
      h("span", { class: ["swatch", `terrain-${k}`], "aria-hidden": "true" }), TERRAIN[k] || humanise(k))),
    h("span", { class: "legend-item" }, h("span", { class: "swatch side-0", "aria-hidden": "true" }), this.names()[0]),
    h("span", { class: "legend-item" }, h("span", { class: "swatch side-1", "aria-hidden": "true" }), this.names()[1]));
  }

  renderLog() {
    const steps = (this.view && this.view.log) || [];
    const units = this.unitsById();
    const name = (id) => (units.get(id) || { name: `unit ${id}` }).name;
    const lines = steps.flatMap((st) => describeStep(st, name, this.names()));
    fill(this.elLog, lines.slice(-120).map((line) => h("li", {}, line)));
    this.elLog.scrollTop = this.elLog.scrollHeight;
  }

  renderPrompt() {
    const v = this.view;
    const obs = this.obs();
    const parts = [];
    const units = this.unitsById();
    if (v.status !== "playing") {
      parts.push(h("p", {}, v.status === "quit" ? "The game was quit." : "The game is over."));
    } else if (this.order) {
      parts.push(h("h2", {}, this.order.title),
        h("p", {}, this.order.hint),
        h("button", { type: "button", class: "btn secondary", testid: "order-cancel", onclick: () => { this.order = null; this.render(); } }, "Cancel"));
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
    fill(this.elPrompt, parts);
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
        h("p", {}, byKind.size ? "Place these terrain pieces on the table, then tap the tick." : "This scenario has no terrain pieces: tap the tick."),
        h("ul", { class: "infra-list", testid: "infra-list" }, [...byKind].map(([kind, cells]) => h("li", {},
          h("span", { class: ["swatch", `terrain-${kind}`], "aria-hidden": "true" }),
          h("strong", {}, TERRAIN[kind] || humanise(kind)), " ", cells.map((c) => `[${c[0]}, ${c[1]}]`).join(" ")))),
        h("button", { type: "button", class: "btn primary huge tick", testid: "infra-tick",
          onclick: () => { localStorage.setItem(`iwgt-infra-${this.tableId}`, "1"); this.render(); this.afterRender(); } },
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
    const moves = this.selection && this.selection.unit === sel.id ? this.selection.moves || [] : null;
    out.push(h("p", { testid: "selected-unit" }, moves === null ? `${sel.name}: asking the table…`
      : moves.length ? `${sel.name}: tap a destination.` : `${sel.name} cannot move now.`));
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

  updateBanner(now) {
    const on = this.bannerUntil > now;
    this.elBanner.hidden = !on;
    if (on && this.elBanner.textContent !== this.banner) this.elBanner.textContent = this.banner;
  }

  updateTimer(now) {
    const t = this.view && this.view.timer;
    if (!t || this.timerEnd === null) {
      this.elTimer.textContent = "–:––";
      this.elTimer.className = "timer idle";
      this.elTimer.dataset.remaining = "";
      return;
    }
    const left = Math.max(0, (this.timerEnd - now) / 1000);
    const whole = Math.ceil(left);
    this.elTimer.textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    this.elTimer.className = ["timer", left < TIMER_RED_S ? "urgent" : "", t.seat === this.view.seat ? "mine" : ""].join(" ");
    this.elTimer.dataset.remaining = String(whole);
    this.elTimer.setAttribute("aria-label", `${whole} seconds left to move for ${this.names()[t.seat] || ""}`);
  }

  everySecond() {
    const now = performance.now();
    this.updateTimer(now);
    this.updateBanner(now);
    const expired = (list) => list.some((l) => l.expires && l.expires <= now);
    if (expired(this.lights.view) || expired(this.lights.error) || expired(this.lights.selection)) this.render();
  }

  /** Dialogs that follow a view: report, die, game over, the wizards' spells. */
  afterRender() {
    const v = this.view;
    if (!v) return;
    const names = this.names();
    // A step with combat first plays its lights (VX-14-04 to VX-14-07) on the board, then the report covers it.
    const fought = (v.events || []).some((e) => e.event === "AttackResolved" || e.event === "CloseCombatOutcome");
    const pause = fought ? LIGHTS_BEFORE_REPORT_MS : 0;
    if (v.status === "over" || v.status === "quit") {
      if (!this.dialogs.over) {
        this.dialogs.over = "pending";
        setTimeout(() => {
          this.closeTransientDialogs();
          this.dialogs.over = panels.showGameOver({
            result: v.result || this.obs().result, names, units: this.obs().units, report: v.report,
            plague: this.obs().plague_chain, title: v.status === "quit" ? "Game quit" : "Game Over",
            onNew: () => { this.socket.close(); location.assign("/"); },
            onExport: () => this.exportRecord(),
          });
        }, pause);
      }
      return;
    }
    if (v.die && !this.dialogs.die) {
      this.dialogs.die = panels.askDie(v.die, (face) => this.socket.die(face));
      this.dialogs.die.done.then(() => { this.dialogs.die = null; });
    } else if (!v.die && this.dialogs.die) {
      this.dialogs.die.close(null);
    }
    const reportKey = v.report ? `${v.report.turn ?? ""}:${JSON.stringify(v.report).length}` : "";
    if (v.report && reportKey !== this.dismissedReport && !this.dialogs.report) {
      this.dialogs.report = "pending";
      setTimeout(() => {
        this.dialogs.report = panels.showReport(v.report, names).then(() => {
          this.dismissedReport = reportKey;
          localStorage.setItem(`iwgt-report-${this.tableId}`, reportKey);
          this.dialogs.report = null;
        });
      }, pause);
    }
    // VX-15-05: each wizard is asked about his spells once the infrastructure is placed.
    if (this.deploying() && this.infraDone() && !this.dialogs.spells) {
      const next = this.actions().find((a) => a.type === "spells" && !this.spellsSent.has(a.unit));
      if (next) this.armWizard(next.unit);
    }
  }

  // ---------------------------------------------------------------- acting

  send(action) {
    if (!this.view) return null;
    return this.socket.act(this.view.seat, action);
  }

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
    this.afterRender();
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
    this.selected = null;
    this.selection = null;
    this.lights.selection = [];
    if (render) this.render();
  }

  selectUnit(id) {
    this.selected = id;
    this.selection = null;
    this.lights.selection = [];
    this.order = null;
    if (!this.deploying() && this.movable().has(id)) this.socket.select(this.view.seat, id);
    this.render();
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
      this.render();
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
    this.moveTo(this.selected, cell);
  }

  pickUp(id) {
    if (this.selected !== id) this.selectUnit(id);
  }

  setDown(id, cell) {
    const u = this.unitsById().get(id);
    if (!cell || !u || (u.cell && key(u.cell) === key(cell))) {
      this.render(); // back where it was
      return;
    }
    if (this.selected !== id) this.selected = id;
    this.tapCell(cell);
    this.render();
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
    this.render();
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
    this.render();
  }

  async openOptions() {
    const acts = this.actions();
    const canEnd = this.myTurn() && acts.some((a) => a.type === "end_phase");
    const troops = acts.filter((a) => a.type === "add_troops");
    const choice = await panels.optionsMenu({ canEnd, canAdd: troops.length > 0 });
    if (choice === "end_phase") this.endPhase();
    else if (choice === "add_troops") {
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
      this.render();
    } else if (choice === "quit") {
      await confirmQuit(this.socket);
    }
  }

  async exportRecord() {
    await downloadRecord(this.tableId, this.token);
  }
}

const MOVE_LABEL = { walk: "Walk", charge: "Charge!", fly: "Fly", pray: "Pray at the Temple" };
const ORDER_LABEL = { conceal: "Conceal", reveal: "Reveal", surface: "Surface", tunnel: "Tunnel", transport: "Through the portal",
  add_troops: "Add troops", cast: "Cast" };

function traitsFly(u) {
  return Boolean(u) && traitsOf(u.type).includes("flyer");
}

/** A short label for a preview's expected casualties: "−12 (30%)", and the attacker's own losses. */
function previewText(expected) {
  if (expected === null || expected === undefined) return "?";
  if (typeof expected === "number") return `−${fmtNum(expected)}`;
  const cas = typeof expected.casualties === "number" ? `−${fmtNum(expected.casualties)}` : "?";
  const share = typeof expected.share === "number" ? ` (${Math.round(expected.share * 100)}%)` : "";
  const back = typeof expected.attacker_losses === "number" ? ` · us −${fmtNum(expected.attacker_losses)}` : "";
  return `${cas}${share}${back}`;
}

function fmtNum(v) {
  return Math.abs(v) >= 10 ? String(Math.round(v)) : v.toFixed(1);
}
export { TableScreen as Screen };
