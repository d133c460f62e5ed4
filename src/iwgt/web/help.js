// Help at the table, once for every game (docs/screen-shell.md, "Help at the table"). The game's help comes from
// GET /api/games/{game}/help (its plug-in's help(): how to play, a topic for each thing a player may tap, in the
// rulebook's words with the table's decisions and clause ids, and first-game guides). This module adds to the
// shell a Help button (a panel: How to play, First game, Look up), a "Tap for help" mode (the next tap on a
// unit, figure, spell or piece of ground shows its topic instead of acting), and the first-game guide: a card
// at the top of the side panel, step by step, that outlines what each step is about; it opens by itself the
// first time a device opens a scenario that has a guide (remembered in localStorage) and can be opened again
// from the panel. What was tapped is the screen's to say: an element with `data-help="kind:id"`, or the
// screen's `helpTopic(element)` hook. Nothing here names a game.

import { h, fill } from "./dom.js";
import { modal, toast } from "./ui.js";

const SEEN_PREFIX = "iwgt.help.guide-seen.";
const NO_HELP_THERE = "Nothing to explain there: tap a unit, a figure, a spell or the ground.";

/** Whether the device has seen a guide (storage may be refused: then it counts as not seen, once per page). */
function seen(key) {
  try { return window.localStorage.getItem(SEEN_PREFIX + key) === "1"; } catch { return false; }
}

function remember(key) {
  try { window.localStorage.setItem(SEEN_PREFIX + key, "1"); } catch { /* private mode: shown again next time */ }
}

/** One clause as the table quotes it: its id, the rulebook's words, the table's decision. */
function ruleItem(r) {
  return h("li", { class: "help-rule", testid: `help-rule-${r.clause}` },
    h("span", { class: "help-clause", testid: `help-clause-${r.clause}` }, r.clause),
    r.quote ? h("blockquote", { class: "help-quote" }, h("span", { class: "help-said" }, "The rulebook: "), `“${r.quote}”`) : null,
    r.decision ? h("p", { class: "help-decision" }, h("span", { class: "help-said" }, r.quote ? "At this table: " : "The rulebook is silent; at this table: "), r.decision) : null);
}

/** The help of one table: built by the shell once its frame is up (see the module's comment). */
const TAPS = ["pointerdown", "pointerup", "mousedown", "mouseup", "click"];

export class TableHelp {
  constructor(shell) {
    this.shell = shell;
    this.data = null; // the game's help, once loaded
    this.loading = null;
    this.game = null;
    this.scenario = null;
    this.mode = false; // "Tap for help" is on
    this.step = 0;
    this.panel = null; // the open panel dialog
    shell.addStylesheet("/static/help.css");
    this.elButton = h("button", { type: "button", class: "btn secondary help-ui", testid: "help-button",
      "aria-haspopup": "dialog", "aria-label": "Help", onclick: () => this.open() },
      h("span", { class: "help-mark", "aria-hidden": "true" }, "?"), h("span", { class: "btn-label" }, "Help"));
    this.elTap = h("button", { type: "button", class: "btn secondary help-ui help-tap", testid: "help-tap", "aria-pressed": "false",
      title: "Then tap a unit, a figure, a spell or the ground", "aria-label": "Tap for help",
      onclick: () => this.setMode(!this.mode) },
      h("span", { class: "btn-icon", "aria-hidden": "true" }, "☝"), h("span", { class: "btn-label" }, "Tap for help"));
    const options = shell.root.querySelector('[data-testid="options-button"]');
    if (options) options.before(this.elButton, this.elTap);
    this.elGuide = h("section", { class: "help-guide help-ui", testid: "help-guide", hidden: true, "aria-live": "polite",
      "aria-label": "First-game guide" });
    const side = shell.root.querySelector("aside.side");
    if (side) side.prepend(this.elGuide);
    this.elSpot = h("style", { "data-help-spot": "" });
    document.head.append(this.elSpot);
    // In help mode a tap anywhere is ours, before the board or a button sees it (the capture phase).
    this.onTap = (e) => this.intercept(e);
    this.onKey = (e) => { if (e.key === "Escape" && this.mode) this.setMode(false); };
    for (const type of TAPS) window.addEventListener(type, this.onTap, true);
    window.addEventListener("keydown", this.onKey);
    // A game's dialog that shows things with a topic (a wizard's spells) gets its own "Tap for help" button:
    // the action bar's is behind the dialog's backdrop.
    this.dialogs = new MutationObserver((changes) => {
      for (const c of changes) for (const el of c.addedNodes) if (el instanceof Element && el.matches(".backdrop")) this.offerIn(el);
    });
    this.dialogs.observe(document.body, { childList: true });
  }

  /** The table screen is left: every listener, the observer and the outline style go with it. */
  stop() {
    for (const type of TAPS) window.removeEventListener(type, this.onTap, true);
    window.removeEventListener("keydown", this.onKey);
    this.dialogs.disconnect();
    this.elSpot.remove();
  }

  /** Add "Tap for help" to a dialog if something in it has a topic. */
  offerIn(backdrop) {
    const box = backdrop.querySelector(".dialog");
    if (!box || box.matches(".help-panel") || !this.topics().length) return;
    const explained = [...box.querySelectorAll("button, [data-help]")].some((el) => {
      const key = this.keyFor(el);
      return Boolean(key && this.topic(key));
    });
    const title = box.querySelector(".dialog-title");
    if (!explained || !title) return;
    title.after(h("button", { type: "button", class: "btn secondary help-ui help-tap-dialog", testid: "help-tap-dialog",
      onclick: () => this.setMode(!this.mode) }, h("span", { class: "help-mark", "aria-hidden": "true" }, "?"), "Tap for help"));
  }

  /** The welcome names the game and the scenario: load the help, and show the guide to a newcomer. */
  welcome(msg) {
    const table = (msg && msg.table) || {};
    const changed = table.game !== this.game;
    this.game = table.game || this.game;
    this.scenario = table.scenario || this.scenario;
    if (changed) this.loading = null;
    this.load().then(() => {
      const guide = this.guide();
      if (guide && !seen(this.guideKey()) && this.elGuide.hidden) {
        remember(this.guideKey());
        this.startGuide();
      }
    });
  }

  load() {
    if (!this.loading) {
      this.loading = fetch(`/api/games/${encodeURIComponent(this.game || "")}/help`, { headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null)
        .then((data) => {
          this.data = data;
          this.elTap.hidden = !this.topics().length;
          return data;
        });
    }
    return this.loading;
  }

  topics() { return (this.data && this.data.topics) || []; }
  topic(key) { return this.topics().find((t) => t.key === key) || null; }
  guide() { return ((this.data && this.data.guides) || []).find((g) => g.scenario === this.scenario) || null; }
  guideKey() { return `${this.game}/${this.scenario}`; }

  // ---------------------------------------------------------------- tap for help

  setMode(on) {
    this.mode = Boolean(on);
    for (const b of document.querySelectorAll('[data-testid="help-tap"], [data-testid="help-tap-dialog"]')) {
      b.setAttribute("aria-pressed", String(this.mode));
    }
    this.elTap.classList.toggle("primary", this.mode);
    document.body.classList.toggle("help-mode", this.mode);
    if (this.mode) toast("Tap a unit, a figure, a spell or the ground to read about it.", "info", 3000);
  }

  /** What a tapped element is about: its own `data-help`, else the game screen's `helpTopic(element)`. */
  keyFor(el) {
    const marked = el.closest && el.closest("[data-help]");
    if (marked) return marked.getAttribute("data-help");
    const obs = this.shell.obs ? this.shell.obs() : {};
    if (el.closest('[data-testid="phase"]') && obs && obs.phase) return `phase:${obs.phase}`; // the header's phase line
    const screen = this.shell.game;
    return screen && typeof screen.helpTopic === "function" ? screen.helpTopic(el) : null;
  }

  intercept(e) {
    if (!this.mode || !(e.target instanceof Element)) return;
    if (e.target.closest(".help-ui, .help-panel, .toast")) return;
    e.preventDefault();
    e.stopPropagation();
    e.stopImmediatePropagation();
    if (e.type !== "click") return;
    const key = this.keyFor(e.target);
    if (key && this.topic(key)) {
      this.setMode(false);
      this.open(key);
    } else {
      toast(NO_HELP_THERE, "info", 3000);
    }
  }

  // ---------------------------------------------------------------- the panel

  /** Open the help panel: on a topic (`kind:id`), or on How to play. */
  async open(key) {
    if (this.mode) this.setMode(false);
    await this.load();
    if (this.panel) this.panel.close();
    const title = (this.data && this.data.title) || "this game";
    this.elTabs = h("div", { class: "help-tabs", role: "tablist" });
    this.elContent = h("div", { class: "help-content", testid: "help-content" });
    const panel = modal({ title: `Help: ${title}`, testid: "help-panel", className: "help-panel", wide: true, dismissable: true,
      body: [this.elTabs, this.elContent], buttons: [{ label: "Close", value: null, testid: "help-close" }] });
    this.panel = panel;
    panel.done.then(() => { if (this.panel === panel) this.panel = null; });
    if (!this.data || !(this.data.how_to_play || []).length && !this.topics().length) {
      fill(this.elContent, h("p", { testid: "help-none" }, "This game has no help yet."));
      return;
    }
    const tab = (id, label, show) => h("button", { type: "button", role: "tab", class: "btn secondary help-tab", testid: `help-tab-${id}`,
      onclick: () => { this.selectTab(id); show(); } }, label);
    fill(this.elTabs, tab("howto", "How to play", () => this.showHowTo()),
      this.guide() ? tab("guide", "First game", () => this.showGuideTab()) : null,
      this.topics().length ? tab("topics", "Look up", () => this.showTopics()) : null);
    if (key) this.showTopic(key);
    else { this.selectTab("howto"); this.showHowTo(); }
  }

  selectTab(id) {
    for (const b of this.elTabs.querySelectorAll(".help-tab")) {
      const on = b.dataset.testid === `help-tab-${id}`;
      b.setAttribute("aria-selected", String(on));
      b.classList.toggle("primary", on);
    }
  }

  showHowTo() {
    fill(this.elContent, h("div", { class: "help-howto", testid: "help-howto" }, (this.data.how_to_play || []).map((s, i) =>
      h("section", { class: "help-section", testid: `help-howto-${i}` }, h("h3", {}, s.title), h("p", {}, s.text),
        s.rules.length ? h("details", { class: "help-rules" }, h("summary", {}, `The rules (${s.rules.map((r) => r.clause).join(", ")})`),
          h("ul", {}, s.rules.map(ruleItem))) : null))));
  }

  showGuideTab() {
    const guide = this.guide();
    fill(this.elContent, h("div", { class: "help-guide-tab" }, h("h3", {}, guide.title),
      h("ol", {}, guide.steps.map((s) => h("li", {}, s.title))),
      h("button", { type: "button", class: "btn primary", testid: "help-guide-start", onclick: () => {
        if (this.panel) this.panel.close();
        this.startGuide();
      } }, "Walk me through it")));
  }

  showTopics(filter = "") {
    const search = h("input", { type: "search", class: "help-search", testid: "help-search", placeholder: "Find a unit, a spell, a rule…",
      "aria-label": "Find a topic", value: filter });
    const list = h("div", { class: "help-list" });
    const draw = () => {
      const q = search.value.trim().toLowerCase();
      const kinds = (this.data.kinds || []).length ? this.data.kinds : [...new Set(this.topics().map((t) => t.kind))].map((k) => ({ kind: k, title: k }));
      fill(list, kinds.map((k) => {
        const items = this.topics().filter((t) => t.kind === k.kind && (!q || `${t.title} ${t.text}`.toLowerCase().includes(q)));
        return items.length ? h("section", { class: "help-kind" }, h("h3", {}, k.title), h("div", { class: "help-chips" }, items.map((t) =>
          h("button", { type: "button", class: "btn secondary help-chip", testid: `help-topic-${t.kind}-${t.id}`,
            onclick: () => this.showTopic(t.key) }, t.title)))) : null;
      }));
    };
    search.addEventListener("input", draw);
    draw();
    fill(this.elContent, search, list);
    this.selectTab("topics");
  }

  showTopic(key) {
    const t = this.topic(key);
    if (!t) { this.showTopics(); return; }
    this.selectTab("topics");
    fill(this.elContent, h("article", { class: "help-topic", testid: "help-topic", "data-topic": t.key },
      h("h3", { testid: "help-topic-title" }, t.title),
      h("p", { class: "help-text" }, t.text),
      t.profile.length ? h("table", { class: "help-profile", testid: "help-profile" }, h("tbody", {}, t.profile.map((row) =>
        h("tr", {}, h("th", { scope: "row" }, row.label), h("td", {}, row.value))))) : null,
      t.rules.length ? h("section", {}, h("h4", {}, "The rules that apply"), h("ul", { class: "help-rule-list" }, t.rules.map(ruleItem))) : null,
      t.see.length ? h("p", { class: "help-see" }, "See also: ", t.see.map((k) => {
        const other = this.topic(k);
        return other ? h("button", { type: "button", class: "btn link", testid: `help-see-${k.replace(":", "-")}`, onclick: () => this.showTopic(k) }, other.title) : null;
      })) : null,
      h("button", { type: "button", class: "btn secondary", testid: "help-back-to-list", onclick: () => this.showTopics() }, "All topics")));
  }

  // ---------------------------------------------------------------- the first-game guide

  startGuide() {
    if (!this.guide()) return;
    this.step = 0;
    this.elGuide.hidden = false;
    this.drawGuide();
  }

  closeGuide() {
    this.elGuide.hidden = true;
    this.elSpot.textContent = "";
    remember(this.guideKey());
  }

  drawGuide() {
    const guide = this.guide();
    const steps = guide.steps;
    this.step = Math.max(0, Math.min(this.step, steps.length - 1));
    const s = steps[this.step];
    const last = this.step === steps.length - 1;
    // Outline what the step is about, however often the screen redraws it (a rule, not a class on a node).
    this.elSpot.textContent = s.testid ? `[data-testid="${CSS.escape(s.testid)}"] { outline: 4px solid #ffd54a; outline-offset: 2px;
      animation: help-spot 1.4s ease-in-out infinite; }` : "";
    fill(this.elGuide,
      h("div", { class: "help-guide-head" }, h("strong", {}, guide.title),
        h("span", { class: "muted", testid: "help-guide-count" }, `Step ${this.step + 1} of ${steps.length}`)),
      h("h3", { testid: "help-guide-title" }, s.title),
      h("p", { testid: "help-guide-text" }, s.text),
      h("div", { class: "row help-guide-buttons" },
        h("button", { type: "button", class: "btn secondary", testid: "help-guide-back", disabled: this.step === 0,
          onclick: () => { this.step -= 1; this.drawGuide(); } }, "Back"),
        last ? h("button", { type: "button", class: "btn primary", testid: "help-guide-done", onclick: () => this.closeGuide() }, "Done")
          : h("button", { type: "button", class: "btn primary", testid: "help-guide-next", onclick: () => { this.step += 1; this.drawGuide(); } }, "Next"),
        s.topic && this.topic(s.topic) ? h("button", { type: "button", class: "btn secondary", testid: "help-guide-more",
          onclick: () => this.open(s.topic) }, "Tell me more") : null,
        h("button", { type: "button", class: "btn secondary", testid: "help-guide-close", "aria-label": "Close the guide",
          onclick: () => this.closeGuide() }, "✕")));
  }
}
