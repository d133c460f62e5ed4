// The screen shell: what every game's table screen does the same way, once. It owns the frame (header, board
// area, side panel, action bar), the connection badge, the movement timer, the pass-and-play cover, refusals
// (toast, red reason, the refused place lit), the physical table's strip (hardware.js), the lights' clock, the physical die dialog, the log panel, the
// Options menu (Quit confirmed, with entries a game adds), the record download, the closed and fatal screens
// and Game Over. A game's own module (/static/games/<name>/screen.js, exporting `Screen`) supplies its board,
// prompts, cards and words through the hooks of docs/screen-shell.md; the shell names no game.

import { h, fill, icon } from "./dom.js";
import { TableHelp } from "./help.js";
import { exportRecord, listGames, humanise } from "./api.js";
import { toast, modal, confirmDialog, withClauses } from "./ui.js";
import { heard, refused, timerTick, soundButton, soundOptions } from "./sound.js";
import { undoButton, showUndo } from "./undo.js";
import { DIVERGED, HardwareStrip, waitingWords } from "./hardware.js";

const CONNECTION_TEXT = { connecting: "Connecting…", open: "Connected", offline: "Reconnecting…", closed: "Closed" };
const ILLEGAL_MS = 2000; // a refused place stays lit this long when the refusal gives no duration
const REFUSAL_TOAST_MS = 6000;
const COVER_DELAY_MAX_MS = 4000; // the longest a dialog waits for the board's lights to play
const LOG_LINES = 150;
const TIMER_RED_S = 20;
const TICK_MS = 250;
const READABLE_PX = 10; // the smallest board text a player can read, in CSS pixels (the board zooms to it)
const ZOOM_KEY = "iwgt-board-zoom"; // this device's choice: "read" (text readable, the board scrolls) or "fit"

/** A light as the boards draw it: `t0` is when it arrived; a transient one expires after delay + duration. */
export function normaliseLight(l, now) {
  const delay = Math.max(0, Number(l.delay_ms) || 0);
  const duration = l.duration_ms ? Number(l.duration_ms) : null;
  return { ...l, effect: l.effect || "light", colour: l.colour || l.color || "#ffffff", pattern: l.pattern || "steady",
    delay_ms: delay, duration_ms: duration, t0: now, expires: duration ? now + delay + duration : null };
}

/** Show the socket's state on the connection badge. */
export function showConnection(el, state, detail) {
  el.textContent = CONNECTION_TEXT[state] || state;
  el.dataset.state = state;
  if (state === "offline" && detail) el.title = detail;
}

/** The server closed the table: say why, then back to the game selection. */
export function closedScreen(reason) {
  modal({
    title: "The table is closed",
    testid: "closed-dialog",
    body: h("p", {}, reason ? `Reason: ${reason}` : "This game was closed."),
    buttons: [{ label: "Back to game selection", value: true, kind: "primary huge", testid: "closed-ok" }],
  }).done.then(() => location.assign("/"));
}

/** Replace the screen with a message that nothing more can be done here. */
export function fatalScreen(root, title, text) {
  fill(root, h("div", { class: "fatal", testid: "fatal" }, h("h1", {}, title), h("p", {}, text),
    h("a", { class: "btn primary huge", href: "/", testid: "back-to-lobby" }, "Game selection")));
}

/** Download a table's record as a JSON file. */
export async function downloadRecord(tableId, token) {
  try {
    const text = await exportRecord(tableId, token);
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = h("a", { href: url, download: `iwgt-${tableId}.json`, class: "offscreen" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  } catch (err) {
    toast(`Export refused: ${err.message}`, "error");
  }
}

/**
 * Physical dice: "Roll a d6 for …" with a button per face, or a number field for large dice. A die whose faces
 * carry labels (`die.faces`, face n is faces[n-1]) shows each label as printed on it, in the die's colour
 * (`die.colour`, the buttons' `data-colour`): "Roll a white die for …"; the face sent is still its number.
 */
export function askDie(die, onFace) {
  const sides = Number(die.sides) || 6;
  const labels = Array.isArray(die.faces) && die.faces.length === sides ? die.faces.map(String) : null;
  const colour = labels && die.colour ? String(die.colour) : "";
  const purpose = die.purpose ? ` for ${String(die.purpose).replace(/_/g, " ")}` : "";
  const what = colour ? `a ${colour} die` : `a d${sides}`;
  const body = [h("p", { class: "big-text" }, `Roll ${what}${purpose}`), die.hint && !colour ? h("p", { class: "muted" }, die.hint) : null];
  let dlg;
  if (sides <= 20) {
    body.push(h("div", { class: "die-faces" }, Array.from({ length: sides }, (_, i) => {
      const shown = labels ? labels[i] : String(i + 1);
      return h("button", {
        type: "button", class: ["btn", "die-face", labels && "labelled"], testid: `die-face-${i + 1}`,
        "data-colour": colour || null, "aria-label": `The die shows ${shown}`,
        onclick: () => { onFace(i + 1); dlg.close(i + 1); },
      }, shown);
    })));
  } else {
    const input = h("input", { type: "number", min: 1, max: sides, inputmode: "numeric", class: "big-input", testid: "die-input",
      "aria-label": `The face of the d${sides}` });
    const send = h("button", { type: "button", class: "btn primary", testid: "die-submit", onclick: () => {
      const v = Math.round(Number(input.value));
      if (v >= 1 && v <= sides) { onFace(v); dlg.close(v); } else input.classList.add("invalid");
    } }, "Enter");
    body.push(h("div", { class: "die-entry" }, input, send));
  }
  dlg = modal({ title: "Roll the die", testid: "die-dialog", body });
  return dlg;
}

/** Shared touchscreen: an opaque cover until the next player taps (the game holds secrets). */
function passCover(name) {
  return modal({
    title: `Pass to ${name}`,
    testid: "pass-screen",
    className: "pass",
    body: h("p", { class: "big-text" }, "Tap to continue when only that player can see the screen."),
    buttons: [{ label: `I am ${name}: continue`, value: true, kind: "primary huge", testid: "pass-continue" }],
  });
}

/** Close the dialogs a new moment of the game makes stale (marked `transient`), settling their promises. */
export function closeTransientDialogs() {
  for (const el of document.querySelectorAll(".backdrop[data-transient]")) {
    if (typeof el.iwgtClose === "function") el.iwgtClose(undefined);
    else el.remove();
  }
}

const capitalise = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);

/**
 * One table screen: the shell round a game's `Screen` (see docs/screen-shell.md). `window.iwgtTable` is the
 * shell: tests read `view` (the view shown), `selection` and `board` (the game's board) from it.
 */
export class Shell {
  /**
   * @param {HTMLElement} root where the screen goes
   * @param {string} tableId
   * @param {string} token the seat's credential
   * @param {import("./socket.js").TableSocket} socket the table's socket, already open
   * @param {{Screen: Function}} module the game's screen module
   */
  constructor(root, tableId, token, socket, module) {
    this.root = root;
    this.tableId = tableId;
    this.token = token;
    this.socket = socket;
    this.welcome = null;
    this.view = null; // the view shown (a later one may wait behind the pass-and-play cover)
    this.heldView = null;
    this.shownSeat = null;
    this.selected = null; // the piece picked on the board
    this.selection = null; // the server's answer for it
    this.refusal = null; // the reason of the last refused act, shown in red until the next view
    this.lightLists = { view: [], selection: [], error: [] };
    this.timerEnd = null;
    this.dialogs = { die: null, dieVersion: -1, over: null, cover: null };
    this.scenarioTitles = new Map();
    const Screen = module.Screen;
    this.traits = {
      secrets: Boolean(Screen.secrets),
      timer: Boolean(Screen.timer),
      testids: { prompt: "prompt", refusal: "refusal", ...(Screen.testids || {}) },
    };
    this.build();
    this.game = new Screen(this);
    this.mountGame();
    this.help = new TableHelp(this); // help.js: the Help button, "Tap for help" and the first-game guide
    this.tick = setInterval(() => this.everyTick(), TICK_MS);
    this.readyFor = null; // the view this screen last told the server it shows uncovered (see maybeReady)
    this.onDialogClosed = () => this.maybeReady();
    document.addEventListener("iwgt-dialog-closed", this.onDialogClosed);
  }

  // ---------------------------------------------------------------- layout

  build() {
    this.elTitle = h("div", { class: "title", testid: "table-title" }, "Connecting…");
    this.elPhase = h("div", { class: "phase", testid: "phase" }, "");
    this.elTurn = h("div", { class: "whose", testid: "whose-turn" }, "");
    this.elConn = h("div", { class: "conn", testid: "conn-state", "data-state": "connecting", role: "status" }, "Connecting");
    this.elTimer = this.traits.timer
      ? h("div", { class: "timer idle", testid: "timer", role: "timer", "aria-label": "Movement time left" }, "–:––") : null;
    this.elHeaderExtra = h("div", { class: "top-extra" });
    this.elOverlay = h("div", { class: "board-overlay" });
    this.elBoard = h("div", { class: "board-host" });
    this.elLegend = h("div", { class: "legend", testid: "legend", "aria-label": "Legend" });
    this.hardware = new HardwareStrip(this); // hardware.js: the physical table's strip, over the board
    this.elZoom = h("button", { type: "button", class: "btn secondary small board-zoom", testid: "board-zoom", hidden: true,
      onclick: () => this.toggleZoom() }, "Zoom in");
    this.elPrompt = h("section", { class: "prompt", testid: this.traits.testids.prompt, "aria-live": "polite" });
    this.elSide = h("aside", { class: "side" });
    this.elLog = h("ol", { class: "log", testid: "log" });
    this.elActions = h("div", { class: "actions" });
    this.elOptions = h("button", { type: "button", class: "btn secondary", testid: "options-button",
      "aria-label": "Options", onclick: () => this.openOptions() }, icon("cog"), h("span", { class: "btn-label" }, "Options"));
    this.elScreen = h("div", { class: "table-screen" },
      h("header", { class: "topbar" },
        h("div", { class: "top-left" }, this.elTitle, this.elPhase),
        this.elTurn,
        h("div", { class: "top-right" }, this.elHeaderExtra, this.elConn, this.elTimer)),
      h("main", { class: "table-main" },
        h("section", { class: "board-area", "aria-label": "The table" }, this.hardware.el, this.elOverlay, this.elBoard,
          h("div", { class: "board-foot" }, this.elLegend, this.elZoom)),
        this.elSide),
      h("footer", { class: "actionbar" }, this.elActions, h("div", { class: "spacer" }), this.elOptions));
    fill(this.root, this.elScreen);
    this.watchLayout();
    this.elScreen.querySelector(".top-right").prepend(soundButton()); // sound.js: the mute switch
    this.elOptions.before(undoButton(this)); // undo.js: the Undo button of the action bar
  }

  /** At a table the toasts sit over the side panel's foot, above the action bar (style.css: `.at-table`). */
  watchLayout() {
    document.body.classList.add("at-table");
    const phone = Math.min(window.innerWidth, window.innerHeight) < 600;
    this.zoomMode = localStorage.getItem(ZOOM_KEY) || (phone ? "read" : "fit");
    if (typeof ResizeObserver !== "function") return;
    this.boardObserver = new ResizeObserver(() => this.fitBoard());
    this.boardObserver.observe(this.elBoard);
    const bar = this.elScreen.querySelector(".actionbar");
    this.barObserver = new ResizeObserver(() => {
      document.documentElement.style.setProperty("--actionbar-h", `${Math.ceil(bar.getBoundingClientRect().height)}px`);
    });
    this.barObserver.observe(bar);
  }

  /**
   * Keep the board's text readable: when the whole board would draw its smallest text under READABLE_PX, the
   * board may be drawn larger, in its own scrolling frame (pan to look, tap to act; a phone does so at once),
   * and a button switches between that and the whole board (docs/screen-shell.md, "Small screens").
   */
  fitBoard() {
    const svg = this.elBoard.querySelector("svg.board");
    const vb = svg && svg.viewBox && svg.viewBox.baseVal;
    if (!vb || !vb.width || !vb.height) return;
    const texts = svg.querySelectorAll("text");
    const w = this.elBoard.clientWidth;
    const ht = this.elBoard.clientHeight;
    const key = `${vb.width}x${vb.height}@${w}x${ht}:${texts.length}:${this.zoomMode}`;
    if (key === this.zoomKey) return;
    this.zoomKey = key;
    let smallest = Infinity;
    for (const t of texts) {
      const size = parseFloat(getComputedStyle(t).fontSize); // in the board's own units
      if (size > 0 && size < smallest) smallest = size;
    }
    const fit = Math.min(w / vb.width, ht / vb.height);
    const need = Number.isFinite(smallest) ? READABLE_PX / smallest : 0;
    const small = fit > 0 && fit < need;
    const zoomed = small && this.zoomMode === "read";
    this.elZoom.hidden = !small;
    this.elZoom.textContent = zoomed ? "Whole board" : "Zoom in";
    this.elZoom.setAttribute("aria-pressed", zoomed ? "true" : "false");
    this.elBoard.classList.toggle("zoomed", zoomed);
    this.elBoard.style.setProperty("--zoom-w", `${Math.ceil(vb.width * need)}px`);
    this.elBoard.style.setProperty("--zoom-h", `${Math.ceil(vb.height * need)}px`);
  }

  /** The board's zoom button: readable text (the board scrolls) or the whole board; kept per device. */
  toggleZoom() {
    this.zoomMode = this.elBoard.classList.contains("zoomed") ? "fit" : "read";
    localStorage.setItem(ZOOM_KEY, this.zoomMode);
    this.fitBoard();
  }

  /** The game's own parts go into the frame: its side panels round the prompt, its buttons, its overlays. */
  mountGame() {
    const parts = (this.game.mount && this.game.mount({ board: this.elBoard, prompt: this.elPrompt })) || {};
    if (parts.className) this.elScreen.classList.add(...String(parts.className).split(/\s+/).filter(Boolean));
    const side = parts.side || [this.elPrompt];
    fill(this.elSide, side, h("details", { class: "log-panel", testid: "log-panel", open: window.innerHeight > 700 },
      h("summary", {}, "Game log"), this.elLog));
    fill(this.elActions, parts.actions || []);
    fill(this.elOverlay, parts.overlay || []);
    fill(this.elHeaderExtra, parts.header || []);
  }

  /** The game's board (tests ask it where a point of the table is on the screen). */
  get board() {
    return this.game ? this.game.board : null;
  }

  /** Add a game's own stylesheet to the page (once). */
  addStylesheet(href) {
    const url = new URL(href, location.href).href;
    if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === url)) return;
    document.head.append(h("link", { rel: "stylesheet", href: url }));
  }

  // ---------------------------------------------------------------- messages

  onState(state, detail) {
    showConnection(this.elConn, state, detail);
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.onWelcome(msg);
        break;
      case "view":
        this.onView(msg);
        break;
      case "selection":
        if (msg.unit === this.selected) {
          this.selection = msg;
          this.lightLists.selection = (msg.lights || []).map((l) => normaliseLight(l, performance.now()));
          if (this.game.onSelection) this.game.onSelection(msg);
          this.render();
        }
        break;
      case "preview":
        if (this.game.onPreview) this.game.onPreview(msg);
        this.render();
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

  onWelcome(msg) {
    this.welcome = msg;
    this.help.welcome(msg); // help.js: the game's help, and the guide for a newcomer's first game
    const table = msg.table || {};
    if (table.title) document.title = `${table.title}: Intelligent Wargames Table`;
    if (!this.scenarioTitles.size) {
      listGames().then((games) => {
        for (const g of games || []) for (const sc of g.scenarios || []) this.scenarioTitles.set(`${g.name}/${sc.name}`, sc.title);
        this.render();
      }).catch(() => { /* the lobby may be closed to this screen: the scenario keeps its name */ });
    }
  }

  onView(view) {
    heard(view, this.game.constructor); // sound.js: the cues of a new step
    const several = this.mySeats().length > 1;
    const over = view.status !== "playing";
    // The first view of a page (opened or reloaded) is covered too: no hand is shown before its holder taps.
    if (this.traits.secrets && several && !over && view.seat !== this.shownSeat) {
      // Pass and play: the view waits behind an opaque cover until the next player taps.
      this.heldView = view;
      if (!this.dialogs.cover) {
        closeTransientDialogs();
        this.dialogs.cover = passCover(this.seatName(view.seat));
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
    const previous = this.view;
    const fresh = !previous || view.version !== previous.version || view.seat !== previous.seat;
    this.view = view;
    this.shownSeat = view.seat;
    this.lightLists.view = (view.lights || []).map((l) => normaliseLight(l, now));
    if (fresh) {
      this.selection = null;
      this.lightLists.selection = [];
      this.refusal = null;
    }
    // A held timer (the mover still reads the report) shows its full time and does not count down.
    const timer = view.timer;
    this.timerEnd = timer && !timer.held && typeof timer.remaining === "number" ? now + timer.remaining * 1000 : null;
    if (this.game.onView) this.game.onView(view, { fresh, previous });
    this.render();
    showUndo(this, view); // undo.js: the button's state, and the other player's question
    this.afterView();
    this.maybeReady();
  }

  /**
   * Tell the server this screen shows the seat's view with nothing covering it (docs/protocol.md, `ready`):
   * a movement timer held while its mover reads the report starts then, at its full time. Sent once per view
   * shown that holds the timer of the seat shown, once no dialog the player cannot wave away is open (the
   * report, the pass-and-play cover, a die); a dialog closing asks again.
   */
  maybeReady() {
    const v = this.view;
    if (!v || v.status !== "playing" || this.readyFor === v || this.dialogs.cover) return;
    const seat = v.seat;
    if (seat === null || seat === undefined || !this.mySeats().includes(seat)) return;
    if (!(v.timer && v.timer.held && v.timer.seat === seat)) return;
    if (document.querySelector(".backdrop[data-covers]")) return;
    this.readyFor = v;
    this.socket.sendRaw({ type: "ready", seat, version: v.version });
  }

  onError(msg) {
    const now = performance.now();
    const lights = (msg.lights || []).map((l) => normaliseLight({ duration_ms: ILLEGAL_MS, ...l }, now));
    if (lights.length) this.lightLists.error = lights;
    this.refusal = msg.message || humanise(msg.error || "refused");
    this.refusalCode = msg.error || null;
    toast(this.refusal, "error", REFUSAL_TOAST_MS);
    this.hardware.refused(msg); // a table_diverged refusal stays shown as such in the strip (its toast marked)
    refused(); // sound.js
    if (msg.error === "unauthorized" && !this.welcome) {
      this.fatal("This link does not open the table", msg.message || "The invitation is not valid (any more).");
      return;
    }
    if (this.game.onRefused) this.game.onRefused(msg);
    this.render();
  }

  onClosed(reason) {
    this.stop();
    closedScreen(reason);
  }

  fatal(title, text) {
    this.stop();
    fatalScreen(this.root, title, text);
  }

  stop() {
    this.socket.close();
    clearInterval(this.tick);
    document.removeEventListener("iwgt-dialog-closed", this.onDialogClosed);
    if (this.barObserver) this.barObserver.disconnect();
    if (this.boardObserver) this.boardObserver.disconnect();
    this.help?.stop(); // help.js: its window listeners and observer
  }

  // ---------------------------------------------------------------- facts for the game

  /** The seats' names (the welcome's). */
  names() {
    return (this.welcome && this.welcome.names) || [];
  }

  seatName(seat) {
    return this.names()[seat] || `Seat ${seat}`;
  }

  /** The seats this screen plays. */
  mySeats() {
    return (this.welcome && this.welcome.seats) || (this.view && this.view.seats) || [];
  }

  obs() {
    return (this.view && this.view.observation) || {};
  }

  /** Every legal action but the moves, for the seat shown. */
  actions() {
    return (this.view && this.view.options && this.view.options.actions) || [];
  }

  /** The pieces with a legal move now. */
  movable() {
    return new Set((this.view && this.view.options && this.view.options.movable) || []);
  }

  /** Whether the seat shown is to act, and is one of this screen's. */
  myTurn() {
    const v = this.view;
    if (!v || v.status !== "playing") return false;
    return v.to_move !== null && v.to_move !== undefined && v.to_move === v.seat && this.mySeats().includes(v.seat);
  }

  /** The lights to draw now: the view's, the selection's, a refusal's and the physical table's (hardware.js),
   * the expired ones left out. */
  lights() {
    const now = performance.now();
    const live = (list) => list.filter((l) => !l.expires || l.expires > now);
    for (const k of Object.keys(this.lightLists)) this.lightLists[k] = live(this.lightLists[k]);
    return [...this.lightLists.view, ...this.lightLists.selection, ...this.lightLists.error, ...this.hardware.lights()];
  }

  /** How long the board's transient lights of this view play before a dialog may cover them. */
  coverDelay(view = this.view) {
    let ms = 0;
    for (const l of (view && view.lights) || []) if (l.duration_ms) ms = Math.max(ms, (Number(l.delay_ms) || 0) + Number(l.duration_ms));
    return ms ? Math.min(COVER_DELAY_MAX_MS, ms + 200) : 0;
  }

  // ---------------------------------------------------------------- acting

  /** Send an action as the seat shown; the server answers with a view, or a refusal. */
  send(action) {
    if (!this.view) return null;
    if (this.hardware.keepsAction(action)) return null; // hardware.js: that piece is in the air on the table
    return this.socket.act(this.view.seat, action);
  }

  /**
   * Pick a piece (null: none). With `ask`, the server is asked for its selection (moves, rings, lights).
   * @param {number|null} id
   * @param {{ask?: boolean, render?: boolean}} opts
   */
  select(id, { ask = true, render = true } = {}) {
    if (this.hardware.keeps(id)) return; // hardware.js: the selection follows the piece in the air on the table
    this.selected = id;
    this.selection = null;
    this.lightLists.selection = [];
    this.refusal = null;
    const seat = this.view ? this.view.seat : null;
    if (ask && id !== null && seat !== null && seat !== undefined) this.socket.select(seat, id);
    if (render) this.render();
  }

  /**
   * hardware.js: a piece lifted on the physical table is picked here too, so that the screen shows it and its
   * moves as the table's LEDs do; put down (or put back), the screen lets go of it.
   */
  followHeld(unit, was) {
    if (unit !== null && unit !== undefined) this.select(unit);
    else if (was !== null && was !== undefined && this.selected === was) this.select(null);
  }

  /** Ask the server whether an action is legal now, and its odds or expected losses (answered by `preview`). */
  preview(action) {
    if (this.view) this.socket.preview(this.view.seat, action);
  }

  async exportRecord() {
    await downloadRecord(this.tableId, this.token);
  }

  async openOptions() {
    const entries = (this.game.options && this.view ? this.game.options(this.view) : []) || [];
    entries.push(...soundOptions()); // sound.js: sound and music switches
    const choice = await modal({
      title: "Options",
      testid: "options-menu",
      dismissable: true,
      buttons: [
        ...entries.map((e, i) => ({ label: e.label, value: i, kind: e.kind || "secondary", testid: e.testid, disabled: e.disabled })),
        { label: "Quit Game", value: "quit", kind: "danger", testid: "options-quit" },
        { label: "Close", value: undefined, testid: "options-close" },
      ],
    }).done;
    if (choice === "quit") await this.quit();
    else if (typeof choice === "number" && entries[choice] && entries[choice].run) await entries[choice].run();
  }

  /** Ask, then quit the game through the socket and go back to the game selection. */
  async quit() {
    if (await confirmDialog("Quit the game?", "The game ends here as abandoned; its record is kept.", "Quit Game")) {
      this.socket.quit();
      setTimeout(() => location.assign("/"), 600);
    }
  }

  // ---------------------------------------------------------------- rendering

  render() {
    const v = this.view;
    if (!v) return;
    this.root.dataset.seat = String(v.seat);
    this.renderHeader(v);
    this.hardware.render(v);
    if (this.refusalCode === DIVERGED && this.hardware.agrees(v)) this.refusal = null; // the table agrees now
    this.game.render(v);
    this.fitBoard();
    fill(this.elLegend, (this.game.legend && this.game.legend(v)) || []);
    // hardware.js: while the game waits for hands on the physical table, the screen says so, not "the other
    // seat is playing" (the mover's own prompt stays, under it).
    const waits = v.status === "playing" && v.hardware && v.hardware.blocked ? [h("div", { class: "hw-waiting",
      testid: "hw-waiting" }, h("h2", {}, "Waiting for the table"), h("p", {}, withClauses(waitingWords(v.hardware))))] : [];
    const prompt = [...waits, ...(waits.length && !this.myTurn() ? [] : (this.game.prompt && this.game.prompt(v)) || [])];
    fill(this.elPrompt, prompt,
      this.refusal ? h("p", { class: "refusal", testid: this.traits.testids.refusal, role: "alert" }, withClauses(this.refusal)) : null);
    this.elPrompt.hidden = !this.elPrompt.childNodes.length; // nothing to say: no empty box
    this.renderLog(v);
    this.updateTimer(performance.now());
  }

  renderHeader(v) {
    const table = (this.welcome && this.welcome.table) || {};
    const scenario = table.scenario || this.obs().scenario || "";
    this.elTitle.textContent = this.scenarioTitles.get(`${table.game}/${scenario}`) || humanise(scenario || "Table");
    this.elTitle.title = `Table ${this.tableId}`;
    this.elPhase.textContent = (this.game.phase && this.game.phase(v)) || "";
    let whose;
    if (v.status !== "playing") whose = v.status === "quit" ? "Game quit" : "Game over";
    else if (v.hardware && v.hardware.blocked) whose = "Waiting for the table"; // hardware.js: hands, not a seat
    else if (v.to_move === null || v.to_move === undefined) {
      whose = (this.game.waiting && this.game.waiting(v)) || (v.die ? "Roll the die" : "The table is working…");
    } else if (this.myTurn()) whose = `Your turn: ${this.seatName(v.to_move)}`;
    else whose = `${capitalise(this.seatName(v.to_move))} to play`;
    this.elTurn.textContent = whose;
    this.elTurn.dataset.mine = this.myTurn() ? "true" : "false";
    this.elTurn.dataset.waiting = v.status === "playing" && v.hardware && v.hardware.blocked ? "true" : "false";
    this.elTurn.dataset.seat = String(v.to_move ?? "");
  }

  renderLog(v) {
    const steps = v.log || [];
    // The server words each step for this seat (the game's words.py): a screen shows them as they are,
    // unless it gives its own logLines.
    const own = this.game.logLines ? (st) => this.game.logLines(st) : (st) => st.text;
    const lines = steps.flatMap((st) => {
      const said = st && typeof st === "object" ? own(st) : null;
      return Array.isArray(said) ? said : [];
    });
    fill(this.elLog, lines.slice(-LOG_LINES).map((line) => h("li", {}, withClauses(line))));
    this.elLog.scrollTop = this.elLog.scrollHeight;
  }

  updateTimer(now) {
    const el = this.elTimer;
    if (!el) return;
    const t = this.view && this.view.timer;
    if (t && t.held) {
      // Held: the mover's full time, waiting for the report to be read (at most the server's grace).
      const whole = Math.ceil(Number(t.total) || 0);
      el.textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
      el.className = ["timer", "held", t.seat === this.view.seat ? "mine" : ""].join(" ");
      el.dataset.remaining = String(whole);
      el.setAttribute("aria-label", `${whole} seconds to move for ${this.names()[t.seat] || ""}, from when the report is read`);
      return;
    }
    if (!t || this.timerEnd === null) {
      el.textContent = "–:––";
      el.className = "timer idle";
      el.dataset.remaining = "";
      return;
    }
    const left = Math.max(0, (this.timerEnd - now) / 1000);
    const whole = Math.ceil(left);
    timerTick(whole, t.seat === this.view.seat); // sound.js: the last seconds tick
    el.textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    el.className = ["timer", left < TIMER_RED_S ? "urgent" : "", t.seat === this.view.seat ? "mine" : ""].join(" ");
    el.dataset.remaining = String(whole);
    el.setAttribute("aria-label", `${whole} seconds left to move for ${this.names()[t.seat] || ""}`);
  }

  everyTick() {
    const now = performance.now();
    this.updateTimer(now);
    this.maybeReady(); // a covering dialog closed without saying so (removed by a game's own code)
    if (this.game.tick) this.game.tick(now);
    const expired = (list) => list.some((l) => l.expires && l.expires <= now);
    if (Object.values(this.lightLists).some(expired)) this.render();
  }

  // ---------------------------------------------------------------- dialogs that follow a view

  afterView() {
    const v = this.view;
    if (!v) return;
    if (v.status === "over" || v.status === "quit") {
      if (this.dialogs.die) this.dialogs.die.close(null);
      if (!this.dialogs.over) {
        this.dialogs.over = "pending";
        // The last step's lights play on the board before Game Over covers it.
        setTimeout(() => {
          closeTransientDialogs();
          this.showGameOver();
        }, this.coverDelay(v));
      }
      return;
    }
    // One dialog per awaited die: a die answered on another screen closes this one, and the next opens.
    if (this.dialogs.die && (!v.die || this.dialogs.dieVersion !== v.version)) {
      this.dialogs.die.close(null);
      this.dialogs.die = null;
    }
    // A game's screen may take over the die prompt (`askDice(view, send)` true: it asked, or answered, itself).
    if (v.die && !this.dialogs.die && !(this.game.askDice && this.game.askDice(v, (face) => this.socket.die(face)))) {
      const dlg = askDie(v.die, (face) => this.socket.die(face));
      this.dialogs.die = dlg;
      this.dialogs.dieVersion = v.version;
      dlg.done.then(() => { if (this.dialogs.die === dlg) this.dialogs.die = null; });
    }
    if (this.game.afterView) this.game.afterView(v);
  }

  /** Who won, in words: the game's own (`verdict`), else the winning seats' names from `view.result`. */
  verdict(v) {
    if (v.status === "quit") return "The game was quit.";
    const res = v.result || {};
    if (this.game.verdict) {
      const words = this.game.verdict(res, v);
      if (words) return words;
    }
    let winners = Array.isArray(res.winners) ? res.winners : [];
    if (!winners.length && res.winner !== null && res.winner !== undefined) winners = [res.winner];
    if (!winners.length) return "A draw.";
    if (winners.length === 1) return `${this.seatName(winners[0])} wins!`;
    return `${winners.map((s) => this.seatName(s)).join(" and ")} win!`;
  }

  showGameOver() {
    const v = this.view;
    const reason = (v.result && v.result.reason) || "";
    const body = [
      h("p", { class: "verdict", testid: "game-over-winner" }, this.verdict(v)),
      reason ? h("p", { class: "muted", testid: "game-over-reason" }, capitalise(reason)) : null,
      ...((this.game.finalReport && this.game.finalReport(v)) || []),
    ];
    const dlg = modal({
      title: v.status === "quit" ? "Game quit" : "Game Over",
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
}
