// Pig's table screen: every player's score, the turn's total and faces, Roll and Hold, the game log, the die
// to enter by hand with physical dice, and Game Over. It shows what the server sends (welcome, view, error,
// closed) and sends the player's acts; every rule is the server's (Hold before a roll is simply not offered,
// and a refusal comes back with its reason). Served at /static/games/pig/screen.js; the shell names no game.

import { h, fill } from "/static/dom.js";
import { toast, modal, confirmDialog } from "/static/ui.js";

const CONNECTION_TEXT = { connecting: "Connecting…", open: "Connected", offline: "Reconnecting…", closed: "Closed" };

export class Screen {
  constructor(root, tableId, token, socket) {
    this.root = root;
    this.tableId = tableId;
    this.token = token;
    this.socket = socket;
    this.welcome = null;
    this.view = null;
    this.dialogs = { die: null, dieVersion: -1, over: null };
    this.build();
  }

  build() {
    document.title = "Pig: Intelligent Wargames Table";
    this.elConn = h("div", { class: "conn", testid: "conn-state", "data-state": "connecting", role: "status" }, "Connecting…");
    this.elTarget = h("div", { class: "phase", testid: "pig-target" });
    this.elTurn = h("div", { class: "whose", testid: "whose-turn" });
    this.elScores = h("ol", { class: "pig-scores", testid: "pig-scores" });
    this.elTotal = h("p", { class: "big-text", testid: "pig-turn-total" });
    this.elFaces = h("p", { class: "muted", testid: "pig-faces" });
    this.elRoll = h("button", { type: "button", class: "btn primary huge", testid: "pig-roll", disabled: true,
      onclick: () => this.act("roll") }, "Roll");
    this.elHold = h("button", { type: "button", class: "btn secondary huge", testid: "pig-hold", disabled: true,
      onclick: () => this.act("hold") }, "Hold");
    this.elLog = h("ol", { class: "log", testid: "log" });
    fill(this.root,
      h("div", { class: "table-screen pig-screen" },
        h("header", { class: "topbar" },
          h("div", { class: "top-left" }, h("div", { class: "title", testid: "table-title" }, "Pig"), this.elTarget),
          this.elTurn,
          h("div", { class: "top-right" }, this.elConn)),
        h("main", { class: "table-main" },
          h("section", { class: "board-area", "aria-label": "Scores and the turn" },
            this.elScores, this.elTotal, this.elFaces, h("div", { class: "row" }, this.elRoll, this.elHold)),
          h("aside", { class: "side" }, h("h2", { class: "side-title" }, "Game log"), this.elLog)),
        h("footer", { class: "actionbar" }, h("div", { class: "spacer" }),
          h("button", { type: "button", class: "btn danger", testid: "pig-quit", onclick: () => this.quit() }, "Quit Game"))));
  }

  onState(state, detail) {
    this.elConn.textContent = CONNECTION_TEXT[state] || state;
    this.elConn.dataset.state = state;
    if (detail) this.elConn.title = detail;
  }

  onMessage(msg) {
    if (msg.type === "welcome") this.welcome = msg;
    else if (msg.type === "view") this.show(msg);
    else if (msg.type === "error") {
      toast(msg.message || msg.error, "error");
      this.renderButtons();
    } else if (msg.type === "closed") {
      modal({ title: "The table is closed", testid: "closed-dialog", body: h("p", {}, msg.reason || ""),
        buttons: [{ label: "Back to game selection", value: true, kind: "primary huge", testid: "closed-ok" }],
      }).done.then(() => location.assign("/"));
    }
  }

  name(seat) {
    const p = this.view && (this.view.observation.players || [])[seat];
    return p ? p.name : `Seat ${seat}`;
  }

  /** Whether this screen may take an action of the type now (the server's options say which). */
  offered(type) {
    const v = this.view;
    return !!v && v.status === "playing" && v.seat !== null && v.to_move === v.seat
      && (v.options.actions || []).some((a) => a.type === type);
  }

  act(type) {
    if (!this.offered(type) || this.socket.busy) return;
    this.socket.act(this.view.seat, { type });
    this.elRoll.disabled = this.elHold.disabled = true; // until the next view
  }

  async quit() {
    if (await confirmDialog("Quit the game?", "The game ends here as abandoned; its record is kept.", "Quit Game")) {
      this.socket.quit();
      setTimeout(() => location.assign("/"), 600);
    }
  }

  show(view) {
    this.view = view;
    const obs = view.observation;
    this.elTarget.textContent = `${obs.title}: the first to bank ${obs.target} wins`;
    fill(this.elScores, obs.players.map((p) => h("li", {
      class: ["pig-score", p.seat === obs.current && view.status === "playing" && "current"],
      testid: `pig-score-${p.seat}`, "data-score": p.score, "data-current": p.seat === obs.current ? "true" : "false",
    }, `${p.name}: ${p.score}`)));
    this.elTotal.textContent = `Turn total: ${obs.turn_total}`;
    this.elFaces.textContent = obs.last_face ? `Last roll: ${obs.last_face}` : "No roll yet.";
    const mine = view.status === "playing" && view.seat !== null && view.to_move === view.seat;
    this.elTurn.dataset.mine = mine ? "true" : "false";
    if (view.status !== "playing") this.elTurn.textContent = view.status === "quit" ? "Game quit" : "Game over";
    else if (mine) this.elTurn.textContent = `Your turn: ${this.name(view.seat)}`;
    else if (view.to_move === null) this.elTurn.textContent = `The die is rolling for ${this.name(obs.current)}`;
    else this.elTurn.textContent = `${this.name(obs.current)} plays`;
    this.renderButtons();
    fill(this.elLog, (view.log || []).flatMap((entry) => entry.events.map((e) => this.eventText(e)))
      .filter(Boolean).map((text) => h("li", {}, text)));
    this.elLog.lastElementChild?.scrollIntoView({ block: "nearest" });
    this.dieDialog(view);
    if (view.status !== "playing" && !this.dialogs.over) this.gameOver(view);
  }

  renderButtons() {
    this.elRoll.disabled = !this.offered("roll");
    this.elHold.disabled = !this.offered("hold");
  }

  eventText(e) {
    const n = this.name(e.seat);
    switch (e.event) {
      case "Rolled": return `${n} rolls ${e.face}: ${e.turn_total} this turn`;
      case "RolledOne": return `${n} rolls a 1 and loses ${e.lost}`;
      case "Held": return `${n} holds: banks ${e.banked}, ${e.score} in all`;
      case "Won": return `${n} wins with ${e.score}`;
      default: return null;
    }
  }

  /** With physical dice the table asks for the face read off a real die. */
  dieDialog(view) {
    if (this.dialogs.die && (!view.die || this.dialogs.dieVersion !== view.version)) {
      this.dialogs.die.close(null);
      this.dialogs.die = null;
    }
    if (!view.die || this.dialogs.die || !(view.seats || []).length) return;
    const faces = Array.from({ length: view.die.sides }, (_, i) => i + 1);
    const dlg = modal({ title: `Roll a d${view.die.sides}`, testid: "die-dialog", body: h("p", {}, view.die.purpose),
      buttons: faces.map((f) => ({ label: String(f), value: f, testid: `die-face-${f}` })) });
    this.dialogs.die = dlg;
    this.dialogs.dieVersion = view.version;
    dlg.done.then((face) => {
      if (this.dialogs.die === dlg) this.dialogs.die = null;
      if (face) this.socket.die(face);
    });
  }

  gameOver(view) {
    const obs = view.observation;
    const won = obs.result ? `${obs.result.name} wins!` : "The game was quit.";
    const reason = view.result ? view.result.reason : "";
    this.dialogs.over = modal({
      title: view.status === "quit" ? "Game quit" : "Game Over",
      testid: "game-over-modal",
      body: [
        h("p", { class: "verdict", testid: "game-over-winner" }, won),
        reason ? h("p", { class: "muted", testid: "game-over-reason" }, reason) : null,
        h("ol", { testid: "pig-final-scores" }, obs.players.map((p) => h("li", {}, `${p.name}: ${p.score}`))),
      ],
      buttons: [{ label: "New game", value: "new", kind: "primary huge", testid: "new-game" }],
    });
    this.dialogs.over.done.then(() => location.assign("/"));
  }
}
