// The WarQuest screen inside the shell (docs/screen-shell.md): the map of regions (the shared regionboard.js:
// kingdoms in their colours, the wild lands of the peoples textured, rivers, bridges and mountain ranges, cities
// with their tax, capitals crowned, the special locations and ancient battlefields), the ownership tokens and
// each player's armies as stacks with their leaders; the seat's gold, VP, sacred quests and secret hand (quest
// cards with their location, lit on the map for their holder only; conquest cards), the power market and every
// warlord's powers, the event of the round; the turn's actions as buttons with their costs (greyed, with the
// reason, when not legal), a move by tapping a leader then a lit destination (the troops to take, all unless
// told, by kind; the battle odds of the table's selection before a move into battle), the placement at setup;
// and the battle screen: both sides' Front, Rear, Reserve and Retreat areas, the attacking rank, the combat dice
// (hit, flee, blank), the questions of the battle with the table's default one tap away, and the combat dice
// entered from physical dice as a tally of hits, flees and blanks.
//
// Every rule is the server's: the actions are the legal ones it offers (`view.options`), a refusal comes back with
// its reason. The reasons on greyed buttons only read the observation to say why nothing is offered.

import { h, fill } from "/static/dom.js";
import { RegionBoard } from "/static/regionboard.js";
import { gameCatalogue, humanise } from "/static/api.js";
import { modal } from "/static/ui.js";
import { askDie } from "/static/shell.js";

const GAME = "warquest";
const MAP_SCALE = 20; // board units an inch of the map (a 42" map is 840 units wide)
const PHASES = { setup: "Setting up", place: "Placing the warlords", turn: "Turn", battle: "Battle", event: "Event", over: "Game over" };
/** Muted fills of the peoples' wild lands (the kingdoms bring their own colours). */
const PEOPLE_FILL = {
  goblin: "#7a8456", elf: "#4e7a4c", dwarf: "#8b8174", satyr: "#9a9358", orc: "#7c6450", bugbear: "#6f6a55",
  troll: "#5f716c", dragon: "#80594a", undead: "#5b5866",
};
const ACTION_ORDER = ["move", "tax", "conquer", "recruit", "lieutenant", "power", "quest"];
const ACTION_NAMES = { move: "Move", tax: "Tax", conquer: "Conquer", recruit: "Recruit", lieutenant: "Lieutenant", power: "Power card",
  quest: "Quest" };
const REGION_ACTIONS = new Set(["tax", "conquer", "recruit"]);
const BATTLE_QUESTIONS = new Set(["arrange", "target", "spell", "breath", "assign", "refill", "press_on", "retreat"]);
const AREAS = [["front", "Front"], ["rear", "Rear"], ["reserve", "Reserve"], ["retreat", "Retreat"]];
const COMBAT_FACES = ["hit", "flee", "blank", "blank", "blank", "blank"]; // WQ-CB-01 (the table's die brings its own)

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const sentence = (text) => { const t = String(text || ""); return t.charAt(0).toUpperCase() + t.slice(1); };
const dice = (n) => `${n} ${n === 1 ? "die" : "dice"}`;
/**
 * The table's green and blue lights (a destination, a battle won, the leader picked) drawn in neutral gold and
 * white on this map: green and blue are warlords' colours here, and a lit region must not read as owned.
 */
const SEAT_LIKE = { "#22c55e": "#ffe9a8", "#2563eb": "#fffdf4" };
const RECENT_LINES = 4;
const KINGDOM_MS = 8000; // how long a tapped card's kingdom stays outlined on the map // the log's last sentences shown near the top of the side panel
const pct = (p) => `${(Math.round(Number(p) * 1000) / 10).toFixed(1)}%`;

/** Mix a colour with parchment (a kingdom's fill is its colour, softened so the pieces on it stand out). */
export function soften(hex, amount = 0.28) {
  const m = /^#?([0-9a-f]{6})$/i.exec(String(hex || ""));
  if (!m) return hex || "#8a8a7a";
  const n = parseInt(m[1], 16);
  const paper = [0xe9, 0xdf, 0xc4];
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c, i) => Math.round(c * (1 - amount) + paper[i] * amount));
  return `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/** A combat die's face as a word: "hit", "flee" or "blank" (a label, or a face number 1..6). */
export function faceWord(face) {
  if (typeof face === "string" && !/^\d+$/.test(face)) return face === "hit" || face === "flee" ? face : "blank";
  return COMBAT_FACES[Number(face) - 1] || "blank";
}

/** A distribution `{n: p}` (keys strings) as sorted [n, p] pairs. */
function dist(d) {
  return Object.entries(d || {}).map(([k, p]) => [Number(k), Number(p)]).filter(([, p]) => p > 0).sort((a, b) => a[0] - b[0]);
}
const mean = (d) => dist(d).reduce((t, [k, p]) => t + k * p, 0);

export class Screen {
  /** Quest and conquest hands are secret: a shared screen covers itself between seats (pass and play). */
  static secrets = true;
  static testids = { prompt: "wq-prompt", refusal: "wq-refusal" };
  static sounds = { actions: { tax: null, conquer: "move", recruit: null, lieutenant: null, power: null, quest: "spell", end_turn: null,
    arrange: null, target: null, assign: null, refill: null, press_on: "charge", retreat: "move", discard: null, spell: "spell",
    breath: "spell" } };

  constructor(shell) {
    this.shell = shell;
    this.cat = null; // the game's catalogue: maps, troops, locations, powers
    this.mode = null; // the action in hand: "move", "tax", "conquer", "recruit", "place", "retreat"
    this.take = new Map(); // kind -> false: troop kinds left behind by the move in hand
    this.dest = null; // {region, path, battle}: a destination into battle, waiting for Confirm
    this.draft = null; // {kind, version, ...}: a battle answer being built (arrangement, assignment, refill)
    this.showMap = false; // during a battle: the map instead of the battle screen
    this.destOpen = false; // the move dock's list of destinations is open
    this.tally = null; // physical dice: faces still to send for the roll in progress
    this.tallyVersion = -1;
    this.diceDlg = null; // {version, dlg}
    this.single = null; // the roll whose dice the player enters one at a time
    this.dialog = null; // {version, dlg, kind}: a dialog of this screen (placement, recruiting, discard)
    this.odds = null; // {action, answer}: the move into battle in hand and the table's preview of it (its odds)
    this.seenVersion = null; // the newest log step read (what just happened is told once)
    this.fight = null; // the battle being told from the log: its sides, losses, attacks, end
    this.news = null; // {kind: "quest"|"battle", ...}: the banner over the map, until waved away
    shell.addStylesheet(new URL("./warquest.css", import.meta.url).href);
    gameCatalogue(GAME).then((c) => { this.cat = c; this.shell.render(); }).catch(() => { /* the map waits for the catalogue */ });
  }

  mount(slots) {
    this.elBoardHost = slots.board;
    this.board = new RegionBoard(slots.board, { onRegion: (id) => this.tapRegion(id), onPiece: (id) => this.tapPiece(id) },
      { prefix: "wq-" });
    this.elStatus = h("div", { class: "wq-status", testid: "wq-status" });
    this.elRecent = h("section", { class: "wq-recent", testid: "wq-recent", "aria-live": "polite" });
    this.elNews = h("div", { class: "wq-news", testid: "wq-news", hidden: true, role: "status" });
    this.elMe = h("section", { class: "wq-me", testid: "wq-me" });
    this.elActs = h("section", { class: "wq-acts", testid: "wq-acts" });
    this.elMove = h("section", { class: "wq-move", testid: "wq-move", hidden: true });
    this.elHand = h("section", { class: "wq-hand", testid: "wq-hand" });
    this.elEvent = h("section", { class: "wq-event", testid: "wq-event" });
    this.elMarket = h("section", { class: "wq-market", testid: "wq-market" });
    this.elPlayers = h("section", { class: "wq-players", testid: "wq-players" });
    this.elBattle = h("div", { class: "wq-battle", testid: "wq-battle", hidden: true });
    this.elMapToggle = h("button", { type: "button", class: "btn secondary small wq-map-toggle", testid: "wq-map-toggle", hidden: true,
      onclick: () => { this.showMap = !this.showMap; this.shell.render(); } }, "Show the map");
    this.elEnd = h("button", { type: "button", class: "btn primary", testid: "wq-end-turn", hidden: true, "data-help": "action:end_turn",
      onclick: () => this.send({ type: "end_turn" }) }, "End turn");
    return {
      className: "wq-screen",
      header: [this.elStatus],
      side: [slots.prompt, this.elRecent, this.elMove, this.elActs, this.elMe, this.elHand, this.elEvent, this.elMarket, this.elPlayers],
      actions: [this.elEnd],
      overlay: [this.elBattle, this.elMapToggle, this.elNews],
    };
  }

  // ---------------------------------------------------------------- reading the view

  get view() { return this.shell.view; }
  obs() { return this.shell.obs(); }
  actions() { return this.shell.actions(); }
  myTurn() { return this.shell.myTurn(); }
  seat() { return this.view ? this.view.seat : null; }
  /** Whether this screen plays the seat shown (a hand is drawn only then: never for another seat's view). */
  mine() { const s = this.seat(); return s !== null && s !== undefined && this.shell.mySeats().includes(s); }
  player(seat) { return (this.obs().players || []).find((p) => p.seat === seat) || null; }
  me() { return this.mine() ? this.player(this.seat()) : null; }
  colour(seat) { const p = this.player(seat); return (p && p.colour) || "#888888"; }
  pname(seat) { const p = this.player(seat); return (p && p.name) || this.shell.seatName(seat); }
  /** The name without its article and title: "Red" for "the Red Warlord". */
  short(seat) { return sentence(this.pname(seat).replace(/^the\s+/i, "").replace(/\s+warlord$/i, "")); }
  mapData() {
    const key = this.obs().map;
    const maps = (this.cat && this.cat.maps) || {};
    return maps[key] || null;
  }
  regionInfo(id) { const m = this.mapData(); return m ? (m.regions || []).find((r) => r.id === id) || null : null; }
  regionName(id) { const r = this.regionInfo(id); return (r && r.name) || humanise(id); }
  locationName(key) { const l = this.cat && this.cat.locations && this.cat.locations[key]; return (l && l.name) || humanise(key); }
  regionState(id) { return (this.obs().regions || []).find((r) => r.id === id) || null; }
  troopInfo(kind) {
    const t = this.cat && this.cat.troops; // the catalogue's troops by kind
    return (t && t[kind]) || null;
  }
  troopName(kind) { const t = this.troopInfo(kind); return (t && t.name) || humanise(kind); }
  troopCost(kind) { const t = this.troopInfo(kind); return t && typeof t.cost === "number" ? t.cost : null; }
  of(type) { return this.actions().filter((a) => a.type === type); }
  question() { const q = this.obs().question; return q && typeof q === "object" ? q : null; }
  myQuestion() { const q = this.question(); return q && this.myTurn() && q.seat === this.seat() ? q : null; }

  /** Where a leader stands, and which. */
  leader(id) {
    for (const r of this.obs().regions || []) {
      const l = (r.leaders || []).find((x) => x.id === id);
      if (l) return { ...l, region: r.id };
    }
    return null;
  }

  /** The troops a move by this leader may take: the seat's unmoved troops in its region. */
  movableTroops(leaderId) {
    const l = this.leader(leaderId);
    if (!l) return [];
    const moved = new Set(((this.obs().marks || {}).moved) || []);
    const r = this.regionState(l.region);
    return ((r && r.troops) || []).filter((t) => t.seat === l.seat && !moved.has(t.id));
  }

  /** The destinations the table offers the picked leader (its selection: `battle` true where a fight starts). */
  destinations() {
    const id = this.shell.selected;
    const sel = this.shell.selection;
    if (id === null || id === undefined || !sel || sel.unit !== id) return [];
    return (sel.destinations || []).map((d) => ({ region: d.region, path: d.path, fights: d.battle === true, raw: d }));
  }

  // ---------------------------------------------------------------- hooks the shell calls

  onView(view, { fresh }) {
    this.readLog(view);
    if (!fresh) return;
    this.dest = null;
    const o = view.observation || {};
    let id = this.shell.selected;
    if (id !== null && !(this.myTurn() && this.shell.movable().has(id))) id = null;
    if (id === null && this.mode === "move") this.mode = null;
    if (this.mode && this.mode !== "move" && !this.modeOffered(this.mode)) this.mode = null;
    if (!o.battle) this.showMap = false;
    if (this.draft && (this.draft.version !== view.version)) this.draft = null;
    this.shell.select(id, { render: false });
  }

  onSelection() { this.dest = null; this.odds = null; }

  /** The odds of the move in hand, asked of the table (`preview`) for the troops the player takes. */
  askOdds() {
    const d = this.dest;
    if (!d || !d.fights) { this.odds = null; return; }
    const action = { type: "move", leader: this.shell.selected, troops: this.takenTroops(), path: d.path };
    this.odds = { action, answer: null };
    this.shell.preview(action);
  }

  /** The table's answer to a preview: kept when it is for the move in hand (the same leader, path and troops). */
  onPreview(msg) {
    const a = msg && msg.action;
    const want = this.odds && this.odds.action;
    if (!a || !want || a.type !== "move") return;
    const same = (x, y) => JSON.stringify([...(x || [])].sort((i, j) => i - j)) === JSON.stringify([...(y || [])].sort((i, j) => i - j));
    if (a.leader === want.leader && JSON.stringify(a.path) === JSON.stringify(want.path) && same(a.troops, want.troops)) this.odds.answer = msg;
  }

  phase(view) {
    const o = view.observation || {};
    const round = o.round ? `Round ${o.round}${o.rounds ? ` of ${o.rounds}` : ""}` : "";
    const what = o.phase === "turn" && o.seat !== undefined && o.seat !== null ? `${this.short(o.seat)}'s turn` : PHASES[o.phase] || humanise(o.phase || "");
    return [round, what].filter(Boolean).join(" · ");
  }

  waiting(view) {
    if (view.die) return "Roll the combat dice";
    const r = (view.observation || {}).rolling;
    if (r) return `The table rolls ${r.purpose ? String(r.purpose).replace(/_/g, " ") : "the dice"}…`;
    return "The table is working…";
  }

  render(view) {
    const o = view.observation || {};
    const map = this.mapData();
    if (map) this.board.setMap(this.boardMap(map));
    this.board.render({
      lights: [...this.shell.lights().map((l) => (SEAT_LIKE[String(l.colour).toLowerCase()] ? { ...l, colour: SEAT_LIKE[String(l.colour).toLowerCase()] } : l)),
        ...this.kingdomLights()],
      stacks: this.stacks(o),
      owners: this.owners(o),
      marks: this.questMarks(),
      targets: this.targets(),
      selectedRegion: this.dest ? this.dest.region : null,
      pickable: this.myTurn() && o.phase === "turn" && !o.battle ? this.shell.movable() : new Set(),
      selected: this.shell.selected,
    });
    this.renderStatus(o);
    this.renderRecent(view);
    this.renderNews();
    this.renderMove(o);
    this.renderActs(o);
    this.renderMe(o);
    this.renderHand(o);
    this.renderEvent(o);
    this.renderMarket(o);
    this.renderPlayers(o);
    this.renderBattle(o);
    const q = this.myQuestion();
    this.elEnd.hidden = !(this.myTurn() && this.of("end_turn").length && !q);
  }

  /** On a map drawn large (a phone), bring the seat's Warlord (or the battle) into view once per seat shown. */
  centreMap(view) {
    const o = view.observation || {};
    const key = `${view.seat}:${o.battle ? o.battle.region : ""}`;
    if (this.centredFor === key || !this.elBoardHost.classList.contains("zoomed")) return;
    let region = o.battle ? o.battle.region : null;
    if (!region) {
      for (const r of o.regions || []) if ((r.leaders || []).some((l) => l.seat === view.seat && l.rank === "warlord")) region = r.id;
    }
    const el = region && this.elBoardHost.querySelector(`[data-testid="wq-region-${region}"]`);
    if (!el) return; // the map is not drawn yet (its catalogue is on the way): the clock tries again
    this.centredFor = key;
    el.scrollIntoView({ block: "center", inline: "center" });
  }

  /** The shell's clock: the map may be drawn large only after the first view (its size is measured late). */
  tick(now) {
    if (this.view && this.view.status === "playing") this.centreMap(this.view);
    if (this.lit && (now ?? performance.now()) > this.lit.until) { this.lit = null; this.shell.render(); }
  }

  afterView(view) {
    this.centreMap(view);
    if (this.diceDlg && (!view.die || this.diceDlg.version !== view.version)) { this.diceDlg.dlg.close(null); this.diceDlg = null; }
    // A view of the same roll without the die (another seat's moment) keeps the tally; a finished roll ends it.
    if (!view.die && !(view.observation || {}).rolling) this.tally = null;
    if (this.dialog && this.dialog.version !== view.version) { this.dialog.dlg.close(null); this.dialog = null; }
    const q = this.myQuestion();
    if (q && q.kind === "discard" && !this.dialog) this.openDiscard(q, view.version);
  }

  legend() {
    const o = this.obs();
    const items = (o.players || []).map((p) => h("span", { class: "legend-item" },
      h("span", { class: "swatch round", style: { background: p.colour }, "aria-hidden": "true" }), this.short(p.seat)));
    items.push(h("span", { class: "legend-item wq-legend-long" }, "coin: a city's tax · crown: capital · swords: ancient battlefield · flag: owner"));
    // The kingdoms by name in their colours (cards and events name them); a tap outlines one on the map.
    const kingdoms = ((this.mapData() || {}).kingdoms || []).map((k) => h("button", { type: "button",
      class: ["legend-item", "wq-kingdom", this.lit && this.lit.key === k.key && "on"], testid: `wq-kingdom-${k.key}`,
      "aria-pressed": this.lit && this.lit.key === k.key ? "true" : "false", title: `Show ${k.name} on the map`,
      onclick: () => this.showKingdom(k.key) },
    h("span", { class: "swatch", style: { background: soften(k.colour) }, "aria-hidden": "true" }), k.name));
    if (kingdoms.length) items.push(h("span", { class: "wq-kingdoms", testid: "wq-kingdoms" }, kingdoms));
    return items;
  }

  /** The kingdom a card's words name ("A Foothold in Vandar", "off Thalassa"), by its name as a whole word. */
  kingdomOf(...texts) {
    const said = texts.filter(Boolean).join(" ");
    for (const k of (this.mapData() || {}).kingdoms || []) {
      if (new RegExp(`\\b${k.name}\\b`, "i").test(said)) return k.key;
    }
    return null;
  }

  /** Outline a kingdom's regions on the map for a while (tapped again: off). */
  showKingdom(key) {
    this.lit = !key || (this.lit && this.lit.key === key) ? null : { key, until: performance.now() + KINGDOM_MS };
    this.shell.render();
  }

  /** The outline of the kingdom shown, as steady lights on its regions (drawn like the table's own). */
  kingdomLights() {
    if (!this.lit) return [];
    const regions = ((this.mapData() || {}).regions || []).filter((r) => r.kingdom === this.lit.key);
    return regions.map((r) => ({ region: r.id, effect: "kingdom", colour: "#fffbe6", pattern: "steady", t0: this.lit.until - KINGDOM_MS,
      delay_ms: 0, duration_ms: KINGDOM_MS }));
  }

  prompt(view) {
    const o = view.observation || {};
    if (view.status !== "playing") return [h("p", {}, view.status === "quit" ? "The game was quit." : "The game is over.")];
    if (!this.myTurn()) {
      const who = view.to_move === null || view.to_move === undefined ? null : this.pname(view.to_move);
      if (view.die) return [h("h2", {}, "Roll the dice"), h("p", {}, "Roll the combat dice the table asks for and enter what they show.")];
      return [h("h2", {}, "Please wait"), h("p", {}, who ? `${sentence(who)} is playing.` : "The table is working…")];
    }
    const q = this.myQuestion();
    if (q) return [h("h2", {}, "Your answer"), h("p", { testid: "wq-how" }, this.questionWords(q))];
    if (o.phase === "place") {
      return [h("h2", {}, "Place your warlord"), h("p", { testid: "wq-how" },
        "Tap a region for your Warlord and Lieutenant (not one another warlord holds), then buy your starting army of basic troops.")];
    }
    const how = {
      move: this.shell.selected === null ? "Tap one of your leaders." : this.dest ? "Check the odds, then Attack or Cancel."
        : "Choose the troops to take, then tap a lit region.",
      tax: "Tap a lit city of yours to tax it.",
      conquer: "Tap a lit region to place your ownership token.",
      recruit: "Tap a lit region to recruit there.",
    }[this.mode] || "Choose an action, or tap one of your leaders to move.";
    const left = o.actions_left ?? 0;
    return [h("h2", {}, `Your turn: ${plural(left, "action")} left`), h("p", { testid: "wq-how" }, how)];
  }

  verdict(result) {
    const w = Array.isArray(result.winners) ? result.winners : [];
    if (w.length === 1) return `Victory: ${this.pname(w[0])}`;
    if (w.length > 1) return `Shared victory: ${w.map((s) => this.pname(s)).join(", ")}`;
    return null;
  }

  finalReport(view) {
    const ps = [...((view.observation || {}).players || [])].sort((a, b) => (b.vp ?? 0) - (a.vp ?? 0));
    return [h("table", { class: "wq-final", testid: "wq-final" },
      h("thead", {}, h("tr", {}, h("th", {}, "Warlord"), h("th", {}, "VP"), h("th", {}, "Sacred"), h("th", {}, "Battles"), h("th", {}, "Gold"))),
      h("tbody", {}, ps.map((p) => h("tr", { testid: `wq-final-${p.seat}` },
        h("td", {}, h("span", { class: "swatch round", style: { background: p.colour } }), ` ${sentence(p.name)}`),
        h("td", {}, String(p.vp ?? 0)), h("td", {}, String(p.sacred ?? 0)), h("td", {}, String(p.battles_won ?? 0)),
        h("td", {}, String(p.gold ?? 0))))))];
  }

  options() {
    const o = this.obs();
    return [{ label: "Every warlord's cards", testid: "wq-option-players", run: () => {
      modal({ title: "The warlords", testid: "wq-players-dialog", dismissable: true, wide: true,
        body: (o.players || []).map((p) => this.playerCard(p, true)), buttons: [{ label: "Close", value: null, testid: "wq-players-close" }] });
    } }];
  }

  /** The help topic of what a shared board drew (data/help.toml keys: troop, location, action, idea). */
  helpTopic(el) {
    const troop = el.closest("[data-kind-troop]");
    if (troop) return `troop:${troop.dataset.kindTroop}`;
    const place = el.closest(".rb-place");
    if (place) {
      if (place.dataset.kind === "city") return "action:tax";
      if (place.dataset.kind === "battlefield") return "action:power";
      return `location:${place.dataset.kind}`;
    }
    if (el.closest(".rb-leader, .rb-stack")) return "action:move";
    if (el.closest(".rb-token")) return "action:conquer";
    if (el.closest(".wq-die, .wq-dice")) return "idea:combat_dice";
    if (el.closest(".wq-area, .wq-side")) return "idea:ranks";
    return null;
  }

  /** A power card's effect (its help topic `power:<effect>`), from the catalogue. */
  powerEffect(c) {
    const found = ((this.cat && this.cat.powers) || []).find((x) => x.id === c.id);
    return found ? found.effect : c.key;
  }

  // ---------------------------------------------------------------- what just happened (the log's events)

  /**
   * Read the log's new steps once: a quest's roll and a battle's end become the banner over the map; a battle's
   * attacks, losses, pursuit and retreat are gathered for its dice strip and its summary. The steps of the page's
   * first view only set up the battle in progress (an old quest is not told again).
   */
  readLog(view) {
    const steps = (view.log || []).filter((st) => st && typeof st.version === "number");
    const first = this.seenVersion === null;
    for (const st of steps) {
      if (!first && st.version <= this.seenVersion) continue;
      for (const e of st.events || []) this.track(e, !first);
    }
    const newest = Math.max(view.version ?? -1, ...steps.map((st) => st.version));
    this.seenVersion = Math.max(this.seenVersion ?? -1, newest);
    // The seat's own quest monsters, remembered: a failed quest's card has left the hand when its roll is told.
    if (!this.monsters) this.monsters = new Map();
    for (const q of (((view.observation || {}).hand || {}).quests || [])) this.monsters.set(q.id, q.monster);
  }

  track(e, tell) {
    const f = this.fight;
    switch (e.event) {
      case "BattleBegan":
        this.fight = { region: e.region, attacker: e.attacker, defender: e.defender, lost: { [e.attacker]: 0, [e.defender]: 0 },
          fled: { [e.attacker]: 0, [e.defender]: 0 }, rolls: [], lastRound: [], round: 1, won: null, cut: 0, fell: null,
          destroyed: 0, told: tell };
        break;
      case "AttackRolled":
      case "SpellRolled":
        if (f) f.rolls.push({ ...e });
        break;
      case "RoundEnded":
        if (f) { f.lastRound = f.rolls; f.rolls = []; f.round = e.round + 1; }
        break;
      case "HitsTaken":
        if (f) {
          f.lost[e.seat] = (f.lost[e.seat] || 0) + (e.eliminated || []).length;
          f.fled[e.seat] = (f.fled[e.seat] || 0) + (e.fled || []).length;
          // What the last roll did to the side it struck (a flee no troop could take is lost: WQ-CB-14).
          const roll = f.rolls.at(-1);
          if (roll && !roll.took && roll.seat !== e.seat) roll.took = e;
        }
        break;
      case "BattleWon":
        if (f) {
          f.won = e;
          if (tell) this.news = { kind: "battle", fight: f };
        }
        break;
      case "Pursued":
        if (f) f.cut += (e.eliminated || []).length;
        break;
      case "ArmyFellBack":
        if (f) f.fell = e.region;
        break;
      case "ArmyDestroyed":
        if (f) f.destroyed += (e.troops || []).length;
        break;
      case "QuestRolled":
        if (tell) this.news = { kind: "quest", e };
        break;
      default:
        break;
    }
  }

  /** The last few sentences of the log (the bots' turns too), near the top of the side panel. */
  renderRecent(view) {
    const lines = (view.log || []).flatMap((st) => (st && Array.isArray(st.text) ? st.text : [])).slice(-RECENT_LINES);
    this.elRecent.hidden = !lines.length;
    fill(this.elRecent, h("h3", { class: "side-title" }, "Just now"),
      h("ol", { class: "wq-recent-list" }, lines.map((line, i) => h("li", { testid: `wq-recent-${i}` }, line))));
  }

  /** The quest just rolled, or the battle just over, as a banner over the map until waved away. */
  renderNews() {
    const n = this.news;
    this.elNews.hidden = !n;
    if (!n) { this.elNews.replaceChildren(); return; }
    const close = h("button", { type: "button", class: "btn secondary small", testid: "wq-news-close",
      onclick: () => { this.news = null; this.shell.render(); } }, "OK");
    this.elNews.dataset.kind = n.kind;
    if (n.kind === "quest") {
      const e = n.e;
      const dice = (e.dice || []).map(Number);
      const total = dice.reduce((t, d) => t + d, 0) + Number(e.bonus || 0);
      const sum = `${dice.join(" + ")}${e.bonus ? ` ${Number(e.bonus) > 0 ? "+" : "−"} ${Math.abs(Number(e.bonus))}` : ""} = ${total}`;
      const monster = this.questMonster(e.seat, e.card);
      const verdict = e.success ? `${monster ? sentence(monster) : "The monster"} is slain! +${e.target} VP` : `${monster ? sentence(monster) : "The monster"} wins: the quest fails.`;
      const doubles = dice.length === 2 && dice[0] === dice[1] ? " Doubles!" : "";
      fill(this.elNews, h("div", { class: "wq-news-dice" }, dice.map((d, i) => h("span", { class: "wq-d6", testid: `wq-news-die-${i}`, "data-face": d }, String(d)))),
        h("div", { class: "wq-news-body" }, h("b", { class: "wq-news-head" }, `${sentence(this.pname(e.seat))}'s quest`),
          h("p", { class: ["wq-news-text", e.success ? "good" : "bad"], testid: "wq-news-text" }, `${sum} against ${e.target}: ${verdict}${doubles}`)),
        close);
      return;
    }
    const f = n.fight;
    const w = f.won;
    const loser = w.loser;
    const rounds = w.rounds ? `after ${plural(w.rounds, "round")}` : "at once";
    const how = w.withdrew ? `${this.pname(loser)} withdrew` : `${this.pname(loser)} is beaten`;
    const where = f.destroyed ? `${sentence(this.pname(loser))}'s army had no way out: ${plural(f.destroyed, "troop")} lost.`
      : f.fell ? `${sentence(this.pname(loser))}'s survivors fell back to ${this.regionName(f.fell)}.`
        : `${sentence(this.pname(loser))} chooses where to retreat…`;
    const lossRow = (seat) => {
      const lost = (f.lost[seat] || 0) + (seat === loser ? f.cut + f.destroyed : 0);
      const extra = seat === loser && f.cut ? ` (${f.cut} cut down in the pursuit)` : "";
      const fled = f.fled[seat] ? `, ${f.fled[seat]} fled` : "";
      return h("li", { testid: `wq-summary-loss-${seat}` }, h("span", { class: "swatch round", style: { background: this.colour(seat) } }),
        ` ${sentence(this.pname(seat))}: ${plural(lost, "troop")} lost${extra}${fled}`);
    };
    fill(this.elNews, h("div", { class: "wq-news-body", testid: "wq-battle-summary" },
      h("b", { class: "wq-news-head" }, `Battle of ${this.regionName(w.region)}: ${this.pname(w.winner)} wins`),
      h("p", { class: "wq-news-text good", testid: "wq-news-text" }, `${sentence(rounds)} (${how}): +${w.vp} VP for ${this.pname(w.winner)}.`),
      h("ul", { class: "wq-summary-losses" }, lossRow(f.attacker), lossRow(f.defender)),
      h("p", { class: "wq-news-text", testid: "wq-summary-where" }, where)), close);
  }

  /** The monster of a quest card, where this screen has seen it (a quest done, or the seat's own hand). */
  questMonster(seat, card) {
    const p = this.player(seat);
    const done = ((p && p.done_quests) || []).find((q) => q.id === card);
    if (done && done.monster) return done.monster;
    const held = ((this.obs().hand || {}).quests || []).find((q) => q.id === card);
    return (held && held.monster) || (this.monsters && this.monsters.get(card)) || null;
  }

  // ---------------------------------------------------------------- the map

  boardMap(m) {
    const kingdoms = new Map((m.kingdoms || []).map((k) => [k.key, k]));
    return {
      width: m.width, height: m.height, scale: MAP_SCALE,
      regions: (m.regions || []).map((r) => {
        const k = r.kingdom ? kingdoms.get(r.kingdom) : null;
        const places = (r.locations || []).map((l) => ({ kind: l.kind, name: l.name, key: l.key }));
        if (r.battlefield) places.push({ kind: "battlefield", name: "Ancient battlefield", key: "battlefield" });
        return {
          id: r.id, outline: r.outline, label: r.centre, name: sentence(r.name),
          kind: r.kingdom ? "kingdom" : "wild",
          colour: k ? soften(k.colour) : PEOPLE_FILL[r.people] || "#77715e",
          texture: r.kingdom ? null : "wild",
          group: r.kingdom ? `kingdom:${r.kingdom}` : `people:${r.people}`,
          city: r.city ? { name: r.city, tax: r.tax, capital: Boolean(r.capital) } : null,
          places,
        };
      }),
      borders: m.borders || [],
    };
  }

  /** Each player's pieces in a region as one stack: its leaders on top, the troops counted. */
  stacks(o) {
    const out = [];
    for (const r of o.regions || []) {
      const seats = new Set([...(r.leaders || []).map((l) => l.seat), ...(r.troops || []).map((t) => t.seat)]);
      for (const seat of [...seats].sort()) {
        const leaders = (r.leaders || []).filter((l) => l.seat === seat).sort((a, b) => (a.rank === "warlord" ? -1 : 1) - (b.rank === "warlord" ? -1 : 1));
        const troops = (r.troops || []).filter((t) => t.seat === seat);
        const counts = new Map();
        for (const t of troops) counts.set(t.kind, (counts.get(t.kind) || 0) + 1);
        const words = [...counts].map(([k, n]) => `${n} ${this.troopName(k)}`).join(", ");
        out.push({
          key: seat, region: r.id, colour: this.colour(seat), count: troops.length, testid: `wq-stack-${r.id}-${seat}`,
          title: `${sentence(this.pname(seat))}: ${leaders.map((l) => (l.rank === "warlord" ? "the Warlord" : "a Lieutenant")).join(", ") || "no leader"}${words ? `; ${words}` : ""}`,
          leaders: leaders.map((l) => ({ id: l.id, crown: l.rank === "warlord", text: "L", title: `${sentence(this.pname(seat))}: ${l.rank === "warlord" ? "Warlord" : "Lieutenant"}` })),
        });
      }
    }
    return out;
  }

  owners(o) {
    const m = new Map();
    for (const r of o.regions || []) {
      if (r.owner !== null && r.owner !== undefined) m.set(r.id, { colour: this.colour(r.owner), title: `Owned by ${this.pname(r.owner)}` });
    }
    return m;
  }

  /** The seat's own quest locations (never another seat's: the hand is the seat's own and drawn only here). */
  questMarks() {
    if (!this.mine()) return [];
    const hand = this.obs().hand || {};
    return (hand.quests || []).filter((q) => q.region).map((q) => ({ region: q.region, text: `Q${q.vp}`, kind: q.sacred ? "sacred" : "quest",
      title: `Your quest: ${q.name} (${q.vp} VP)`, testid: `wq-quest-mark-${q.id}` }));
  }

  /** The regions the action in hand may choose. */
  targets() {
    const o = this.obs();
    if (!this.myTurn()) return new Set();
    const q = this.myQuestion();
    if (q && q.kind === "retreat") return new Set(this.of("retreat").map((a) => a.region));
    if (o.phase === "place") {
      // Almost every region may be chosen at setup: marks on all of them would only clutter the map.
      const free = new Set(this.of("place").map((a) => a.region));
      const all = (this.mapData() || { regions: [] }).regions.length;
      return free.size * 2 > all ? new Set() : free;
    }
    if (this.mode === "move") return new Set(this.destinations().map((d) => d.region));
    if (REGION_ACTIONS.has(this.mode)) return new Set(this.of(this.mode).map((a) => a.region));
    return new Set();
  }

  modeOffered(mode) {
    if (mode === "move") return this.shell.movable().size > 0;
    return this.of(mode).length > 0;
  }

  // ---------------------------------------------------------------- side panels

  renderStatus(o) {
    const left = o.events_left ?? (o.decks || {}).events;
    fill(this.elStatus, (o.players || []).map((p) => h("span", { class: ["wq-chip", p.seat === o.seat && o.phase === "turn" && "acting"],
      testid: `wq-chip-${p.seat}`, title: `${sentence(p.name)}: ${p.vp ?? 0} VP, ${p.gold ?? 0} gold` },
    h("span", { class: "swatch round", style: { background: p.colour } }), h("b", {}, `${p.vp ?? 0}`), " VP")),
    left !== undefined && left !== null ? h("span", { class: "wq-chip muted", testid: "wq-events-left", title: "Events left in the deck" }, `${left} events`) : null);
  }

  renderMe(o) {
    const me = this.me();
    this.elMe.hidden = !me;
    if (!me) return;
    fill(this.elMe, h("div", { class: "wq-me-head" },
      h("span", { class: "swatch round", style: { background: me.colour } }), h("b", {}, sentence(me.name))),
    h("div", { class: "wq-stats" },
      h("span", { class: "wq-stat gold", testid: "wq-gold" }, h("b", {}, String(me.gold ?? 0)), " gold"),
      h("span", { class: "wq-stat", testid: "wq-vp" }, h("b", {}, String(me.vp ?? 0)), " VP"),
      h("span", { class: "wq-stat", testid: "wq-sacred", title: "Sacred quests done (four make an Emperor)" }, h("b", {}, `${me.sacred ?? 0}/4`), " sacred"),
      h("span", { class: "wq-stat", testid: "wq-tokens", title: "Ownership tokens left" }, h("b", {}, String(me.tokens_left ?? "")), " tokens")),
    (me.powers || []).length ? h("div", { class: "wq-owned", testid: "wq-my-powers" }, (me.powers || []).map((c) => this.powerCard(c, null))) : null);
  }

  /** The seat's secret hand: only for the seat this screen plays, from its own observation. */
  renderHand(o) {
    const hand = this.mine() ? o.hand || {} : {};
    const quests = hand.quests || [];
    const conquests = hand.conquests || [];
    this.elHand.hidden = !quests.length && !conquests.length;
    if (this.elHand.hidden) { this.elHand.replaceChildren(); return; }
    const offered = new Map(this.of("quest").map((a) => [a.card, a]));
    fill(this.elHand, h("h3", { class: "side-title", "data-help": "idea:hidden" }, "Your hand (secret)"),
      h("div", { class: "wq-cards" },
        quests.map((q) => h("div", { class: ["wq-card", "quest", q.sacred && "sacred"], testid: `wq-quest-${q.id}`, "data-help": "action:quest" },
          h("div", { class: "wq-card-head" }, h("span", { class: "wq-card-kind" }, q.sacred ? "Sacred quest" : "Quest"), h("span", { class: "wq-vp" }, `${q.vp} VP`)),
          h("div", { class: "wq-card-name" }, q.name),
          h("div", { class: "wq-card-text" }, `${q.monster ? `${sentence(q.monster)} · ` : ""}${this.locationName(q.location)} in ${this.regionName(q.region)}`),
          offered.has(q.id) ? h("button", { type: "button", class: "btn primary small", testid: `wq-quest-go-${q.id}`,
            onclick: () => this.send(offered.get(q.id)) }, `Attempt (2d6 ≥ ${q.vp})`) : null)),
        conquests.map((c) => h("div", { class: ["wq-card", "conquest", this.kingdomOf(c.name, c.text) && "names-kingdom"], testid: `wq-conquest-${c.id}`,
          "data-help": "idea:victory", "data-kingdom": this.kingdomOf(c.name, c.text), onclick: () => this.showKingdom(this.kingdomOf(c.name, c.text)) },
          h("div", { class: "wq-card-head" }, h("span", { class: "wq-card-kind" }, "Conquest"), h("span", { class: "wq-vp" }, `${c.vp} VP`)),
          h("div", { class: "wq-card-name" }, c.name),
          h("div", { class: "wq-card-text" }, c.text)))));
  }

  renderEvent(o) {
    const e = o.event;
    // The event is turned when a round ends: in round 3 the card shown is the one that closed round 2 (done).
    const after = Number(o.round || 0) - 1;
    fill(this.elEvent, h("h3", { class: "side-title", testid: "wq-event-title" }, after >= 1 ? `Last event (end of round ${after})` : "Last event"),
      e ? h("div", { class: ["wq-card", "event", this.kingdomOf(e.name, e.text) && "names-kingdom"], testid: "wq-event-card", "data-help": `event:${this.eventEffect(e)}`,
        "data-kingdom": this.kingdomOf(e.name, e.text), onclick: () => this.showKingdom(this.kingdomOf(e.name, e.text)) }, h("div", { class: "wq-card-name" }, e.name), h("div", { class: "wq-card-text" }, e.text))
        : h("p", { class: "muted" }, "No event turned yet."));
  }

  powerCard(c, buy) {
    return h("div", { class: ["wq-card", "power", c.event && "event-power"], testid: `wq-power-${c.id}`, "data-help": `power:${this.powerEffect(c)}` },
      h("div", { class: "wq-card-head" }, h("span", { class: "wq-card-kind" }, c.event ? "Event power" : "Power"), h("span", { class: "wq-cost" }, `${c.cost} gold`)),
      h("div", { class: "wq-card-name" }, c.name), h("div", { class: "wq-card-text" }, c.text), buy);
  }

  eventEffect(e) {
    const found = ((this.cat && this.cat.events) || []).find((x) => x.id === e.id);
    return found ? found.effect : e.key;
  }

  renderMarket(o) {
    const offered = this.of("power");
    fill(this.elMarket, h("h3", { class: "side-title", "data-help": "idea:rule_of_five" }, "Power market"),
      h("div", { class: "wq-cards market" }, (o.market || []).map((c, i) => {
        if (!c) return h("div", { class: "wq-card empty", testid: `wq-market-${i}` }, "(empty)");
        const buys = offered.filter((a) => a.card === c.id);
        const buy = buys.length ? h("button", { type: "button", class: "btn primary small", testid: `wq-buy-${c.id}`,
          onclick: () => this.buy(c, buys) }, `Buy for ${c.cost}`) : null;
        return this.powerCard(c, buy);
      })));
  }

  playerCard(p, full = false) {
    return h("div", { class: "wq-player", testid: `wq-player-${p.seat}`, style: { "--pc": p.colour } },
      h("div", { class: "wq-player-head" }, h("span", { class: "swatch round", style: { background: p.colour } }), h("b", {}, sentence(p.name))),
      h("div", { class: "wq-player-facts" },
        `${p.gold ?? 0} gold · ${p.vp ?? 0} VP · ${p.sacred ?? 0} sacred · ${plural(p.quests_held ?? 0, "quest")} · ${plural(p.conquests_held ?? 0, "conquest")} · ${plural(p.lieutenants ?? 0, "lieutenant")}`),
      (p.powers || []).length ? h("div", { class: "wq-player-powers" }, "Powers: ", (p.powers || []).map((c) => c.name).join(", ")) : null,
      full && (p.done_quests || []).length ? h("div", { class: "wq-player-powers" }, "Quests done: ", p.done_quests.map((q) => `${q.name} (${q.vp})`).join(", ")) : null,
      full && (p.scored_conquests || []).length ? h("div", { class: "wq-player-powers" }, "Conquests: ", p.scored_conquests.map((q) => `${q.name} (${q.vp})`).join(", ")) : null);
  }

  renderPlayers(o) {
    fill(this.elPlayers, h("h3", { class: "side-title" }, "Warlords"), (o.players || []).filter((p) => !this.mine() || p.seat !== this.seat()).map((p) => this.playerCard(p)));
  }

  /** The turn's actions as buttons: each with its cost, greyed with the reason when the table offers none. */
  renderActs(o) {
    const show = this.myTurn() && o.phase === "turn" && !o.battle && !this.myQuestion();
    this.elActs.hidden = !show;
    if (!show) { this.elActs.replaceChildren(); return; }
    const buttons = ACTION_ORDER.map((type) => {
      const offered = type === "move" ? this.shell.movable().size > 0 : this.of(type).length > 0;
      const why = offered ? null : this.whyNot(type, o);
      const cost = this.costWords(type);
      return h("button", { type: "button", class: ["btn", "wq-act", this.mode === type ? "primary" : "secondary"], testid: `wq-act-${type}`,
        disabled: !offered, "data-help": `action:${type}`, title: why || cost || ACTION_NAMES[type], onclick: () => this.chooseAction(type) },
      h("span", { class: "wq-act-name" }, ACTION_NAMES[type]),
      cost ? h("span", { class: "wq-act-cost" }, cost) : null,
      why ? h("span", { class: "wq-act-why", testid: `wq-why-${type}` }, why) : null);
    });
    fill(this.elActs, h("div", { class: "wq-act-grid" }, buttons));
  }

  costWords(type) {
    if (type === "lieutenant") {
      const a = this.of("lieutenant")[0];
      return `${(a && a.cost) || 8} gold`;
    }
    if (type === "recruit") return "gold per troop";
    if (type === "power") return "card's cost";
    if (type === "tax") {
      const gold = this.of("tax").map((a) => (this.regionInfo(a.region) || {}).tax || 0);
      return gold.length ? `+${Math.max(...gold)} gold` : "+ a city's tax";
    }
    if (type === "quest") return "2d6 ≥ VP";
    return null;
  }

  /** Why an action is not offered now, read from the observation (the table alone judges; this only explains). */
  whyNot(type, o) {
    if ((o.actions_left ?? 0) <= 0) return "no actions left";
    const me = this.me();
    if (!me) return "not your turn";
    const seat = me.seat;
    const mineLeaders = (o.regions || []).flatMap((r) => (r.leaders || []).filter((l) => l.seat === seat).map((l) => ({ ...l, region: r.id })));
    const owned = (o.regions || []).filter((r) => r.owner === seat).map((r) => r.id);
    switch (type) {
      case "move": return "every leader has moved";
      case "tax": {
        const cities = owned.filter((id) => (this.regionInfo(id) || {}).city);
        return cities.length ? "your cities are taxed this turn" : "you own no city";
      }
      case "conquer":
        if ((me.tokens_left ?? 1) <= 0) return "no ownership tokens left";
        return "your leaders stand in regions you own";
      case "recruit": return "no leader where you may recruit (or too little gold)";
      case "lieutenant": {
        const w = mineLeaders.find((l) => l.rank === "warlord");
        if ((me.lieutenants ?? 0) >= 2) return "two lieutenants on the board";
        if (w && !(this.regionInfo(w.region) || {}).city) return "your Warlord is not in a city";
        return "8 gold needed";
      }
      case "power":
        if ((o.marks || {}).bought_power) return "one power card a turn";
        if (!mineLeaders.some((l) => (this.regionInfo(l.region) || {}).battlefield)) return "no leader at an ancient battlefield";
        return "too little gold";
      case "quest":
        if (((o.marks || {}).quests ?? 0) >= 1) return "one quest a turn";
        return "no leader at your quests' locations";
      default: return "not now";
    }
  }

  chooseAction(type) {
    this.dest = null;
    if (type === "move") {
      this.mode = "move";
      const first = [...this.shell.movable()][0];
      if (this.shell.selected === null && first !== undefined) this.pickLeader(first);
      else this.shell.render();
      return;
    }
    if (type === "lieutenant") { const a = this.of("lieutenant")[0]; if (a) this.send(a); return; }
    if (type === "power") { this.elMarket.scrollIntoView({ block: "nearest" }); this.mode = null; this.shell.render(); return; }
    if (type === "quest") {
      const qs = this.of("quest");
      if (qs.length === 1) this.send(qs[0]);
      else this.elHand.scrollIntoView({ block: "nearest" });
      return;
    }
    const offered = this.of(type);
    const regions = [...new Set(offered.map((a) => a.region))];
    this.shell.select(null, { render: false });
    if (regions.length === 1 && type !== "recruit") { this.send(offered[0]); return; }
    if (regions.length === 1 && type === "recruit") { this.openRecruit(regions[0]); return; }
    this.mode = type;
    this.shell.render();
  }

  /** The dock of the move in hand: the leader, the troops to take by kind, the odds of a battle. */
  renderMove(o) {
    const id = this.shell.selected;
    const show = this.myTurn() && o.phase === "turn" && !o.battle && id !== null && id !== undefined && this.shell.movable().has(id);
    this.elMove.hidden = !show && !this.regionChoice();
    if (!show) {
      const rc = this.regionChoice();
      if (rc) fill(this.elMove, rc);
      else this.elMove.replaceChildren();
      return;
    }
    const l = this.leader(id);
    const troops = this.movableTroops(id);
    const kinds = new Map();
    for (const t of troops) kinds.set(t.kind, (kinds.get(t.kind) || 0) + 1);
    const toggles = [...kinds].map(([kind, n]) => {
      const on = this.take.get(kind) !== false;
      return h("button", { type: "button", class: ["btn", "small", "wq-take", on ? "on" : "off"], testid: `wq-take-${kind}`, "aria-pressed": on ? "true" : "false",
        "data-kind-troop": kind, onclick: () => { this.take.set(kind, !on); this.askOdds(); this.shell.render(); } },
      `${on ? "✓" : "✗"} ${n} ${this.troopName(kind)}`);
    });
    const dests = this.destinations();
    const waiting = !(this.shell.selection && this.shell.selection.unit === id) && !dests.length;
    fill(this.elMove,
      h("div", { class: "wq-move-head" }, h("b", {}, `Move ${l && l.rank === "warlord" ? "your Warlord" : "a Lieutenant"}`),
        l ? ` from ${this.regionName(l.region)}` : "",
        h("button", { type: "button", class: "btn secondary small", testid: "wq-move-cancel", onclick: () => this.cancel() }, "Cancel")),
      troops.length ? h("div", { class: "wq-takes", testid: "wq-takes" }, h("span", { class: "muted" }, "Take: "), toggles)
        : h("p", { class: "muted" }, "No troops to take: the leader moves alone."),
      waiting ? h("p", { class: "muted" }, "Asking the table where it may go…")
        : h("p", { class: "muted", testid: "wq-dest-count" }, dests.length ? `${plural(dests.length, "region")} lit on the map.` : "It cannot move."),
      this.dest ? this.oddsPanel(this.dest) : null,
      this.destButtons(dests));
  }

  /** The lit regions also as buttons (a phone's map may be zoomed away from them). */
  destButtons(dests) {
    if (!dests.length) return null;
    // Kept open across redraws once opened (a redraw builds the list anew).
    return h("details", { class: "wq-dest-list", testid: "wq-dest-list", open: this.destOpen || null,
      ontoggle: (e) => { this.destOpen = e.target.open; } }, h("summary", {}, "Destinations"),
      h("div", { class: "wq-choices" }, dests.map((d) => h("button", { type: "button", class: ["btn", "small", d.fights ? "danger" : "secondary"],
        testid: `wq-dest-${d.region}`, onclick: () => this.tapRegion(d.region) }, `${this.regionName(d.region)}${d.fights ? " ⚔" : ""}`))));
  }

  /** A tax, conquest or recruit waiting for its region: the lit regions as buttons. */
  regionChoice() {
    if (!this.myTurn() || !REGION_ACTIONS.has(this.mode)) return null;
    const regions = [...new Set(this.of(this.mode).map((a) => a.region))];
    return [h("div", { class: "wq-move-head" }, h("b", {}, `${ACTION_NAMES[this.mode]}: choose a region`),
      h("button", { type: "button", class: "btn secondary small", testid: "wq-mode-cancel", onclick: () => this.cancel() }, "Cancel")),
    h("div", { class: "wq-choices" }, regions.map((r) => h("button", { type: "button", class: "btn secondary small", testid: `wq-choose-${r}`,
      onclick: () => this.tapRegion(r) }, `${this.regionName(r)}${this.mode === "tax" ? ` (+${(this.regionInfo(r) || {}).tax ?? "?"})` : ""}`)))];
  }

  /** The battle odds of the move in hand (the table's preview, for the troops taken): win chance, its error bound,
   * round 1 by rank (the hits and flees each rank may expect, on average, with their spread). */
  oddsPanel(d) {
    const answer = this.odds && this.odds.answer;
    const odds = answer ? answer.odds : null;
    const rankRows = [];
    const rounds = odds ? odds.round : null;
    if (rounds) {
      for (const side of ["attacker", "defender"]) {
        for (const rank of ["front", "rear"]) {
          const r = (rounds[side] || {})[rank];
          if (!r || !r.dice) continue;
          rankRows.push(h("tr", { testid: `wq-odds-${side}-${rank}` }, h("td", {}, `${side === "attacker" ? "You" : "They"}: ${rank}`),
            h("td", {}, String(r.dice)), h("td", {}, this.histogram(r.hits, "hits")), h("td", {}, this.histogram(r.flees, "flees"))));
        }
      }
    }
    const err = odds ? Number(odds.error || 0) : 0;
    const taken = this.takenTroops().length;
    let win;
    if (!answer) win = h("p", { class: "muted", testid: "wq-odds-wait" }, "Working out the odds…");
    else if (!odds) win = h("p", { class: "muted", testid: "wq-odds-none" }, answer.reason ? sentence(answer.reason) : "The odds are not known.");
    else {
      win = h("p", { class: "wq-win", testid: "wq-win" }, "Chance to win: ", h("b", {}, pct(odds.attacker_wins)),
        err > 0 ? h("span", { class: "wq-err", testid: "wq-odds-error" }, ` ± ${pct(err)} (not exact)`) : h("span", { class: "muted" }, " (exact)"));
    }
    return h("div", { class: "wq-odds", testid: "wq-odds" },
      h("div", { class: "wq-odds-head" }, h("b", {}, `Battle in ${this.regionName(d.region)}`),
        h("span", { class: "muted", testid: "wq-odds-troops" }, ` · you take ${plural(taken, "troop")}`)),
      win,
      rankRows.length ? h("table", { class: "wq-odds-table" }, h("thead", {}, h("tr", {}, h("th", {}, "Round 1"), h("th", {}, "Dice"),
        h("th", {}, "Hits, on average"), h("th", {}, "Flees, on average"))), h("tbody", {}, rankRows)) : null,
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn danger", testid: "wq-attack", onclick: () => this.sendMove(d) }, "Attack"),
        h("button", { type: "button", class: "btn secondary", testid: "wq-attack-cancel", onclick: () => { this.dest = null; this.odds = null; this.shell.render(); } }, "Cancel")));
  }

  /** A distribution drawn as small bars with its mean: "1.2 ▁▃▅". */
  histogram(d, what) {
    const pairs = dist(d);
    if (!pairs.length) return "–";
    const top = Math.max(...pairs.map(([, p]) => p));
    return h("span", { class: "wq-hist", title: pairs.map(([k, p]) => `${k} ${what}: ${pct(p)}`).join("\n") },
      h("span", { class: "wq-hist-mean", testid: `wq-mean-${what}` }, `${mean(d).toFixed(1)} ${what}`),
      h("span", { class: "wq-hist-bars" }, pairs.slice(0, 8).map(([k, p]) => h("span", { class: "wq-bar", style: { height: `${Math.max(2, Math.round((p / top) * 16))}px` },
        title: `${k}: ${pct(p)}` }))));
  }

  // ---------------------------------------------------------------- the battle screen

  renderBattle(o) {
    const b = o.battle;
    this.elMapToggle.hidden = !b;
    this.elMapToggle.textContent = this.showMap ? "Show the battle" : "Show the map";
    const show = Boolean(b) && !this.showMap;
    this.elBattle.hidden = !show;
    if (!show) { this.elBattle.replaceChildren(); return; }
    const q = this.myQuestion();
    const att = b.attacker || {};
    const def = b.defender || {};
    const mySide = q ? (att.seat === this.seat() ? "attacker" : def.seat === this.seat() ? "defender" : null) : null;
    fill(this.elBattle,
      h("div", { class: "wq-battle-head" }, h("h2", {}, `Battle in ${this.regionName(b.region)}`),
        h("span", { class: "muted", testid: "wq-battle-round" }, `Round ${b.round ?? 1}`)),
      // The question first: on a small screen the answer is in reach without scrolling the battle.
      this.questionDock(q, b),
      this.sideBox("defender", def, b, q, mySide),
      this.diceBox(o),
      this.sideBox("attacker", att, b, q, mySide));
  }

  /** One side of the battle: its areas with their troops, the attacking rank marked. */
  sideBox(name, side, b, q, mySide) {
    const attacking = b.attacking && b.attacking.side === name ? b.attacking.rank : null;
    const draft = this.draft && this.draft.side === name ? this.draft : null;
    const areas = draft && draft.areas ? draft.areas : {
      front: side.front || [], rear: side.rear || [], reserve: side.reserve || [], retreat: side.retreat || [],
    };
    const seat = side.seat;
    const targetRank = q && q.kind === "assign" && name !== mySide ? q.target || null : null;
    return h("section", { class: ["wq-side", name], testid: `wq-side-${name}`, style: { "--pc": this.colour(seat) } },
      h("div", { class: "wq-side-head" }, h("span", { class: "swatch round", style: { background: this.colour(seat) } }),
        h("b", {}, `${sentence(this.pname(seat))}`), h("span", { class: "muted" }, name === "attacker" ? " attacks" : " defends"),
        (side.leaders || []).length ? h("span", { class: "wq-leaders", title: "Leaders in the Reserve rally one troop each a round" },
          ` · ${plural(side.leaders.length, "leader")}`) : null),
      h("div", { class: "wq-areas" }, AREAS.map(([key, label]) => {
        const list = areas[key] || [];
        return h("div", { class: ["wq-area", key, attacking === key && "attacking", targetRank === key && "targeted"], testid: `wq-area-${name}-${key}` },
          h("div", { class: "wq-area-label" }, label, attacking === key ? h("span", { class: "wq-attacking-tag", testid: "wq-attacking" }, " attacks") : null),
          h("div", { class: "wq-troops" }, list.length ? list.map((t) => this.troopChip(t, name, key, q, mySide)) : h("span", { class: "muted wq-none" }, "—")));
      })));
  }

  troopChip(t, sideName, area, q, mySide) {
    const info = this.troopInfo(t.kind) || {};
    const defence = info.defense;
    const name = this.troopName(t.kind);
    const [first, ...rest] = name.replace(/\s*\(elite\)/i, "").split(" ");
    const hits = Number(t.hits || 0);
    const draft = this.draft;
    let onclick = null;
    let extra = null;
    if (draft && draft.kind === "arrange" && sideName === draft.side) onclick = () => this.cycleArrange(t.id);
    if (draft && draft.kind === "refill" && sideName === draft.side && area !== "retreat") onclick = () => this.cycleRefill(t.id);
    if (draft && draft.kind === "assign" && sideName !== mySide && area === draft.rank) {
      const given = draft.hits.get(t.id) || 0;
      const fled = draft.flees.has(t.id);
      extra = h("span", { class: "wq-assign" }, given ? h("span", { class: "wq-assign-hits" }, `+${given}✸`) : null, fled ? h("span", { class: "wq-assign-flee" }, "↩") : null);
    }
    if (q && q.kind === "spell" && sideName !== mySide) {
      const a = this.of("spell").find((x) => x.troop === t.id);
      if (a) onclick = () => this.send(a);
    }
    return h("button", { type: "button", class: ["wq-troop", onclick && "tappable", info.missile && "missile"], testid: `wq-troop-${t.id}`,
      "data-kind-troop": t.kind, "data-hits": hits, disabled: !onclick, title: `${name}: attack ${info.attack ?? "?"}, defence ${defence ?? "?"}${info.missile ? ", missile" : ""}${hits ? `, ${hits} hit${hits > 1 ? "s" : ""}` : ""}`,
      onclick },
    h("span", { class: "wq-troop-name" }, first), h("span", { class: "wq-troop-sub" }, rest.join(" ") || " "),
    h("span", { class: "wq-troop-stats" }, `${info.attack ?? "?"}/${defence ?? "?"}${info.missile ? " M" : ""}`),
    hits ? h("span", { class: "wq-hitmarks", testid: `wq-hits-${t.id}` }, Array.from({ length: hits }, () => h("span", { class: "wq-hitmark" }))) : null,
    extra);
  }

  /** What a roll did: "2 eliminated, 1 fled (1 flee lost)". */
  tookWords(e) {
    const fled = (e.took.fled || []).length;
    const lost = Math.max(0, Number(e.flees || 0) - fled);
    return `→ ${(e.took.eliminated || []).length} eliminated, ${fled} fled${lost ? ` (${plural(lost, "flee")} lost: no troop could flee)` : ""}`;
  }

  /** Whose rank a battle's roll is: "the Blue Warlord's front rank" (a spell: "the Blue Warlord's spell"). */
  rollOwner(e) {
    const who = this.pname(e.seat);
    if (e.event === "SpellRolled") return `${who}'s spell`;
    return `${who}'s ${e.rank === "rear" ? "rear" : "front"} rank`;
  }

  /**
   * The dice of the roll in progress, or of the last roll, with whose they are; then this round's attacks so far
   * (the last round's when a new one has not begun), one row each: whose rank, at which enemy rank, the result.
   */
  diceBox(o) {
    const r = o.rolling || o.last_roll;
    const b = o.battle || {};
    const f = this.fight && this.fight.region === b.region ? this.fight : null;
    const rows = f ? (f.rolls.length ? f.rolls : f.lastRound) : [];
    const table = rows.length ? h("table", { class: "wq-round-rolls", testid: "wq-round-rolls" },
      h("caption", {}, f.rolls.length ? `Round ${f.round}: the attacks so far` : "The last round's attacks"),
      h("tbody", {}, rows.map((e, i) => h("tr", { testid: `wq-round-roll-${i}` },
        h("td", {}, h("span", { class: "swatch round", style: { background: this.colour(e.seat) } }), ` ${sentence(this.rollOwner(e))}`),
        h("td", {}, e.target ? `at the ${e.target} rank` : ""), h("td", {}, dice(e.dice ?? (e.faces || []).length)),
        h("td", {}, `${plural(e.hits ?? 0, "hit")}, ${plural(e.flees ?? 0, "flee")}`),
        h("td", { testid: `wq-round-took-${i}` }, e.took ? this.tookWords(e) : ""))))) : null;
    if (!r) return h("div", { class: "wq-dice muted", testid: "wq-dice" }, "No dice rolled yet.", table);
    const faces = (r.faces || []).map(faceWord);
    const hits = r.hits ?? faces.filter((x) => x === "hit").length;
    const flees = r.flees ?? faces.filter((x) => x === "flee").length;
    const waiting = o.rolling ? Math.max(0, (r.dice || 0) - faces.length) : 0;
    let whose = sentence(String(r.purpose || "combat dice").replace(/_/g, " "));
    if (o.rolling && b.attacking) {
      const side = b[b.attacking.side] || {};
      whose = sentence(this.rollOwner({ seat: side.seat, rank: b.attacking.rank, event: r.purpose === "attack" ? "AttackRolled" : "SpellRolled" }));
    } else if (!o.rolling && rows.length && (r.purpose === "attack") === (rows.at(-1).event === "AttackRolled")) {
      whose = sentence(this.rollOwner(rows.at(-1)));
    }
    return h("div", { class: "wq-dice", testid: "wq-dice" },
      h("div", { class: "wq-dice-what", testid: "wq-dice-whose" }, whose, o.rolling ? " (rolling)" : ""),
      h("div", { class: "wq-dice-row" }, faces.map((x, i) => h("span", { class: ["wq-die", x], testid: `wq-die-${i}`, "data-face": x, title: x },
        x === "hit" ? "✸" : x === "flee" ? "↩" : "")),
      Array.from({ length: Math.min(waiting, 30) }, () => h("span", { class: "wq-die waiting" }, "?"))),
      h("div", { class: "wq-dice-sum", testid: "wq-dice-sum" }, `${plural(hits, "hit")}, ${plural(flees, "flee")}`), table);
  }

  questionWords(q) {
    const n = (k) => Number(q[k] || 0);
    switch (q.kind) {
      case "arrange": return "Arrange your troops: up to five in the Front rank and five in the Rear; the rest wait in the Reserve. Tap a troop to move it, or take the table's line.";
      case "target": return "Your missile troops fire: choose the enemy rank they strike.";
      case "spell": return "Your wizard may cast a spell: tap the enemy troop to strike, or cast none.";
      case "breath": return "Your dragon may breathe fire once this battle: choose the enemy rank, or wait.";
      case "assign": return `Assign ${plural(n("hits"), "hit")} and ${plural(n("flees"), "flee")} to the enemy ${q.target ? `${q.target} rank` : "troops"}: the table's choice is one tap away.`;
      case "refill": return "Fill the gaps in your ranks from the Reserve.";
      case "press_on": return "The round is over: press on, or withdraw (and lose the battle)?";
      case "retreat": return "You lost: choose the region your army retreats to.";
      case "discard": return "Six power cards: choose one to discard for good (the Rule of Five).";
      default: return humanise(q.kind);
    }
  }

  /** The answers to the battle's question: the table's default first, then the others and a way to build one. */
  questionDock(q, b) {
    if (!q || !BATTLE_QUESTIONS.has(q.kind)) {
      const asked = this.question();
      const who = asked && asked.seat !== undefined ? this.pname(asked.seat) : null;
      return h("div", { class: "wq-dock muted", testid: "wq-battle-wait" }, asked && who ? `${sentence(who)} is choosing (${humanise(asked.kind)}).` : this.view && this.view.die ? "Roll the dice." : "The battle goes on…");
    }
    const offered = this.of(q.kind);
    const dock = h("div", { class: "wq-dock", testid: `wq-ask-${q.kind}` }, h("p", { class: "wq-dock-words" }, this.questionWords(q)));
    const button = (a, label, kind = "secondary", testid = null) => h("button", { type: "button", class: ["btn", kind], testid, onclick: () => this.send(a) }, label);
    const rankWord = (r) => (r === "front" ? "the Front rank" : r === "rear" ? "the Rear rank" : "no rank");
    // The table's default is the first answer offered (battle_flow.questions): one tap, named as such, first.
    const choice = (a, i, label, testid) => h("button", { type: "button", class: ["btn", i === 0 ? "primary" : "secondary"], testid,
      "data-default": i === 0 ? "true" : null, onclick: () => this.send(a) },
    i === 0 ? `Table's choice: ${label.charAt(0).toLowerCase()}${label.slice(1)}` : label);
    const row = h("div", { class: "wq-choices" });
    dock.append(row);
    switch (q.kind) {
      case "arrange":
      case "refill": {
        const mySide = b.attacker && b.attacker.seat === this.seat() ? "attacker" : "defender";
        if (offered[0]) row.append(button(offered[0], q.kind === "arrange" ? "The table's line" : "Refill as the table suggests", "primary", `wq-${q.kind}-default`));
        offered.slice(1, 4).forEach((a, i) => row.append(button(a, `Line ${i + 2}: ${a.front.length} front, ${a.rear.length} rear`, "secondary", `wq-${q.kind}-${i + 2}`)));
        if (!this.draft || this.draft.kind !== q.kind) {
          row.append(h("button", { type: "button", class: "btn secondary", testid: `wq-${q.kind}-custom`, onclick: () => this.startDraft(q, b, mySide, offered[0]) }, "My own line…"));
        } else {
          row.append(h("button", { type: "button", class: "btn primary", testid: `wq-${q.kind}-send`, onclick: () => this.sendDraft() }, "Send this line"),
            h("button", { type: "button", class: "btn secondary", testid: `wq-${q.kind}-drop`, onclick: () => { this.draft = null; this.shell.render(); } }, "Back"));
        }
        break;
      }
      case "target":
        offered.forEach((a, i) => row.append(choice(a, i, `Strike ${rankWord(a.rank)}`, `wq-target-${a.rank}`)));
        break;
      case "spell":
        offered.forEach((a, i) => {
          if (a.troop === null || a.troop === undefined) row.append(choice(a, i, "Cast no spell", "wq-spell-none"));
          else row.append(choice(a, i, `Strike ${this.troopName(this.battleTroop(b, a.troop)?.kind || "")}`, `wq-spell-${a.troop}`));
        });
        break;
      case "breath":
        offered.forEach((a, i) => row.append(choice(a, i, a.rank ? `Breathe on ${rankWord(a.rank)}` : "Not now", `wq-breath-${a.rank || "none"}`)));
        break;
      case "assign": {
        if (offered[0]) row.append(button(offered[0], "Table's choice", "primary", "wq-assign-default"));
        if (!this.draft || this.draft.kind !== "assign") {
          row.append(h("button", { type: "button", class: "btn secondary", testid: "wq-assign-custom", onclick: () => this.startAssign(q, b) }, "Assign myself…"));
        } else {
          dock.append(this.assignEditor(q, b));
        }
        break;
      }
      case "press_on":
        offered.forEach((a, i) => row.append(choice(a, i, a.withdraw ? "Withdraw" : "Press on", a.withdraw ? "wq-withdraw" : "wq-press-on")));
        break;
      case "retreat":
        for (const a of offered) row.append(button(a, `Retreat to ${this.regionName(a.region)}`, "primary", `wq-retreat-${a.region}`));
        break;
      default:
        offered.forEach((a, i) => row.append(button(a, humanise(JSON.stringify(a)), "secondary", `wq-answer-${i}`)));
    }
    return dock;
  }

  battleTroop(b, id) {
    for (const side of [b.attacker || {}, b.defender || {}]) {
      for (const [key] of AREAS) {
        const t = (side[key] || []).find((x) => x.id === id);
        if (t) return t;
      }
    }
    return null;
  }

  /** Build an arrangement or a refill by taps, starting from the table's. */
  startDraft(q, b, side, first) {
    const s = b[side] || {};
    const all = [...(s.front || []), ...(s.rear || []), ...(s.reserve || [])];
    const byId = new Map(all.map((t) => [t.id, t]));
    const front = first ? first.front.map((id) => byId.get(id)).filter(Boolean) : [...(s.front || [])];
    const rear = first ? first.rear.map((id) => byId.get(id)).filter(Boolean) : [...(s.rear || [])];
    const placed = new Set([...front, ...rear].map((t) => t.id));
    if (q.kind === "refill") { (s.front || []).forEach((t) => placed.add(t.id)); (s.rear || []).forEach((t) => placed.add(t.id)); }
    const keepFront = q.kind === "refill" ? [...(s.front || []), ...front.filter((t) => !(s.front || []).some((x) => x.id === t.id))] : front;
    const keepRear = q.kind === "refill" ? [...(s.rear || []), ...rear.filter((t) => !(s.rear || []).some((x) => x.id === t.id))] : rear;
    this.draft = { kind: q.kind, side, version: this.view.version, fixed: q.kind === "refill" ? new Set([...(s.front || []), ...(s.rear || [])].map((t) => t.id)) : new Set(),
      areas: { front: keepFront, rear: keepRear, reserve: all.filter((t) => !placed.has(t.id)), retreat: s.retreat || [] } };
    this.shell.render();
  }

  /** A tapped troop goes Front → Rear → Reserve → Front (five a rank at most). */
  cycleArrange(id) {
    const a = this.draft.areas;
    const from = ["front", "rear", "reserve"].find((k) => a[k].some((t) => t.id === id));
    if (!from) return;
    const t = a[from].find((x) => x.id === id);
    const order = ["front", "rear", "reserve"];
    let to = order[(order.indexOf(from) + 1) % 3];
    if (to !== "reserve" && a[to].length >= 5) to = to === "front" ? (a.rear.length < 5 ? "rear" : "reserve") : "reserve";
    a[from] = a[from].filter((x) => x.id !== id);
    a[to] = [...a[to], t];
    this.shell.render();
  }

  cycleRefill(id) {
    if (this.draft.fixed.has(id)) return;
    this.cycleArrange(id);
  }

  sendDraft() {
    const d = this.draft;
    const fresh = (list) => list.filter((t) => !d.fixed.has(t.id)).map((t) => t.id);
    const action = d.kind === "arrange" ? { type: "arrange", front: d.areas.front.map((t) => t.id), rear: d.areas.rear.map((t) => t.id) }
      : { type: "refill", front: fresh(d.areas.front), rear: fresh(d.areas.rear) };
    this.draft = null;
    this.send(action);
  }

  startAssign(q, b) {
    const first = this.of("assign")[0];
    const hits = new Map();
    const flees = new Set();
    if (first) {
      const given = first.hits || {};
      for (const [id, n] of Array.isArray(given) ? given : Object.entries(given)) hits.set(Number(id), Number(n));
      for (const id of first.flees || []) flees.add(Number(id));
    }
    const rank = q.target || "front";
    this.draft = { kind: "assign", version: this.view.version, rank, hits, flees, side: null };
    this.shell.render();
  }

  assignEditor(q, b) {
    const d = this.draft;
    const mine = b.attacker && b.attacker.seat === this.seat() ? "attacker" : "defender";
    const enemy = b[mine === "attacker" ? "defender" : "attacker"] || {};
    const troops = enemy[d.rank] || [];
    const given = [...d.hits.values()].reduce((t, v) => t + v, 0);
    const rows = troops.map((t) => {
      const n = d.hits.get(t.id) || 0;
      const set = (v) => { d.hits.set(t.id, Math.max(0, v)); this.shell.render(); };
      return h("div", { class: "wq-assign-row", testid: `wq-assign-${t.id}` },
        h("span", { class: "wq-assign-name" }, this.troopName(t.kind), t.hits ? ` (${t.hits} hit)` : ""),
        h("button", { type: "button", class: "btn small secondary", testid: `wq-assign-less-${t.id}`, onclick: () => set(n - 1) }, "−"),
        h("b", {}, `${n}✸`),
        h("button", { type: "button", class: "btn small secondary", testid: `wq-assign-more-${t.id}`, onclick: () => set(n + 1) }, "+"),
        h("button", { type: "button", class: ["btn", "small", d.flees.has(t.id) ? "primary" : "secondary"], testid: `wq-assign-flee-${t.id}`,
          onclick: () => { if (d.flees.has(t.id)) d.flees.delete(t.id); else d.flees.add(t.id); this.shell.render(); } }, "↩ flee"));
    });
    const send = () => {
      const hits = {};
      for (const [id, n] of d.hits) if (n > 0) hits[String(id)] = n;
      this.draft = null;
      this.send({ type: "assign", hits, flees: [...d.flees] });
    };
    return h("div", { class: "wq-assign-editor" }, rows,
      h("p", { class: "muted" }, `${given} of ${q.hits ?? "?"} hits, ${d.flees.size} of ${q.flees ?? "?"} flees given.`),
      h("div", { class: "row" }, h("button", { type: "button", class: "btn primary", testid: "wq-assign-send", onclick: send }, "Send"),
        h("button", { type: "button", class: "btn secondary", testid: "wq-assign-drop", onclick: () => { this.draft = null; this.shell.render(); } }, "Back")));
  }

  // ---------------------------------------------------------------- dialogs: placement, recruiting, discard

  /** The starting army (WQ-SU-14..17): the table's packages for the region, or the player's own count. */
  openPlace(region) {
    const offered = this.of("place").filter((a) => a.region === region);
    if (!offered.length) return;
    const me = this.me();
    const gold = (me && me.gold) ?? 30;
    const kinds = [...new Set(offered.flatMap((a) => Object.keys(a.troops || {})))];
    const counts = new Map(kinds.map((k) => [k, 0]));
    const total = h("p", { class: "big-text", testid: "wq-place-total" });
    const go = h("button", { type: "button", class: "btn primary", testid: "wq-place-send" }, "Place");
    const rows = kinds.map((k) => this.stepper(k, counts, () => show()));
    const show = () => {
      const cost = [...counts].reduce((t, [k, n]) => t + n * (this.troopCost(k) || 0), 0);
      total.textContent = `${[...counts.values()].reduce((t, n) => t + n, 0)} troops · ${cost} of ${gold} gold`;
      go.disabled = cost > gold;
      for (const r of rows) r.refresh();
    };
    // The table's packages, a mix of kinds first (the most gold spent), "no troops" last; each keeps its place
    // in the table's list as its test id.
    const kindsOf = (a) => Object.values(a.troops || {}).filter((n) => n > 0).length;
    const costOf = (a) => Object.entries(a.troops || {}).reduce((t, [k, n]) => t + n * (this.troopCost(k) || 0), 0);
    const order = offered.map((a, i) => ({ a, i })).sort((x, y) => (kindsOf(y.a) > 1) - (kindsOf(x.a) > 1)
      || (kindsOf(y.a) > 0) - (kindsOf(x.a) > 0) || costOf(y.a) - costOf(x.a) || x.i - y.i);
    const packages = order.map(({ a, i }, shown) => {
      const words = Object.entries(a.troops || {}).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${this.troopName(k)}`).join(", ") || "No troops";
      return h("button", { type: "button", class: ["btn", shown === 0 ? "primary" : "secondary", "wq-package"], testid: `wq-package-${i}`,
        onclick: () => { dlg.close(true); this.send(a); } }, `${words} (${costOf(a)} gold)`);
    });
    let dlg;
    go.addEventListener("click", () => {
      const troops = {};
      for (const [k, n] of counts) if (n > 0) troops[k] = n;
      dlg.close(true);
      this.send({ type: "place", region, troops });
    });
    dlg = modal({ title: `Your army in ${this.regionName(region)}`, testid: "wq-place-dialog", dismissable: true, transient: true, body: [
      h("p", {}, "Your Warlord and Lieutenant start here. Buy any basic troops with your 30 gold."),
      h("p", { class: "muted", testid: "wq-stats-key" }, "A troop's figures: attack/defence, the dice it rolls and the hits that eliminate it (defence 3 or more: it never flees); M: a missile troop."),
      h("div", { class: "wq-packages" }, packages),
      kinds.length ? h("h3", { class: "side-title" }, "Or count your own") : null, ...rows.map((r) => r.el), total,
      h("div", { class: "dialog-buttons" }, go, h("button", { type: "button", class: "btn secondary", testid: "wq-place-cancel", onclick: () => dlg.close(null) }, "Cancel"))] });
    this.dialog = { version: this.view.version, dlg, kind: "place" };
    dlg.done.then(() => { if (this.dialog && this.dialog.dlg === dlg) this.dialog = null; });
    show();
  }

  stepper(kind, counts, changed, max = 99) {
    const out = h("b", { class: "wq-count", testid: `wq-count-${kind}` }, "0");
    const minus = h("button", { type: "button", class: "btn small secondary", testid: `wq-less-${kind}`, "aria-label": `One ${this.troopName(kind)} less`,
      onclick: () => { counts.set(kind, Math.max(0, counts.get(kind) - 1)); changed(); } }, "−");
    const plus = h("button", { type: "button", class: "btn small secondary", testid: `wq-more-${kind}`, "aria-label": `One ${this.troopName(kind)} more`,
      onclick: () => { counts.set(kind, Math.min(max, counts.get(kind) + 1)); changed(); } }, "+");
    const cost = this.troopCost(kind);
    const info = this.troopInfo(kind) || {};
    const el = h("div", { class: "wq-step-row", "data-kind-troop": kind },
      h("span", { class: "wq-step-name" }, this.troopName(kind), h("span", { class: "muted" }, ` ${cost ?? "?"} gold · ${info.attack ?? "?"}/${info.defense ?? "?"}${info.missile ? " M" : ""}`)),
      minus, out, plus);
    return { el, refresh: () => { out.textContent = String(counts.get(kind)); minus.disabled = counts.get(kind) <= 0; plus.disabled = counts.get(kind) >= max; } };
  }

  /** Recruit in a region (WQ-RT): the kinds the table offers there, counted, within gold and the pool. */
  openRecruit(region) {
    const offered = this.of("recruit").filter((a) => a.region === region);
    if (!offered.length) return;
    const me = this.me();
    const gold = (me && me.gold) ?? 0;
    const max = new Map();
    for (const a of offered) for (const [k, n] of Object.entries(a.troops || {})) max.set(k, Math.max(max.get(k) || 0, Number(n)));
    const counts = new Map([...max.keys()].map((k) => [k, 0]));
    const total = h("p", { class: "big-text", testid: "wq-recruit-total" });
    const go = h("button", { type: "button", class: "btn primary", testid: "wq-recruit-send" }, "Recruit");
    const rows = [...max].map(([k, m]) => this.stepper(k, counts, () => show(), m));
    const show = () => {
      const cost = [...counts].reduce((t, [k, n]) => t + n * (this.troopCost(k) || 0), 0);
      const n = [...counts.values()].reduce((t, v) => t + v, 0);
      total.textContent = `${plural(n, "troop")} · ${cost} of ${gold} gold`;
      go.disabled = n === 0 || cost > gold;
      for (const r of rows) r.refresh();
    };
    let dlg;
    go.addEventListener("click", () => {
      const troops = {};
      for (const [k, n] of counts) if (n > 0) troops[k] = n;
      dlg.close(true);
      this.send({ type: "recruit", region, troops });
    });
    dlg = modal({ title: `Recruit in ${this.regionName(region)}`, testid: "wq-recruit-dialog", dismissable: true, transient: true, body: [
      h("p", { class: "muted" }, "The people of this land join your leader here."), ...rows.map((r) => r.el), total,
      h("div", { class: "dialog-buttons" }, go, h("button", { type: "button", class: "btn secondary", testid: "wq-recruit-cancel", onclick: () => dlg.close(null) }, "Cancel"))] });
    this.dialog = { version: this.view.version, dlg, kind: "recruit" };
    dlg.done.then(() => { if (this.dialog && this.dialog.dlg === dlg) this.dialog = null; this.mode = null; });
    show();
  }

  /** The Rule of Five (WQ-PW-08): buying a sixth power card names the one to discard. */
  async buy(card, buys) {
    const plain = buys.find((a) => a.discard === null || a.discard === undefined);
    if (plain) { this.send(plain); return; }
    const me = this.me();
    const names = new Map([...(me ? me.powers || [] : []), card].map((c) => [c.id, c.name]));
    const dlg = modal({ title: "The Rule of Five", testid: "wq-five-dialog", dismissable: true, transient: true,
      body: h("p", {}, "You may hold five power cards: choose the one that leaves play for good."),
      buttons: [...buys.map((a) => ({ label: `Discard ${names.get(a.discard) || a.discard}`, value: a, testid: `wq-five-${a.discard}` })),
        { label: "Cancel", value: null, testid: "wq-five-cancel" }] });
    const a = await dlg.done;
    if (a) this.send(a);
  }

  openDiscard(q, version) {
    const offered = this.of("discard");
    const me = this.me();
    const names = new Map(((me && me.powers) || []).map((c) => [c.id, c.name]));
    const dlg = modal({ title: "The Rule of Five", testid: "wq-discard-dialog", body: h("p", {}, this.questionWords(q)),
      buttons: offered.map((a) => ({ label: `Discard ${names.get(a.card) || `card ${a.card}`}`, value: a, kind: "secondary", testid: `wq-discard-${a.card}` })) });
    this.dialog = { version, dlg, kind: "discard" };
    dlg.done.then((a) => { if (this.dialog && this.dialog.dlg === dlg) this.dialog = null; if (a) this.send(a); });
  }

  // ---------------------------------------------------------------- physical dice: a tally of the combat dice

  /**
   * The shell's die prompt, taken over for a roll of several combat dice (docs/screen-shell.md `askDice`): one
   * dialog counts hits, flees and blanks; the faces then go one by one as each die is asked for.
   */
  askDice(view, send) {
    const die = view.die;
    const labels = Array.isArray(die.faces) && die.faces.length ? die.faces.map(String) : null;
    if (this.tally && this.tally.length) {
      if (this.tallyVersion === view.version) return true;
      if (labels) {
        this.tallyVersion = view.version;
        send(this.tally.shift());
        return true;
      }
      this.tally = null;
    }
    if (this.diceDlg) {
      if (this.diceDlg.version === view.version) return true;
      this.diceDlg.dlg.close(null);
      this.diceDlg = null;
    }
    const r = (view.observation || {}).rolling;
    const rest = r ? Number(r.dice || 0) - (r.faces || []).length : 0;
    if (!labels || !labels.includes("hit") || rest < 2) return false;
    const key = JSON.stringify([r.purpose, r.dice, view.observation.battle && view.observation.battle.round]);
    if (this.single === key) return false;
    this.openTally(view, rest, labels, send, key);
    return true;
  }

  openTally(view, n, labels, send, key) {
    const input = (what) => h("input", { type: "number", min: 0, max: n, value: 0, inputmode: "numeric", class: "wq-tally-input",
      testid: `wq-tally-${what}`, "aria-label": `How many dice show ${what}` });
    const hits = input("hits");
    const flees = input("flees");
    const blanks = h("output", { class: "wq-tally-rest", testid: "wq-tally-blanks" }, String(n));
    const error = h("p", { class: "wq-bad", testid: "wq-tally-error", role: "alert" });
    const go = h("button", { type: "button", class: "btn primary", testid: "wq-tally-send" }, "Enter the roll");
    const check = () => {
      const a = Number(hits.value);
      const b = Number(flees.value);
      const ok = Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= 0 && a + b <= n;
      blanks.textContent = ok ? String(n - a - b) : "?";
      error.textContent = ok ? "" : `More faces counted than the ${n} dice rolled.`;
      go.disabled = !ok;
      return ok;
    };
    hits.addEventListener("input", check);
    flees.addEventListener("input", check);
    const face = (word) => labels.indexOf(word) + 1;
    const single = h("button", { type: "button", class: "btn secondary", testid: "wq-tally-single" }, "One die at a time");
    const r = view.observation.rolling || {};
    const dlg = modal({ title: "Roll the combat dice", testid: "wq-tally-dialog", body: [
      h("p", { class: "big-text" }, `Roll ${n} combat dice${r.purpose ? ` for ${String(r.purpose).replace(/_/g, " ")}` : ""}`),
      h("p", { class: "muted" }, "Count the hits and the flees; the other dice are blanks."),
      h("label", { class: "wq-tally-row" }, h("span", { class: "wq-die hit" }, "✸"), " Hits: ", hits),
      h("label", { class: "wq-tally-row" }, h("span", { class: "wq-die flee" }, "↩"), " Flees: ", flees),
      h("p", { class: "wq-tally-row muted" }, h("span", { class: "wq-die blank" }), " Blanks: ", blanks),
      error, h("div", { class: "dialog-buttons" }, go, single)] });
    go.addEventListener("click", () => {
      if (!check()) return;
      const a = Number(hits.value);
      const b = Number(flees.value);
      const faces = [...Array(a).fill(face("hit")), ...Array(b).fill(face("flee")), ...Array(n - a - b).fill(face("blank"))];
      this.diceDlg = null;
      dlg.close(true);
      this.tally = faces;
      this.tallyVersion = view.version;
      send(this.tally.shift());
    });
    single.addEventListener("click", () => {
      this.single = key;
      dlg.close(null);
      this.diceDlg = { version: view.version, dlg: askDie(view.die, send) };
    });
    this.diceDlg = { version: view.version, dlg };
    check();
  }

  // ---------------------------------------------------------------- acting

  send(action) {
    this.dest = null;
    this.draft = null;
    if (action.type !== "move") this.mode = null;
    return this.shell.send(action);
  }

  cancel() {
    this.mode = null;
    this.dest = null;
    this.shell.select(null);
  }

  pickLeader(id) {
    this.mode = "move";
    this.dest = null;
    this.take = new Map();
    this.shell.select(id);
  }

  tapPiece(id) {
    const o = this.obs();
    if (this.myTurn() && o.phase === "turn" && !o.battle && this.shell.movable().has(id)) {
      if (this.shell.selected === id) this.cancel();
      else this.pickLeader(id);
      return;
    }
    const l = this.leader(id);
    if (l) this.tapRegion(l.region);
  }

  takenTroops() {
    return this.movableTroops(this.shell.selected).filter((t) => this.take.get(t.kind) !== false).map((t) => t.id);
  }

  sendMove(d) {
    const id = this.shell.selected;
    const action = { type: "move", leader: id, troops: this.takenTroops(), path: d.path };
    this.dest = null;
    this.mode = null;
    this.shell.select(null, { ask: false, render: false });
    this.send(action);
  }

  tapRegion(id) {
    const o = this.obs();
    if (!this.myTurn()) return;
    const q = this.myQuestion();
    if (q && q.kind === "retreat") {
      const a = this.of("retreat").find((x) => x.region === id);
      if (a) this.send(a);
      return;
    }
    if (o.phase === "place") { this.openPlace(id); return; }
    if (this.mode === "move" && this.shell.selected !== null) {
      const d = this.destinations().find((x) => x.region === id);
      if (!d) return;
      if (d.fights) { this.dest = d; this.askOdds(); this.shell.render(); return; }
      this.sendMove(d);
      return;
    }
    if (REGION_ACTIONS.has(this.mode)) {
      const offered = this.of(this.mode).filter((a) => a.region === id);
      if (!offered.length) return;
      if (this.mode === "recruit") this.openRecruit(id);
      else this.send(offered[0]);
    }
  }
}
