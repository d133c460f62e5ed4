// The Valhalla table screen: the top-down table in inches (inchboard.js), whose card is up and the activation,
// action buttons for the picked figure, the exact odds of a charge, a fight or a shot before it is committed,
// the dice results (or the entry of physical dice), each side's coins, each player's dealt cards, the figures'
// shock and wounds, the game log, and Game Over. It renders what the server sends (view, selection, preview,
// error) and sends the player's acts; every rule is the server's: a tapped point is sent as it is, and a
// refusal comes back with its reason.

import { h, fill, icon } from "/static/dom.js";
import { InchBoard, KIND_LETTER, KIND_NAME, pointText } from "/static/inchboard.js";
import { humanise } from "/static/api.js";
import { toast, modal, choose } from "/static/ui.js";
import * as panels from "/static/panels.js";
import { showConnection, closedScreen, fatalScreen, confirmQuit, downloadRecord } from "/static/screen.js";

const ILLEGAL_MS = 2000;
const DICE_SHOWN = 6; // rolls kept in the dice panel
const SNAP_INCHES = 0.5; // a tap this close to a charge-ready point goes exactly there
/** How long the board shows a combat's lights before Game Over covers it (the table's 3 s). */
const LIGHTS_BEFORE_OVER_MS = 3200;
const PHASES = { deal: "Dealing", activate: "Activation", baggage: "Baggage", over: "Game over" };
const SAVES = { killed: "to Valhalla!", wounded: "wounded", two_shock: "two shock", one_shock: "one shock", none: "no effect" };

/** A light as the board draws it: t0 is when it arrived; transient ones expire after delay + duration. */
function normaliseLight(l, now) {
  const delay = Math.max(0, Number(l.delay_ms) || 0);
  const duration = l.duration_ms ? Number(l.duration_ms) : null;
  return { ...l, pattern: l.pattern || "steady", delay_ms: delay, duration_ms: duration, t0: now,
    expires: duration ? now + delay + duration : null };
}

const pct = (p) => `${Math.round((Number(p) || 0) * 100)}%`;
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export class ValhallaScreen {
  constructor(root, tableId, token, socket) {
    this.root = root;
    this.tableId = tableId;
    this.token = token;
    this.socket = socket;
    this.welcome = null;
    this.view = null;
    this.lights = { view: [], selection: [], error: [] };
    this.selected = null; // the figure picked (one of mine to act, or any figure to see its rings)
    this.selection = null; // the server's answer for it
    this.mode = null; // "withdraw" while a withdrawal's point is awaited
    this.pending = null; // {action, title, verb}: a charge, fight or shot whose odds are asked for or shown
    this.odds = null; // the preview answer shown in the odds panel
    this.lastDice = { version: -1, rolls: [] };
    this.dialogs = { die: null, over: null };
    this.lastRefusal = null; // the reason of the last refused act, shown in red until the next view
    this.build();
    this.tick = setInterval(() => this.expireLights(), 250);
  }

  // ---------------------------------------------------------------- layout

  build() {
    document.title = "Valhalla: Intelligent Wargames Table";
    this.elTitle = h("div", { class: "title", testid: "table-title" }, "Valhalla");
    this.elPhase = h("div", { class: "phase", testid: "phase" }, "");
    this.elTurn = h("div", { class: "whose", testid: "whose-turn" }, "");
    this.elConn = h("div", { class: "conn", testid: "conn-state", "data-state": "connecting", role: "status" }, "Connecting");
    this.elBoardHost = h("div", { class: "board-host" });
    this.elLegend = h("div", { class: "legend", testid: "legend", "aria-label": "Legend" });
    this.elPrompt = h("section", { class: "prompt", testid: "vh-prompt", "aria-live": "polite" });
    this.elOdds = h("section", { class: "vh-odds", testid: "vh-odds", hidden: true, "aria-live": "polite" });
    this.elDice = h("section", { class: "vh-dice", testid: "vh-dice", "aria-live": "polite" });
    this.elCoins = h("div", { class: "vh-coins", testid: "vh-coins" });
    this.elHands = h("div", { class: "vh-hands", testid: "vh-hands" });
    this.elRoster = h("div", { class: "vh-roster", testid: "vh-roster" });
    this.elLog = h("ol", { class: "log", testid: "log" });
    this.elEnd = h("button", { type: "button", class: "btn primary", testid: "vh-action-end_activation", hidden: true,
      onclick: () => this.endActivation() }, "End activation");
    this.elOptions = h("button", { type: "button", class: "btn secondary", testid: "options-button",
      onclick: () => this.openOptions() }, icon("cog"), h("span", {}, "Options"));
    this.board = new InchBoard(this.elBoardHost, {
      onFigure: (id) => this.tapFigure(id),
      onPoint: (p) => this.tapPoint(p),
      onDrop: (id, p) => this.dropFigure(id, p),
    });
    fill(this.root,
      h("div", { class: "table-screen vh-screen" },
        h("header", { class: "topbar" },
          h("div", { class: "top-left" }, this.elTitle, this.elPhase),
          this.elTurn,
          h("div", { class: "top-right" }, this.elConn)),
        h("main", { class: "table-main" },
          h("section", { class: "board-area", "aria-label": "The table" }, this.elBoardHost, this.elLegend),
          h("aside", { class: "side" },
            this.elCoins,
            this.elPrompt,
            this.elOdds,
            this.elDice,
            h("h2", { class: "side-title" }, "Cards"),
            this.elHands,
            h("h2", { class: "side-title" }, "Figures"),
            this.elRoster,
            h("details", { class: "log-panel", testid: "log-panel", open: window.innerHeight > 700 },
              h("summary", {}, "Game log"), this.elLog))),
        h("footer", { class: "actionbar" }, this.elEnd, h("div", { class: "spacer" }), this.elOptions)));
  }

  // ---------------------------------------------------------------- messages

  onState(state, detail) {
    showConnection(this.elConn, state, detail);
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.welcome = msg;
        break;
      case "view":
        this.showView(msg);
        break;
      case "selection":
        if (msg.unit === this.selected) {
          this.selection = msg;
          this.lights.selection = (msg.lights || []).map((l) => normaliseLight(l, performance.now()));
          this.render();
        }
        break;
      case "preview":
        this.onPreview(msg);
        break;
      case "error":
        this.onError(msg);
        break;
      case "closed":
        this.onClosed(msg.reason);
        break;
      default:
        break;
    }
  }

  names() {
    return (this.welcome && this.welcome.names) || [];
  }

  seatName(seat) {
    return this.names()[seat] || `Seat ${seat}`;
  }

  mySeats() {
    return (this.welcome && this.welcome.seats) || (this.view && this.view.seats) || [];
  }

  showView(view) {
    const now = performance.now();
    const fresh = !this.view || view.version !== this.view.version || view.seat !== this.view.seat;
    this.view = view;
    this.lights.view = (view.lights || []).map((l) => normaliseLight(l, now));
    if (fresh) {
      this.lights.selection = [];
      this.selection = null;
      this.mode = null;
      this.pending = null;
      this.odds = null;
      this.lastRefusal = null;
      const obs = this.obs();
      const kept = this.selected !== null && (this.pickable().has(this.selected) || !this.myTurn());
      if (this.myTurn() && obs.active !== null && obs.active !== undefined) this.selected = obs.active;
      else if (!kept) this.selected = null;
      const f = this.selected === null ? null : this.figure(this.selected);
      if (!f || !f.alive) this.selected = null;
      if (this.selected !== null && view.seat !== null && view.seat !== undefined) this.socket.select(view.seat, this.selected);
      const rolls = (view.report && view.report.dice) || [];
      if (rolls.length && view.version > this.lastDice.version) {
        // The latest step's rolls first (in the order rolled), then a few steps back: with physical dice a
        // charge's dice and saves come in several steps.
        this.lastDice = { version: view.version, rolls: [...rolls, ...this.lastDice.rolls].slice(0, DICE_SHOWN) };
        const killed = rolls.some((r) => r.kind === "save" && r.effect === "killed");
        toast(rolls.map((r) => r.text).join("\n"), killed ? "error" : "info", 5000);
      }
      for (const c of (view.report && view.report.coins) || []) {
        const side = (this.obs().sides || [])[c.side] || {};
        toast(`${side.name || "A side"} +${plural(c.coins, "coin")}: ${c.reason}`, "ok", 5000);
      }
    }
    this.render();
    this.afterRender();
  }

  onPreview(msg) {
    if (!this.pending) return;
    if (!msg.legal) {
      toast(msg.reason || "That is not possible now.", "error");
      this.pending = null;
      this.odds = null;
    } else {
      this.odds = msg;
    }
    this.render();
  }

  onError(msg) {
    const now = performance.now();
    const lights = (msg.lights || []).map((l) => normaliseLight({ duration_ms: ILLEGAL_MS, ...l }, now));
    if (lights.length) this.lights.error = lights;
    this.lastRefusal = msg.message || humanise(msg.error || "refused");
    toast(this.lastRefusal, "error", 6000);
    if (msg.error === "unauthorized" && !this.welcome) {
      this.fatal("This link does not open the table", msg.message || "The invitation is not valid (any more).");
      return;
    }
    this.render();
    setTimeout(() => this.render(), ILLEGAL_MS + 50);
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

  // ---------------------------------------------------------------- derived facts

  obs() {
    return (this.view && this.view.observation) || {};
  }

  figure(id) {
    return (this.obs().figures || []).find((f) => f.id === id) || null;
  }

  figName(id) {
    const f = this.figure(id);
    return f ? f.name : `figure ${id}`;
  }

  thingName(id) {
    const t = (this.obs().things || []).find((x) => x.id === id);
    return t ? t.name : `thing ${id}`;
  }

  actions() {
    return (this.view && this.view.options && this.view.options.actions) || [];
  }

  myTurn() {
    const v = this.view;
    if (!v || v.status !== "playing") return false;
    return v.to_move !== null && v.to_move === v.seat && this.mySeats().includes(v.seat);
  }

  /** Figures this screen may pick to act with now. */
  pickable() {
    if (!this.myTurn() || this.obs().phase !== "activate") return new Set();
    return new Set((this.view.options && this.view.options.movable) || []);
  }

  actionsFor(fid) {
    return this.actions().filter((a) => a.figure === fid);
  }

  // ---------------------------------------------------------------- rendering

  expireLights() {
    const now = performance.now();
    const expired = (list) => list.some((l) => l.expires && l.expires <= now);
    if (expired(this.lights.view) || expired(this.lights.error) || expired(this.lights.selection)) this.render();
  }

  render() {
    const v = this.view;
    if (!v) return;
    const obs = this.obs();
    const now = performance.now();
    const live = (list) => list.filter((l) => !l.expires || l.expires > now);
    this.lights.view = live(this.lights.view);
    this.lights.selection = live(this.lights.selection);
    this.lights.error = live(this.lights.error);
    this.board.setTable(obs.table || { width: 24, height: 16 }, obs.sides || [], obs.objectives || []);
    const points = [];
    const selection = this.selection && this.selection.unit === this.selected ? this.selection : null;
    if (selection && this.mode === "withdraw") {
      for (const w of selection.withdrawals || []) points.push({ at: w.to, kind: "withdraw" });
    } else if (selection && this.pickable().has(this.selected)) {
      for (const a of selection.approach || []) points.push({ at: a.to, kind: `approach-${a.target}` });
    }
    if (this.myTurn() && obs.phase === "baggage") {
      for (const a of this.actions()) if (a.type === "move_baggage") points.push({ at: a.to, kind: "baggage" });
    }
    this.board.render({
      obs,
      lights: [...this.lights.view, ...this.lights.selection, ...this.lights.error],
      pickable: this.pickable(),
      selected: this.selected,
      selection,
      points,
    });
    this.root.dataset.seat = String(v.seat);
    this.renderHeader(obs);
    this.renderLegend(obs);
    this.renderCoins(obs);
    this.renderPrompt(obs);
    this.renderOdds();
    this.renderDice();
    this.renderHands();
    this.renderRoster(obs);
    this.renderLog();
    const canEnd = this.myTurn() && this.actions().some((a) => a.type === "end_activation");
    this.elEnd.hidden = !canEnd;
    if (canEnd) {
      this.elEnd.textContent = obs.phase === "baggage" ? "Leave the baggage" : obs.active === null || obs.active === undefined
        ? "Pass the card" : "End activation";
    }
  }

  renderHeader(obs) {
    const v = this.view;
    this.elTitle.textContent = obs.title || humanise(obs.scenario || "Valhalla");
    this.elTitle.title = `Table ${this.tableId}`;
    const up = obs.card_up ? ` · ${obs.card_up.label} up` : "";
    this.elPhase.textContent = `Turn ${obs.turn}${obs.turn_limit ? ` of ${obs.turn_limit}` : ""} · ${PHASES[obs.phase] || humanise(obs.phase || "")}${up}`;
    let whose;
    if (v.status !== "playing") whose = v.status === "quit" ? "Game quit" : "Game over";
    else if (v.to_move === null || v.to_move === undefined) whose = v.die ? "Roll the die" : "The table rolls…";
    else if (this.myTurn()) whose = `Your turn: ${this.seatName(v.to_move)}`;
    else whose = `${this.seatName(v.to_move)} to play`;
    this.elTurn.textContent = whose;
    this.elTurn.dataset.mine = this.myTurn() ? "true" : "false";
    this.elTurn.dataset.seat = String(v.to_move ?? "");
  }

  renderLegend(obs) {
    const t = obs.table || {};
    const kinds = new Set([...(t.areas || []).map((a) => a.kind), ...(t.hills || []).map(() => "hill"),
      ...(t.obstacles || []).map((o) => o.kind)]);
    const items = [...kinds].map((k) => h("span", { class: "legend-item" },
      h("span", { class: ["swatch", `vh-swatch-${k}`], "aria-hidden": "true" }), humanise(k)));
    for (const [i, sd] of (obs.sides || []).entries()) {
      items.push(h("span", { class: "legend-item" }, h("span", { class: "swatch round", style: { background: sd.colour }, "aria-hidden": "true" }),
        sd.name || `Side ${i}`));
    }
    items.push(h("span", { class: "legend-item" }, "H hero · W warrior · A archer · S slinger"),
      h("span", { class: "legend-item" }, h("span", { class: "swatch round pip-shock", "aria-hidden": "true" }), "shock"),
      h("span", { class: "legend-item" }, h("span", { class: "swatch round pip-wound", "aria-hidden": "true" }), "wound"));
    fill(this.elLegend, items);
  }

  renderCoins(obs) {
    const sides = obs.sides || [];
    fill(this.elCoins, sides.map((sd, i) => h("div", { class: "vh-coin-row", testid: `vh-coins-${i}`,
      "data-coins": sd.coins, "data-target": sd.target, style: { "--side": sd.colour } },
    h("span", { class: "vh-side-dot", "aria-hidden": "true" }),
    h("strong", {}, sd.name),
    h("span", { class: "vh-coin-count" }, `${sd.coins} / ${sd.target} coins`),
    h("span", { class: "vh-coin-bar", "aria-hidden": "true" },
      h("span", { style: { width: `${Math.min(100, (100 * sd.coins) / Math.max(1, sd.target))}%` } })))),
    (obs.objectives || []).map((o) => h("div", { class: ["vh-objective", o.achieved && "achieved"], testid: `vh-objective-${o.id}`,
      "data-achieved": o.achieved ? "true" : "false", style: { "--side": (sides[o.side] || {}).colour || "#888" } },
    h("span", { class: "vh-side-dot", "aria-hidden": "true" }),
    `${o.achieved ? "✔ " : ""}${(sides[o.side] || {}).name || ""}: ${o.title}`)));
  }

  renderPrompt(obs) {
    const v = this.view;
    const parts = [];
    if (v.status !== "playing") {
      parts.push(h("p", {}, v.status === "quit" ? "The game was quit." : "The game is over."));
    } else if (v.die) {
      parts.push(h("h2", {}, "Roll the die"), h("p", {}, `The table waits for a d${v.die.sides}: ${v.die.purpose}.`));
    } else if (!this.myTurn()) {
      parts.push(h("h2", {}, "Please wait"), h("p", {}, v.to_move === null || v.to_move === undefined
        ? "The table is rolling." : `${this.seatName(v.to_move)} is playing${obs.card_up ? ` the ${obs.card_up.label}` : ""}.`));
      if (this.selected !== null) parts.push(h("p", { class: "muted" }, `${this.figName(this.selected)}: its rings are drawn on the table.`));
    } else if (obs.phase === "baggage") {
      const t = (obs.things || []).find((x) => x.id === obs.baggage_up);
      parts.push(h("h2", {}, "Baggage"), h("p", {}, `End of turn ${obs.turn}: tap where the ${t ? t.name : "baggage"} goes (up to 6"), or leave it.`));
    } else if (this.mode === "withdraw") {
      parts.push(h("h2", {}, "Withdraw"), h("p", {}, `Tap a point up to 2" away, out of contact (the dots are some).`),
        h("button", { type: "button", class: "btn secondary", testid: "vh-cancel-mode", onclick: () => { this.mode = null; this.render(); } }, "Cancel"));
    } else {
      const active = obs.active;
      const card = obs.card_up ? obs.card_up.label : "";
      if (active === null || active === undefined) {
        parts.push(h("h2", {}, `Your card: ${card}`),
          h("p", {}, "Tap a lit figure to activate it: its first action does. Or pass the card."));
      } else {
        parts.push(h("h2", {}, `${this.figName(active)}`),
          h("p", { testid: "vh-actions-left" }, `${plural(obs.actions_left ?? 0, "action")} left.`));
      }
      const sel = this.selected !== null && this.pickable().has(this.selected) ? this.figure(this.selected) : null;
      if (sel) parts.push(...this.actionButtons(sel));
    }
    if (this.lastRefusal) parts.push(h("p", { class: "vh-refusal", testid: "vh-refusal", role: "alert" }, this.lastRefusal));
    fill(this.elPrompt, parts);
  }

  actionButtons(f) {
    const out = [];
    const acts = this.actionsFor(f.id);
    const moves = this.selection && this.selection.unit === f.id ? this.selection.moves || [] : [];
    out.push(h("p", { class: "muted", testid: "vh-selected" }, `${f.name} (${KIND_NAME[f.kind] || f.kind}).`,
      moves.length ? " Tap a point on the table to move it there (up to 6\"; half speed in woods, village or uphill)." : ""));
    const buttons = [];
    const button = (testid, label, onclick, kind = "secondary") => buttons.push(h("button", { type: "button", class: ["btn", kind],
      testid, onclick }, label));
    if (moves.length) button("vh-action-move", "Move: tap the table", () => toast("Tap the point on the table where it goes."));
    const obstacles = (this.obs().table && this.obs().table.obstacles) || [];
    let withdraw = false;
    for (const a of acts) {
      switch (a.type) {
        case "cross": button(`vh-action-cross-${a.obstacle}`, `Cross ${(obstacles[a.obstacle] || {}).name || "the obstacle"}`, () => this.send(a)); break;
        case "charge": button(`vh-action-charge-${a.target}`, `Charge ${this.figName(a.target)}…`, () => this.ask(a), "primary"); break;
        case "shoot": button(`vh-action-shoot-${a.target}`, `Shoot at ${this.figName(a.target)}…`, () => this.ask(a), "primary"); break;
        case "fight": button(`vh-action-fight-${a.opponent}`, `Continue fighting ${this.figName(a.opponent)}…`, () => this.ask(a), "primary"); break;
        case "withdraw": withdraw = true; break;
        case "pick_up": button(`vh-action-pick_up-${a.thing}`, `Pick up the ${this.thingName(a.thing)}`, () => this.send(a)); break;
        case "drop": button("vh-action-drop", `Drop the ${this.thingName(f.carrying)}`, () => this.send(a)); break;
        case "recover": button("vh-action-recover", "Recover (remove a shock marker)", () => this.send(a)); break;
        default: break;
      }
    }
    if (withdraw) button("vh-action-withdraw", "Withdraw…", () => { this.mode = "withdraw"; this.render(); });
    if (buttons.length) out.push(h("div", { class: "row vh-actions", testid: "vh-actions" }, buttons));
    return out;
  }

  renderOdds() {
    const p = this.pending;
    if (!p) {
      this.elOdds.hidden = true;
      this.elOdds.replaceChildren();
      return;
    }
    this.elOdds.hidden = false;
    const parts = [h("h2", {}, p.title)];
    const o = this.odds && this.odds.odds;
    if (!this.odds) parts.push(h("p", { class: "muted" }, "Asking the table for the odds…"));
    else if (!o) parts.push(h("p", { class: "muted" }, "No odds for this action."));
    else if (o.kind === "shot") {
      const band = o.range_band ? `${o.range_band} range` : "";
      const cover = o.inputs && o.inputs.cover ? ", target in cover" : "";
      parts.push(h("p", { class: "big-text", testid: "vh-odds-hit" }, `Hit: ${pct(o.hit)}`),
        h("p", { class: "muted" }, `Needs ${o.needs}+ on a d6 (${band}${cover}).`),
        this.fates(this.figName(p.action.target), o, "vh-odds-target"));
    } else {
      const a = p.action.figure;
      const d = p.action.target ?? p.action.opponent;
      const w = o.winner || {};
      parts.push(h("p", { class: "big-text", testid: "vh-odds-win" }, `${this.figName(a)} scores higher: ${pct(w.attacker)}`),
        h("p", { class: "muted" }, `${this.figName(d)} scores higher: ${pct(w.defender)} · equal: ${pct(w.neither)}`),
        this.hitsLine(`Hits on ${this.figName(d)}`, o.attacker_hits),
        this.hitsLine(`Hits on ${this.figName(a)}`, o.defender_hits),
        this.fates(this.figName(d), o.defender || {}, "vh-odds-target"),
        this.fates(this.figName(a), o.attacker || {}, "vh-odds-self"));
    }
    parts.push(h("div", { class: "row" },
      h("button", { type: "button", class: "btn primary huge", testid: "vh-confirm", disabled: !this.odds,
        onclick: () => this.confirm() }, p.verb),
      h("button", { type: "button", class: "btn secondary", testid: "vh-cancel", onclick: () => this.cancelOdds() }, "Cancel")));
    fill(this.elOdds, parts);
  }

  hitsLine(label, dist) {
    const d = dist || {};
    return h("p", {}, `${label}: `, ["0", "1", "2"].filter((k) => k in d).map((k) => `${k}: ${pct(d[k])}`).join(" · "));
  }

  fates(name, o, testid) {
    return h("table", { class: "vh-fates", testid },
      h("caption", {}, name),
      h("tr", {}, ["killed", "wounded", "shocked", "unharmed"].map((k) => h("th", { scope: "col" }, humanise(k)))),
      h("tr", {}, ["killed", "wounded", "shocked", "unharmed"].map((k) => h("td", { testid: `${testid}-${k}` }, pct(o[k])))));
  }

  renderDice() {
    const rolls = this.lastDice.rolls;
    if (!rolls.length) {
      fill(this.elDice, h("h2", {}, "Dice"), h("p", { class: "muted" }, this.view && this.view.dice === "physical"
        ? "Physical dice: the table asks for each roll." : "The table rolls the dice."));
      return;
    }
    fill(this.elDice, h("h2", {}, "Dice"), h("ul", { class: "vh-rolls" }, rolls.map((r) => {
      if (r.kind === "combat") {
        return h("li", { class: "vh-roll combat", testid: "vh-roll-combat" },
          h("span", { class: "die-chip" }, `d${r.attacker_die} ${r.attacker_face}`), ` ${this.figName(r.attacker)} scores ${r.attacker_score}; `,
          h("span", { class: "die-chip" }, `d${r.defender_die} ${r.defender_face}`), ` ${this.figName(r.defender)} scores ${r.defender_score}: `,
          h("strong", {}, r.attacker_hits ? `${plural(r.attacker_hits, "hit")} on ${this.figName(r.defender)}`
            : r.defender_hits ? `${plural(r.defender_hits, "hit")} on ${this.figName(r.attacker)}` : "no hits"));
      }
      if (r.kind === "shot") {
        return h("li", { class: ["vh-roll", "shot", r.hit ? "hit" : "miss"], testid: "vh-roll-shot" },
          h("span", { class: "die-chip" }, `d6 ${r.face}`), ` ${this.figName(r.shooter)} shoots at ${this.figName(r.target)}: needs ${r.needs}+ `,
          h("strong", {}, r.hit ? "hit!" : "miss"));
      }
      return h("li", { class: ["vh-roll", "save", r.effect], testid: "vh-roll-save" },
        h("span", { class: "die-chip death" }, `☠ ${r.face}`), ` Dice of Death for ${this.figName(r.figure)}: `, h("strong", {}, SAVES[r.effect] || r.effect));
    })));
  }

  renderHands() {
    const cards = (this.view && this.view.cards) || [];
    const obs = this.obs();
    fill(this.elHands, cards.map((p) => {
      const side = (obs.sides || [])[p.side] || {};
      return h("div", { class: ["vh-hand", p.mine && "mine"], testid: `vh-hand-${p.seat}`, style: { "--side": side.colour || "#888" } },
        h("span", { class: "vh-hand-name" }, this.seatName(p.seat)),
        h("span", { class: "vh-cards" }, p.cards.map((c) => h("span", {
          class: ["vh-card", c.up && "up", c.played && "played", /[♦♥]/.test(c.label) && "red"],
          testid: `vh-card-${p.seat}-${c.label}`,
          "data-up": c.up ? "true" : "false",
          "data-played": c.played ? "true" : "false",
          title: c.up ? "This card is up" : c.played ? "Played" : "To come",
        }, c.label))));
    }));
  }

  renderRoster(obs) {
    fill(this.elRoster, (obs.figures || []).map((f) => {
      const side = (obs.sides || [])[f.side] || {};
      return h("button", { type: "button", class: ["vh-roster-row", !f.alive && "dead", f.activated && "activated", this.selected === f.id && "selected"],
        testid: `vh-roster-${f.id}`, style: { "--side": side.colour || "#888" }, onclick: () => this.tapFigure(f.id) },
      h("span", { class: "vh-roster-letter" }, KIND_LETTER[f.kind] || "?"),
      h("span", { class: "vh-roster-name" }, f.name),
      h("span", { class: "vh-roster-state" }, !f.alive ? "in Valhalla" : [
        (obs.players || []).length > 2 ? ((obs.players || [])[f.seat] || {}).name : "",
        f.in_combat ? "in combat" : "", f.activated ? "activated" : "", f.carrying !== null && f.carrying !== undefined ? `carries the ${this.thingName(f.carrying)}` : "",
      ].filter(Boolean).join(" · ")),
      h("span", { class: "vh-pips", "aria-label": `${f.shock} shock, ${f.wounds} wounds` },
        Array.from({ length: f.shock || 0 }, () => h("span", { class: "pip shock" })),
        Array.from({ length: f.wounds || 0 }, () => h("span", { class: "pip wound" }))));
    }));
  }

  renderLog() {
    const steps = (this.view && this.view.log) || [];
    const lines = steps.flatMap((st) => this.describeStep(st));
    fill(this.elLog, lines.slice(-150).map((line) => h("li", {}, line)));
    this.elLog.scrollTop = this.elLog.scrollHeight;
  }

  describeStep(step) {
    const out = [];
    const a = step.action;
    if (a && step.actor >= 0) {
      const text = this.describeAction(a);
      if (text) out.push(`${this.seatName(step.actor)}: ${text}`);
    }
    for (const e of step.events || []) {
      const text = this.describeEvent(e);
      if (text) out.push(text);
    }
    return out;
  }

  describeAction(a) {
    const n = (id) => this.figName(id);
    switch (a.type) {
      case "charge": return `${n(a.figure)} charges ${n(a.target)}`;
      case "shoot": return `${n(a.figure)} shoots at ${n(a.target)}`;
      case "fight": return `${n(a.figure)} fights on against ${n(a.opponent)}`;
      case "pick_up": return `${n(a.figure)} picks up the ${this.thingName(a.thing)}`;
      case "drop": return `${n(a.figure)} drops what it carries`;
      case "recover": return `${n(a.figure)} recovers`;
      default: return "";
    }
  }

  describeEvent(e) {
    const n = (id) => this.figName(id);
    const sides = this.obs().sides || [];
    const side = (i) => (sides[i] || {}).name || `side ${i}`;
    switch (e.event) {
      case "TurnBegan": return `Turn ${e.turn}: the cards are shuffled and dealt.`;
      case "CardUp": return `${e.label} is up: ${this.seatName(e.seat)}.`;
      case "CardPassed": return `${this.seatName(e.seat)} passes the ${e.label} (${e.reason}).`;
      case "FigureActivated": return `${n(e.figure)} is activated (${plural(e.actions, "action")}).`;
      case "FigureMoved": return `${n(e.figure)} moves to ${pointText(e.path[e.path.length - 1])} (${e.cost}").`;
      case "ObstacleCrossed": return `${n(e.figure)} crosses an obstacle to ${pointText(e.to)}.`;
      case "Charged": return `${n(e.figure)} charges ${n(e.target)}!`;
      case "Withdrew": return `${n(e.figure)} withdraws to ${pointText(e.to)}.`;
      case "Fought": return `Combat: ${n(e.attacker)} rolls ${e.attacker_face} (${e.attacker_score}), ${n(e.defender)} rolls ${e.defender_face} (${e.defender_score})${
        e.attacker_hits ? `: ${plural(e.attacker_hits, "hit")} on ${n(e.defender)}` : e.defender_hits ? `: ${plural(e.defender_hits, "hit")} on ${n(e.attacker)}` : ": no hits"}.`;
      case "ShotFired": return `${n(e.shooter)} shoots at ${n(e.target)}: ${e.face}, needs ${e.needs}+: ${e.hit ? "a hit" : "a miss"}.`;
      case "SavingThrow": return `Dice of Death for ${n(e.figure)}: ${e.face}, ${SAVES[e.effect] || e.effect}.`;
      case "FigureHurt": return `${n(e.figure)}: ${plural(e.shock, "shock marker")}, ${plural(e.wounds, "wound")}.`;
      case "FigureKilled": return `${n(e.figure)} goes to Valhalla.`;
      case "Recovered": return `${n(e.figure)} recovers: ${plural(e.shock, "shock marker")} left.`;
      case "ThingPickedUp": return `${n(e.figure)} picks up the ${this.thingName(e.thing)}.`;
      case "ThingDropped": return `The ${this.thingName(e.thing)} is dropped at ${pointText(e.at)}.`;
      case "BaggageMoved": return `The ${this.thingName(e.baggage)} moves to ${pointText(e.path[e.path.length - 1])}.`;
      case "CoinsWon": return `${side(e.side)} +${plural(e.coins, "coin")}: ${e.reason} (${e.total} in all).`;
      case "ObjectiveAchieved": return `${side(e.side)} achieve: ${e.title}.`;
      case "TurnEnded": return `Turn ${e.turn} ends.`;
      case "GameOver": return `Game over: ${e.side === null || e.side === undefined ? "a draw" : `${side(e.side)} win`} (${e.reason}).`;
      default: return "";
    }
  }

  /** Dialogs that follow a view: the die to roll by hand, Game Over. */
  afterRender() {
    const v = this.view;
    if (!v) return;
    if (v.status === "over" || v.status === "quit") {
      if (this.dialogs.die) this.dialogs.die.close(null);
      if (!this.dialogs.over) {
        this.dialogs.over = "pending";
        const fought = (v.events || []).some((e) => e.event === "Fought" || e.event === "ShotFired");
        setTimeout(() => this.showGameOver(), fought ? LIGHTS_BEFORE_OVER_MS : 0);
      }
      return;
    }
    // One dialog per awaited die: a die answered on another screen closes this one, and the next opens.
    if (this.dialogs.die && (!v.die || this.dialogs.dieVersion !== v.version)) {
      this.dialogs.die.close(null);
      this.dialogs.die = null;
    }
    if (v.die && !this.dialogs.die) {
      const dlg = panels.askDie(v.die, (face) => this.socket.die(face));
      this.dialogs.die = dlg;
      this.dialogs.dieVersion = v.version;
      dlg.done.then(() => { if (this.dialogs.die === dlg) this.dialogs.die = null; });
    }
  }

  showGameOver() {
    const v = this.view;
    const obs = this.obs();
    const res = obs.result || {};
    const sides = obs.sides || [];
    const winner = res.side !== null && res.side !== undefined ? sides[res.side] : null;
    const reason = res.reason || (v.result && v.result.reason) || "";
    const quit = v.status === "quit";
    const body = [
      h("p", { class: "verdict", testid: "game-over-winner" }, quit ? "The game was quit." : winner ? `${winner.name} win!` : "A draw."),
      reason ? h("p", { class: "muted", testid: "game-over-reason" }, reason.charAt(0).toUpperCase() + reason.slice(1)) : null,
      h("div", { class: "vh-final", testid: "vh-final-coins" }, sides.map((sd, i) => h("div", { class: "vh-coin-row", testid: `vh-final-coins-${i}`,
        style: { "--side": sd.colour } }, h("span", { class: "vh-side-dot" }), h("strong", {}, sd.name), ` ${sd.coins} of ${sd.target} coins`))),
      h("ul", { class: "vh-final-figures" }, (obs.figures || []).map((f) => h("li", {},
        `${f.name}: ${!f.alive ? "in Valhalla" : f.wounds ? plural(f.wounds, "wound") : f.shock ? plural(f.shock, "shock marker") : "unharmed"}`))),
    ];
    const dlg = modal({
      title: quit ? "Game quit" : "Game Over",
      testid: "game-over-modal",
      wide: true,
      body,
      buttons: [
        { label: "Export record", value: "export", testid: "game-over-export" },
        { label: "New game", value: "new", kind: "primary huge", testid: "new-game" },
      ],
    });
    this.dialogs.over = dlg;
    dlg.done.then((choice) => {
      if (choice === "export") {
        this.exportRecord();
        this.showGameOver();
      } else {
        this.socket.close();
        location.assign("/");
      }
    });
  }

  // ---------------------------------------------------------------- acting

  send(action) {
    if (!this.view) return null;
    this.pending = null;
    this.odds = null;
    return this.socket.act(this.view.seat, action);
  }

  select(id) {
    this.selected = id;
    this.selection = null;
    this.lights.selection = [];
    this.mode = null;
    this.pending = null;
    this.odds = null;
    this.lastRefusal = null;
    if (id !== null && this.view && this.view.seat !== null && this.view.seat !== undefined) this.socket.select(this.view.seat, id);
    this.render();
  }

  tapFigure(id) {
    const f = this.figure(id);
    if (!f || !f.alive) return;
    if (this.pickable().has(id)) {
      if (this.selected !== id) this.select(id);
      return;
    }
    const sel = this.selection && this.selection.unit === this.selected && this.pickable().has(this.selected) ? this.selection : null;
    const targets = sel ? (sel.targets || []).filter((t) => t.target === id) : [];
    if (targets.length === 1) {
      this.ask(targets[0].action);
      return;
    }
    if (targets.length > 1) {
      choose(`${f.name}`, targets.map((t) => ({ label: this.actionTitle(t.action), value: t.action, kind: "primary",
        testid: `vh-choose-${t.kind}` })), "vh-choose").then((a) => { if (a) this.ask(a); });
      return;
    }
    if (this.mode === "withdraw" || (sel && this.figure(this.selected).side === f.side)) {
      toast(`${f.name}: ${KIND_NAME[f.kind] || f.kind}${f.shock ? `, ${plural(f.shock, "shock marker")}` : ""}${f.wounds ? `, ${plural(f.wounds, "wound")}` : ""}`);
      return;
    }
    // Any other figure: see its rings (everything is public in Valhalla).
    this.select(this.selected === id ? null : id);
  }

  tapPoint(p) {
    const v = this.view;
    if (!v || !this.myTurn()) return;
    const obs = this.obs();
    if (obs.phase === "baggage") {
      if (obs.baggage_up !== null && obs.baggage_up !== undefined) this.send({ type: "move_baggage", baggage: obs.baggage_up, to: p });
      return;
    }
    if (this.selected === null || !this.pickable().has(this.selected)) {
      toast("Tap one of your lit figures first.");
      return;
    }
    if (this.mode === "withdraw") {
      this.send({ type: "withdraw", figure: this.selected, to: p });
      return;
    }
    this.send({ type: "move", figure: this.selected, to: this.snap(p) });
  }

  /**
   * A tap near a charge-ready point (exactly at an enemy's 2" zone, from where a charge can follow) means that
   * point: no finger can hit hundredths of an inch.
   */
  snap(p) {
    const sel = this.selection && this.selection.unit === this.selected ? this.selection : null;
    let best = null;
    for (const a of (sel && sel.approach) || []) {
      const d = Math.hypot(a.to[0] - p[0], a.to[1] - p[1]);
      if (d <= SNAP_INCHES && (!best || d < best.d)) best = { d, to: a.to };
    }
    return best ? best.to : p;
  }

  dropFigure(id, p) {
    if (!this.pickable().has(id)) return;
    if (this.selected !== id) this.select(id);
    this.send(this.mode === "withdraw" ? { type: "withdraw", figure: id, to: p } : { type: "move", figure: id, to: this.snap(p) });
  }

  actionTitle(a) {
    switch (a.type) {
      case "charge": return `${this.figName(a.figure)} charges ${this.figName(a.target)}`;
      case "shoot": return `${this.figName(a.figure)} shoots at ${this.figName(a.target)}`;
      case "fight": return `${this.figName(a.figure)} fights ${this.figName(a.opponent)}`;
      default: return humanise(a.type);
    }
  }

  /** A charge, fight or shot: ask the table for its odds; the odds panel confirms it. */
  ask(action) {
    const verbs = { charge: "Charge!", shoot: "Shoot", fight: "Fight" };
    this.pending = { action, title: this.actionTitle(action), verb: verbs[action.type] || "Confirm" };
    this.odds = null;
    this.socket.preview(this.view.seat, action);
    this.render();
  }

  confirm() {
    if (!this.pending || !this.odds) return;
    const { action } = this.pending;
    this.send(action);
    this.render();
  }

  cancelOdds() {
    this.pending = null;
    this.odds = null;
    this.render();
  }

  endActivation() {
    this.mode = null;
    this.send({ type: "end_activation" });
  }

  async openOptions() {
    const choice = await modal({
      title: "Options",
      testid: "options-menu",
      dismissable: true,
      buttons: [
        { label: "Quit Game", value: "quit", kind: "danger", testid: "options-quit" },
        { label: "Close", value: undefined, testid: "options-close" },
      ],
    }).done;
    if (choice === "quit") await confirmQuit(this.socket);
  }

  async exportRecord() {
    await downloadRecord(this.tableId, this.token);
  }
}
export { ValhallaScreen as Screen };
