// The Valhalla screen inside the shell (docs/screen-shell.md): the top-down table in inches (the shared
// inchboard.js, fed this game's terrain and figures), whose card is up and the activation, action buttons for
// the picked figure, the exact odds of a charge, a fight or a shot before it is committed, the dice results,
// each side's coins and objectives, each player's dealt cards, the figures' shock and wounds and Game Over's
// final coins. It renders what the server sends (view, selection, preview) and sends the player's acts; every
// rule is the server's: a tapped point is sent as it is, and a refusal comes back with its reason. Every
// sentence about play is the server's too (the game's words.py): the log (shown by the shell), each roll's
// `text` and a save's `words` in the dice panel, a coin's `text` in its toast.
//
// The buttons of the picked figure (move, charge, shoot, fight, ...) and the odds panel's Confirm and Cancel are
// in one dock right under the prompt and the odds; valhalla.css keeps it in view (sticky) when the side panel
// scrolls, so on a phone or a tablet they are always in reach.

import { h, fill } from "/static/dom.js";
import { InchBoard } from "/static/inchboard.js";
import { humanise } from "/static/api.js";
import { toast, choose } from "/static/ui.js";

const DICE_SHOWN = 6; // rolls kept in the dice panel
const SNAP_INCHES = 0.5; // a tap this close to a charge-ready point goes exactly there
const PHASES = { deal: "Dealing", activate: "Activation", baggage: "Baggage", over: "Game over" };
const KIND_LETTER = { hero: "H", warrior: "W", archer: "A", slinger: "S" };
const KIND_NAME = { hero: "Hero", warrior: "Warrior", archer: "Archer", slinger: "Slinger" };
const TERRAIN_NAMES = { woods: "Woods", village: "Village", hill: "Hill", hedge: "Hedge", fence: "Fence" };
const RING_LABEL_DEGREES = { move: 90, charge: 270, close: 135, range: 60 };

const pct = (p) => `${Math.round((Number(p) || 0) * 100)}%`;
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A sentence with its last mention of `part` in bold (a save's effect): the same words, only set off. */
function emphasise(text, part) {
  const at = part ? text.lastIndexOf(part) : -1;
  if (at < 0) return part ? [text, " ", h("strong", {}, part)] : [text];
  return [text.slice(0, at), h("strong", {}, part), text.slice(at + part.length)];
}

export class Screen {
  /** Valhalla hides nothing (the cards are dealt face up): a shared screen follows the card, uncovered. */
  static secrets = false;
  /** The shell's prompt and red reason keep this screen's test ids. */
  static testids = { prompt: "vh-prompt", refusal: "vh-refusal" };

  constructor(shell) {
    this.shell = shell;
    this.mode = null; // "withdraw" while a withdrawal's point is awaited
    this.pending = null; // {action, title, verb}: a charge, fight or shot whose odds are asked for or shown
    this.odds = null; // the preview answer shown in the odds panel
    this.lastDice = { version: -1, rolls: [] };
    shell.addStylesheet(new URL("./valhalla.css", import.meta.url).href);
  }

  mount(slots) {
    this.elOdds = h("section", { class: "vh-odds", testid: "vh-odds", hidden: true, "aria-live": "polite" });
    this.elDice = h("section", { class: "vh-dice", testid: "vh-dice", "aria-live": "polite" });
    this.elCoins = h("div", { class: "vh-coins", testid: "vh-coins" });
    this.elHands = h("div", { class: "vh-hands", testid: "vh-hands" });
    this.elRoster = h("div", { class: "vh-roster", testid: "vh-roster" });
    this.elDock = h("div", { class: "vh-dock", testid: "vh-dock" });
    this.elEnd = h("button", { type: "button", class: "btn primary", testid: "vh-action-end_activation", hidden: true,
      onclick: () => this.endActivation() }, "End activation");
    this.board = new InchBoard(slots.board, {
      onPiece: (id) => this.tapFigure(id),
      onPoint: (p) => this.tapPoint(p),
      onDrop: (id, p) => this.dropFigure(id, p),
    }, { prefix: "vh-" });
    return {
      className: "vh-screen",
      side: [this.elCoins, slots.prompt, this.elOdds, this.elDock, this.elDice, h("h2", { class: "side-title" }, "Cards"), this.elHands,
        h("h2", { class: "side-title" }, "Figures"), this.elRoster],
      actions: [this.elEnd],
    };
  }

  // ---------------------------------------------------------------- the shell's state, read here

  get view() { return this.shell.view; }
  get selected() { return this.shell.selected; }
  get selection() { return this.shell.selection; }

  redraw() { this.shell.render(); }
  obs() { return this.shell.obs(); }
  actions() { return this.shell.actions(); }
  myTurn() { return this.shell.myTurn(); }
  seatName(seat) { return this.shell.seatName(seat); }

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

  /** Figures this screen may pick to act with now. */
  pickable() {
    if (!this.myTurn() || this.obs().phase !== "activate") return new Set();
    return this.shell.movable();
  }

  actionsFor(fid) {
    return this.actions().filter((a) => a.figure === fid);
  }

  // ---------------------------------------------------------------- hooks the shell calls

  onView(view, { fresh }) {
    if (!fresh) return;
    this.mode = null;
    this.pending = null;
    this.odds = null;
    const obs = view.observation || {};
    let id = this.selected;
    const kept = id !== null && (this.pickable().has(id) || !this.myTurn());
    if (this.myTurn() && obs.active !== null && obs.active !== undefined) id = obs.active;
    else if (!kept) id = null;
    const f = id === null ? null : this.figure(id);
    if (!f || !f.alive) id = null;
    this.shell.select(id, { render: false });
    const rolls = (view.report && view.report.dice) || [];
    if (rolls.length && view.version > this.lastDice.version) {
      // The latest step's rolls first (in the order rolled), then a few steps back: with physical dice a
      // charge's dice and saves come in several steps.
      this.lastDice = { version: view.version, rolls: [...rolls, ...this.lastDice.rolls].slice(0, DICE_SHOWN) };
      // A save's `then` says what it did beyond its effect (a third shock marker a wound, a second wound death).
      const killed = rolls.some((r) => r.kind === "save" && (r.killed || r.effect === "killed"));
      toast(rolls.map((r) => [r.text, r.then].filter(Boolean).join(" ")).join("\n"), killed ? "error" : "info", 5000);
    }
    for (const c of (view.report && view.report.coins) || []) toast(c.text, "ok", 5000);
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
  }

  phase(view) {
    const obs = view.observation || {};
    const up = obs.card_up ? ` · ${obs.card_up.label} up` : "";
    return `Turn ${obs.turn}${obs.turn_limit ? ` of ${obs.turn_limit}` : ""} · ${PHASES[obs.phase] || humanise(obs.phase || "")}${up}`;
  }

  waiting(view) {
    return view.die ? "Roll the die" : "The table rolls…";
  }

  /** The winning side by its name ("Raiders win!"), whichever of its players won. */
  verdict(result) {
    return result.side ? `${result.side} win!` : null;
  }

  render(view) {
    const obs = view.observation || {};
    const sides = obs.sides || [];
    this.board.setTable(this.tableScene(obs));
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
    const figures = obs.figures || [];
    const links = [];
    for (const [a, b] of obs.engagements || []) if (figures[a] && figures[b]) links.push([figures[a].at, figures[b].at]);
    this.board.render({
      lights: this.shell.lights(),
      pieces: figures.filter((f) => f.alive).map((f) => this.pieceOf(f, obs, sides)),
      things: (obs.things || []).filter((t) => t.carrier === null || t.carrier === undefined).map((t) => this.thingOf(t, sides)),
      pickable: this.pickable(),
      selected: this.selected,
      rings: selection ? (selection.rings || []).map((r) => this.ringOf(r)) : [],
      reach: selection ? selection.reach : null,
      points,
      links,
    });
    this.renderCoins(obs);
    this.renderOdds();
    this.renderDock(view);
    this.renderDice();
    this.renderHands();
    this.renderRoster(obs);
    const canEnd = this.myTurn() && this.actions().some((a) => a.type === "end_activation");
    this.elEnd.hidden = !canEnd;
    if (canEnd) {
      this.elEnd.textContent = obs.phase === "baggage" ? "Leave the baggage" : obs.active === null || obs.active === undefined
        ? "Pass the card" : "End activation";
    }
  }

  /** The table and its terrain as the inch board draws them. */
  tableScene(obs) {
    const t = obs.table || { width: 24, height: 16 };
    const sides = obs.sides || [];
    const objectives = obs.objectives || [];
    const areaName = (a) => a.name || TERRAIN_NAMES[a.kind] || a.kind;
    return {
      width: t.width,
      height: t.height,
      areas: [
        ...(t.hills || []).map((hl) => ({ outline: hl.outline, crest: hl.crest, kind: "hill", testid: "vh-hill", name: hl.name || "Hill",
          title: `${hl.name || "Hill"}: ${hl.height || 1} high; uphill is half speed` })),
        ...(t.areas || []).map((a, i) => ({ outline: a.outline, kind: a.kind, testid: `vh-area-${i}`, name: areaName(a),
          title: `${areaName(a)}: half speed, cover` })),
      ],
      lines: (t.obstacles || []).map((o, i) => ({ line: o.line, kind: o.kind, testid: `vh-obstacle-${i}`,
        title: `${o.name || o.kind}: crossing it is an action` })),
      zones: (t.zones || []).map((z) => {
        const objective = objectives.find((o) => o.id === z.objective);
        return { outline: z.outline, colour: (sides[z.side] && sides[z.side].colour) || "#ffffff", testid: `vh-zone-${z.objective}`,
          title: objective ? objective.title : "Objective", label: "Objective" };
      }),
    };
  }

  /** A figure on its round base: side colour, its kind's letter, shock pips over it, wound pips under it. */
  pieceOf(f, obs, sides) {
    const state = [KIND_NAME[f.kind] || f.kind, f.shock ? `${f.shock} shock` : "", f.wounds ? `${f.wounds} wound${f.wounds > 1 ? "s" : ""}` : "",
      f.in_combat ? "in combat" : "", f.activated ? "activated this turn" : "", f.cover ? "in cover" : ""].filter(Boolean).join(", ");
    return {
      id: f.id,
      at: f.at,
      radius: Number(obs.base_radius) || 0.5,
      colour: (sides[f.side] && sides[f.side].colour) || "#888888",
      letter: KIND_LETTER[f.kind] || "?",
      name: f.name,
      title: state,
      classes: [`side-${f.side}`, `kind-${f.kind}`, f.activated && "activated", obs.active === f.id && "active", f.in_combat && "engaged"],
      data: { figure: f.id, shock: f.shock, wounds: f.wounds },
      testid: `vh-figure-${f.id}`,
      above: Array.from({ length: f.shock || 0 }, (_, i) => ({ cls: "shock", testid: `vh-shock-${f.id}-${i}` })),
      below: Array.from({ length: f.wounds || 0 }, (_, i) => ({ cls: "wound", testid: `vh-wound-${f.id}-${i}` })),
      corner: f.carrying !== null && f.carrying !== undefined ? { cls: "carried", testid: `vh-carrying-${f.id}` } : null,
    };
  }

  /** A thing to carry (a disc), or a side's baggage (a box in its colour). */
  thingOf(t, sides) {
    if (t.baggage_side !== null && t.baggage_side !== undefined) {
      const side = sides[t.baggage_side] || {};
      return { id: t.id, at: t.at, radius: t.radius, shape: "box", colour: side.colour || "#888888", text: "B", classes: ["baggage"],
        title: `${t.name} (baggage of ${side.name || "a side"})`, testid: `vh-baggage-${t.id}` };
    }
    return { id: t.id, at: t.at, radius: t.radius, shape: "disc", text: "✦", title: t.name, testid: `vh-thing-${t.id}` };
  }

  ringOf(ring) {
    const zone = ring.kind === "zone";
    return { kind: ring.kind, at: ring.at, radius: ring.radius, label: zone ? null : ring.label || ring.kind,
      angle: RING_LABEL_DEGREES[ring.kind] ?? 90, testid: zone ? `vh-ring-zone-${ring.figure}` : `vh-ring-${ring.kind}` };
  }

  legend(view) {
    const obs = view.observation || {};
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
    return items;
  }

  prompt(view) {
    const v = view;
    const obs = v.observation || {};
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
        h("button", { type: "button", class: "btn secondary", testid: "vh-cancel-mode", onclick: () => { this.mode = null; this.redraw(); } }, "Cancel"));
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
      const sel = this.actingFigure(v);
      if (sel) parts.push(this.selectedLine(sel));
    }
    return parts;
  }

  /** The picked figure whose buttons the dock shows: one of this player's, on its card, with nothing else asked. */
  actingFigure(view) {
    const obs = view.observation || {};
    if (view.status !== "playing" || view.die || !this.myTurn() || obs.phase !== "activate" || this.mode === "withdraw") return null;
    return this.selected !== null && this.pickable().has(this.selected) ? this.figure(this.selected) : null;
  }

  /** Game Over's own part: each side's final coins and each figure's fate. */
  finalReport(view) {
    const obs = view.observation || {};
    const sides = obs.sides || [];
    return [
      h("div", { class: "vh-final", testid: "vh-final-coins" }, sides.map((sd, i) => h("div", { class: "vh-coin-row", testid: `vh-final-coins-${i}`,
        style: { "--side": sd.colour } }, h("span", { class: "vh-side-dot" }), h("strong", {}, sd.name), ` ${sd.coins} of ${sd.target} coins`))),
      h("ul", { class: "vh-final-figures" }, (obs.figures || []).map((f) => h("li", { testid: `vh-final-figure-${f.id}` },
        `${f.name}: ${!f.alive ? "in Valhalla" : [f.wounds ? plural(f.wounds, "wound") : "", f.shock ? plural(f.shock, "shock marker") : ""]
          .filter(Boolean).join(", ") || "unharmed"}`))),
    ];
  }

  /** "Tap for help" (docs/screen-shell.md): the topic of a tapped marker, figure, thing, piece of ground or panel. */
  helpTopic(el) {
    const id = (sel) => { const at = el.closest(sel); return at ? at.dataset.testid || "" : null; };
    if (id("[data-testid^='vh-shock-']") !== null) return "marker:shock";
    if (id("[data-testid^='vh-wound-']") !== null) return "marker:wound";
    if (id("[data-testid^='vh-baggage-']") !== null) return "thing:baggage";
    if (id("[data-testid^='vh-thing-']") !== null) return "thing:carried";
    const fig = el.closest("[data-figure], [data-testid^='vh-roster-']");
    if (fig) {
      const f = this.figure(Number(fig.dataset.figure ?? fig.dataset.testid.slice("vh-roster-".length)));
      return f ? `figure:${f.kind}` : null;
    }
    const ground = el.closest("[data-kind]");
    if (ground) return `terrain:${ground.dataset.kind}`;
    if (id("[data-testid='vh-coins']") !== null) return "thing:coins";
    if (id("[data-testid='vh-hands']") !== null) return "phase:activate";
    return null;
  }

  // ---------------------------------------------------------------- side panels

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

  movesOf(f) {
    return this.selection && this.selection.unit === f.id ? this.selection.moves || [] : [];
  }

  selectedLine(f) {
    return h("p", { class: "muted", testid: "vh-selected" }, `${f.name} (${KIND_NAME[f.kind] || f.kind}).`,
      this.movesOf(f).length ? " Tap a point on the table to move it there (up to 6\"; half speed in woods, village or uphill)." : "");
  }

  /** The dock: Confirm and Cancel while a charge, fight or shot waits on its odds, else the picked figure's buttons. */
  renderDock(view) {
    if (this.pending) {
      fill(this.elDock, h("div", { class: "row vh-confirm-row" },
        h("button", { type: "button", class: "btn primary huge", testid: "vh-confirm", disabled: !this.odds,
          onclick: () => this.confirm() }, this.pending.verb),
        h("button", { type: "button", class: "btn secondary", testid: "vh-cancel", onclick: () => this.cancelOdds() }, "Cancel")));
      return;
    }
    const f = this.actingFigure(view);
    fill(this.elDock, f ? this.actionButtons(f) : []);
  }

  actionButtons(f) {
    const out = [];
    const acts = this.actionsFor(f.id);
    const moves = this.movesOf(f);
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
    if (withdraw) button("vh-action-withdraw", "Withdraw…", () => { this.mode = "withdraw"; this.redraw(); });
    if (buttons.length) out.push(h("div", { class: "row vh-actions", testid: "vh-actions" }, buttons));
    return out;
  }

  renderOdds() {
    const p = this.pending;
    if (!p) {
      this.elOdds.hidden = true;
      this.elOdds.replaceChildren();
      this.oddsShown = null;
      return;
    }
    this.elOdds.hidden = false;
    // Asked, then answered: each time the panel is brought into view (the side panel may be scrolled to the
    // figures, on a phone); the dock's Confirm stays in view anyway.
    const shown = this.odds ? "odds" : "asking";
    if (this.oddsShown !== shown) {
      this.oddsShown = shown;
      requestAnimationFrame(() => { if (!this.elOdds.hidden) this.elOdds.scrollIntoView({ block: "start" }); });
    }
    const parts = [h("h2", {}, p.title)];
    const o = this.odds && this.odds.odds;
    if (!this.odds) parts.push(h("p", { class: "muted" }, "Asking the table for the odds…"));
    else if (!o) parts.push(h("p", { class: "muted" }, "No odds for this action."));
    else if (o.kind === "shot") {
      const band = o.range_band ? `${o.range_band} range` : "";
      const cover = o.inputs && o.inputs.cover ? ", target in cover" : "";
      const why = [band, cover.slice(2)].filter(Boolean).join(", ");
      parts.push(h("p", { class: "big-text", testid: "vh-odds-hit" }, `Hit: ${pct(o.hit)}`),
        h("p", { class: "muted" }, `Needs ${o.needs}+ on a d6${why ? ` (${why})` : ""}.`),
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
    fill(this.elOdds, parts);
  }

  hitsLine(label, dist) {
    const d = dist || {};
    return h("p", {}, `${label}: `, ["0", "1", "2"].filter((k) => k in d)
      .map((k) => `${k === "0" ? "none" : plural(Number(k), "hit")} ${pct(d[k])}`).join(" · "));
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
    // The dice themselves as chips, then the roll's sentence as the server words it (words.py); a save's
    // effect (its `words`) stands out.
    fill(this.elDice, h("h2", {}, "Dice"), h("ul", { class: "vh-rolls" }, rolls.map((r) => {
      if (r.kind === "combat") {
        return h("li", { class: "vh-roll combat", testid: "vh-roll-combat" },
          h("span", { class: "die-chip" }, `d${r.attacker_die} ${r.attacker_face}`), " ",
          h("span", { class: "die-chip" }, `d${r.defender_die} ${r.defender_face}`), ` ${r.text}`);
      }
      if (r.kind === "shot") {
        return h("li", { class: ["vh-roll", "shot", r.hit ? "hit" : "miss"], testid: "vh-roll-shot" },
          h("span", { class: "die-chip" }, `d6 ${r.face}`), ` ${r.text}`);
      }
      return h("li", { class: ["vh-roll", "save", r.effect, r.killed && "killed"], testid: "vh-roll-save", "data-effect": r.effect,
        "data-killed": r.killed ? "true" : "false" },
        h("span", { class: "die-chip death" }, `☠ ${r.face}`), " ", ...emphasise(r.text || "", r.words),
        r.then ? h("span", { class: "vh-then", testid: "vh-roll-then" }, ` ${r.then}`) : null);
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
      h("span", { class: "vh-pips", "aria-label": f.shock || f.wounds ? [f.shock ? plural(f.shock, "shock marker") : "",
        f.wounds ? plural(f.wounds, "wound") : ""].filter(Boolean).join(", ") : "unhurt" },
        Array.from({ length: f.shock || 0 }, () => h("span", { class: "pip shock" })),
        Array.from({ length: f.wounds || 0 }, () => h("span", { class: "pip wound" }))));
    }));
  }

  // ---------------------------------------------------------------- acting

  send(action) {
    this.pending = null;
    this.odds = null;
    return this.shell.send(action);
  }

  select(id) {
    this.mode = null;
    this.pending = null;
    this.odds = null;
    this.shell.select(id);
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
    this.shell.preview(action);
    this.redraw();
  }

  confirm() {
    if (!this.pending || !this.odds) return;
    const { action } = this.pending;
    this.send(action);
    this.redraw();
  }

  cancelOdds() {
    this.pending = null;
    this.odds = null;
    this.redraw();
  }

  endActivation() {
    this.mode = null;
    this.send({ type: "end_activation" });
  }

}
