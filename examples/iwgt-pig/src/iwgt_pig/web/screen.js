// Pig's screen inside the shell (docs/screen-shell.md): every player's score, the turn's total and last face,
// Roll and Hold. The shell does the rest (connection, the die to enter by hand with physical dice, refusals,
// the log in the server's words from iwgt_pig/words.py, Options and Quit, Game Over with its winner). Every rule is the server's: Hold before
// a roll is simply not offered, and a refusal comes back with its reason. Served at /static/games/pig/screen.js.

import { h, fill } from "/static/dom.js";

export class Screen {
  constructor(shell) {
    this.shell = shell;
  }

  mount(slots) {
    this.elScores = h("ol", { class: "pig-scores", testid: "pig-scores" });
    this.elTotal = h("p", { class: "big-text", testid: "pig-turn-total" });
    this.elFaces = h("p", { class: "muted", testid: "pig-faces" });
    this.elRoll = h("button", { type: "button", class: "btn primary huge", testid: "pig-roll", disabled: true,
      onclick: () => this.act("roll") }, "Roll");
    this.elHold = h("button", { type: "button", class: "btn secondary huge", testid: "pig-hold", disabled: true,
      onclick: () => this.act("hold") }, "Hold");
    // No board: the scores and the turn stand where a board would.
    slots.board.append(h("div", { class: "pig-table" }, this.elScores, this.elTotal, this.elFaces,
      h("div", { class: "row" }, this.elRoll, this.elHold)));
    return { side: [slots.prompt] };
  }

  /** Whether this screen may take an action of the type now (the server's options say which). */
  offered(type) {
    return this.shell.myTurn() && this.shell.actions().some((a) => a.type === type);
  }

  act(type) {
    if (!this.offered(type) || this.shell.socket.busy) return;
    this.shell.send({ type });
    this.elRoll.disabled = this.elHold.disabled = true; // until the next view
  }

  name(seat) {
    return this.shell.seatName(seat);
  }

  render(view) {
    const obs = view.observation;
    fill(this.elScores, obs.players.map((p) => h("li", {
      class: ["pig-score", p.seat === obs.current && view.status === "playing" && "current"],
      testid: `pig-score-${p.seat}`, "data-score": p.score, "data-current": p.seat === obs.current ? "true" : "false",
    }, `${p.name}: ${p.score}`)));
    this.elTotal.textContent = `Turn total: ${obs.turn_total}`;
    this.elFaces.textContent = obs.last_face ? `Last roll: ${obs.last_face}` : "No roll yet.";
    this.elRoll.disabled = !this.offered("roll");
    this.elHold.disabled = !this.offered("hold");
  }

  phase(view) {
    return `${view.observation.title}: the first to bank ${view.observation.target} wins`;
  }

  waiting(view) {
    return `The die is rolling for ${this.name(view.observation.current)}`;
  }

  prompt(view) {
    if (view.status !== "playing") return [];
    return [h("p", {}, this.shell.myTurn() ? "Roll, or hold to bank the turn's total." : `${this.name(view.observation.current)} plays.`)];
  }

  finalReport(view) {
    return [h("ol", { testid: "pig-final-scores" }, view.observation.players.map((p) => h("li", {}, `${p.name}: ${p.score}`)))];
  }
}
