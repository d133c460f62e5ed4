// Game selection: a card per game (GET /api/games: its facts, scenarios with their table and forces, and the
// games to come), the set-up panel, invitations, and saved games (resume, delete, export, import).

import * as api from "./api.js";
import { h, fill } from "./dom.js";
import { toast, modal, confirmDialog } from "./ui.js";
import { listDevices, bindDevice, deviceLabel } from "./hardware.js";

const seatNames = (game) => (Array.isArray(game.seat_names) && game.seat_names.length ? game.seat_names : ["Player 1", "Player 2"]);

const absolute = (link) => (link ? new URL(link, location.origin).href : null);

/** Copy text, with a fallback for pages served over plain http on another machine. */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "offscreen", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { /* ignore */ }
    area.remove();
    return ok;
  }
}

function monogram(title) {
  return String(title).split(/\s+/).filter((w) => /^[A-Z]/.test(w)).map((w) => w[0]).join("").slice(0, 3) || "?";
}

export async function showLobby(root) {
  document.title = "Game Selection: Intelligent Wargames Table";
  const state = { games: [], selected: null, setup: null };
  const cards = h("div", { class: "game-cards", role: "list", testid: "game-cards" });
  const setupHost = h("section", { class: "setup-host", "aria-label": "Set up the game" });
  const savedList = h("div", { class: "saved-list", testid: "saved-list" });
  // The physical tables and the game each plays (hardware.js; empty without a bridge).
  const deviceList = h("div", { class: "hw-devices", testid: "hardware-devices", hidden: true });
  const fileInput = h("input", { type: "file", accept: "application/json,.json", class: "offscreen",
    testid: "import-file", "aria-label": "Game record to import" });

  fill(root,
    h("div", { class: "lobby" },
      h("header", { class: "lobby-head" },
        h("h1", {}, "Game Selection"),
        h("p", { class: "subtitle" }, "Intelligent Wargames Table: tap a game, set it up, press Play.")),
      cards,
      setupHost,
      h("section", { class: "saved", "aria-labelledby": "saved-title" },
        h("div", { class: "saved-head" },
          h("h2", { id: "saved-title" }, "Saved games"),
          h("button", { type: "button", class: "btn secondary", testid: "import-button",
            onclick: () => fileInput.click() }, "Import a record…"),
          fileInput),
        deviceList,
        savedList)));

  fileInput.addEventListener("change", async () => {
    const file = fileInput.files && fileInput.files[0];
    fileInput.value = "";
    if (!file) return;
    try {
      const text = await file.text();
      JSON.parse(text); // refuse a file that is not JSON before sending it
      const made = await api.importRecord(text);
      toast(`Imported as table ${made && made.id ? made.id : ""}`, "ok");
      loadSaved();
    } catch (err) {
      toast(`Import refused: ${err.message}`, "error", 7000);
    }
  });

  function renderCards() {
    cards.replaceChildren();
    for (const game of state.games) {
      const selected = state.selected === game.name;
      cards.append(h("button", {
        type: "button",
        role: "listitem",
        class: ["game-card", selected && "selected", !game.playable && "coming"],
        testid: `game-card-${game.name}`,
        "aria-pressed": selected ? "true" : "false",
        "aria-disabled": game.playable ? null : "true",
        "data-playable": game.playable ? "true" : "false",
        onclick: () => {
          if (!game.playable) {
            toast(`${game.title} is coming soon.`);
            return;
          }
          state.selected = game.name;
          renderCards();
          renderSetup(game);
        },
      },
      h("span", { class: "game-art", "aria-hidden": "true" }, monogram(game.title)),
      h("span", { class: "game-title" }, game.title),
      h("span", { class: "game-blurb" }, game.blurb || ""),
      !game.playable ? h("span", { class: "badge coming-badge" }, "Coming") : h("span", { class: "badge" }, "Play")));
    }
  }

  function segmented(name, options, value, onChange) {
    const group = h("div", { class: "segmented", role: "radiogroup", "aria-label": name });
    const draw = (current) => {
      group.replaceChildren(...options.map((o) => h("button", {
        type: "button", role: "radio", class: ["seg", o.value === current && "on"],
        "aria-checked": o.value === current ? "true" : "false", testid: o.testid,
        onclick: () => { onChange(o.value); draw(o.value); },
      }, o.label)));
    };
    draw(value);
    return group;
  }

  function renderSetup(game) {
    const timed = game.movement_timer !== false; // a game whose rules time nothing offers no timer
    const timerDefault = Math.round(Number(game.timer_seconds) || 120);
    const scenarioOf = (name) => game.scenarios.find((sc) => sc.name === name) || null;
    // A game whose own set-up choices include `players` seats that many: each seat keeps its name, taken
    // from the game's scenario with the most seats (the first N of them).
    let chosenPlayers = 0;
    const mostNames = () => game.scenarios.map((sc) => (Array.isArray(sc.seat_names) ? sc.seat_names : []))
      .reduce((a, b) => (b.length > a.length ? b : a), []);
    const namesOf = (name) => {
      if (chosenPlayers > 0) {
        const pool = mostNames();
        return Array.from({ length: chosenPlayers }, (_, i) => pool[i] || `Player ${i + 1}`);
      }
      const sc = scenarioOf(name);
      return sc && Array.isArray(sc.seat_names) && sc.seat_names.length ? sc.seat_names : seatNames(game);
    };
    const first = game.scenarios[0] && game.scenarios[0].name;
    const setup = { scenario: first, seats: namesOf(first).map((_, i) => (i === 0 ? "human" : "bot")),
      mode: "shared", dice: "table", timer: timed ? timerDefault : 0, options: {} };
    // The game's own set-up choices (a win condition, premeasuring...): only those changed from their
    // default are sent, so an untouched one keeps what the scenario says.
    const gameOptions = Array.isArray(game.setup_options) ? game.setup_options : [];
    const optionFields = gameOptions.map((o) => h("div", { class: "field", testid: `setup-option-${o.key}` },
      h("span", { class: "label", title: o.help || "" }, o.title),
      segmented(o.title, o.choices.map((c) => ({ value: c.value, label: c.label, testid: `option-${o.key}-${c.value}` })),
        o.default, (v) => {
          if (v === o.default) delete setup.options[o.key]; else setup.options[o.key] = v;
          if (o.key === "players") { chosenPlayers = Number(setup.options.players) || 0; drawSeats(); }
        }),
      o.help ? h("p", { class: "muted" }, o.help) : null));
    state.setup = setup;
    const scenario = h("select", { class: "big-select", testid: "scenario-select", id: "scenario-select" },
      game.scenarios.map((sc) => h("option", { value: sc.name }, `${sc.title} (${sc.turns} ${sc.turn_word || "turns"})`)));
    const about = h("p", { class: "muted scenario-about", testid: "scenario-about" });
    const facts = h("p", { class: "muted scenario-facts", testid: "scenario-facts" });
    // The seats follow the scenario: a scenario may have one seat per player, several on a side.
    const seatHost = h("div", { class: "seat-fields", testid: "seat-fields" });
    const drawSeats = () => {
      const names = namesOf(setup.scenario);
      setup.seats = names.map((_, i) => setup.seats[i] || (i === 0 ? "human" : "bot"));
      const sc = scenarioOf(setup.scenario);
      about.textContent = sc && sc.description ? sc.description : "";
      facts.textContent = sc ? [sc.table ? `Table ${sc.table}` : "", sc.forces ? `Forces ${sc.forces}` : "",
        sc.turns ? `${sc.turns} ${sc.turn_word || "turns"}` : ""].filter(Boolean).join(" · ") : "";
      fill(seatHost, names.map((name, i) => {
        const sel = h("select", { class: "big-select", testid: `seat-select-${i}`, id: `seat-select-${i}` },
          h("option", { value: "human" }, "Human player"), h("option", { value: "bot" }, "Table bot"));
        sel.value = setup.seats[i];
        sel.addEventListener("change", () => { setup.seats[i] = sel.value; });
        return h("div", { class: "field" }, h("label", { for: `seat-select-${i}` }, name), sel);
      }));
    };
    scenario.addEventListener("change", () => { setup.scenario = scenario.value; drawSeats(); });
    drawSeats();
    const timer = h("input", { type: "number", min: 10, max: 1800, step: 10, value: timerDefault, inputmode: "numeric",
      class: "big-input", id: "timer-input", testid: "timer-input" });
    timer.addEventListener("change", () => {
      const v = Math.round(Number(timer.value));
      setup.timer = Number.isFinite(v) && v >= 10 ? Math.min(1800, v) : timerDefault;
      timer.value = setup.timer;
    });
    const bump = (d) => { timer.value = Math.max(10, Math.min(1800, Number(timer.value) + d)); timer.dispatchEvent(new Event("change")); };
    const play = h("button", { type: "button", class: "btn primary huge", testid: "play-button" }, "Play");
    play.addEventListener("click", async () => {
      if (!setup.seats.includes("human")) {
        toast("At least one seat must be played by a human.", "error");
        return;
      }
      play.disabled = true;
      try {
        const body = { game: game.name, scenario: setup.scenario, seats: setup.seats,
          mode: setup.mode, dice: setup.dice, timer_seconds: setup.timer };
        if (Object.keys(setup.options).length) body.options = { ...setup.options };
        const made = await api.createTable(body);
        afterCreate(made, setup, namesOf(setup.scenario));
      } catch (err) {
        toast(`The table could not be set: ${err.message}`, "error", 7000);
      } finally {
        play.disabled = false;
      }
    });
    fill(setupHost,
      h("div", { class: "setup", testid: "setup-panel" },
        h("h2", {}, `Set up: ${game.title}`),
        h("div", { class: "setup-grid" },
          h("div", { class: "field" }, h("label", { for: "scenario-select" }, "Scenario"), scenario, about, facts),
          seatHost,
          h("div", { class: "field" }, h("span", { class: "label" }, "Screens"),
            segmented("Screens", [
              { value: "shared", label: "Shared touchscreen", testid: "mode-shared" },
              { value: "remote", label: "Remote seats", testid: "mode-remote" },
            ], setup.mode, (v) => { setup.mode = v; })),
          h("div", { class: "field" }, h("span", { class: "label" }, "Dice"),
            segmented("Dice", [
              { value: "table", label: "Table dice", testid: "dice-table" },
              { value: "physical", label: "Physical dice", testid: "dice-physical" },
            ], setup.dice, (v) => { setup.dice = v; })),
          timed ? h("div", { class: "field" }, h("label", { for: "timer-input" }, "Movement timer (seconds)"),
            h("div", { class: "stepper" },
              h("button", { type: "button", class: "btn secondary", "aria-label": "30 seconds less", testid: "timer-less", onclick: () => bump(-30) }, "−"),
              timer,
              h("button", { type: "button", class: "btn secondary", "aria-label": "30 seconds more", testid: "timer-more", onclick: () => bump(30) }, "+")))
            : null,
          ...optionFields),
        play));
    setupHost.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  function afterCreate(made, setup, names) {
    const links = (made && made.links) || {};
    if (setup.mode === "shared" && links.table) {
      location.assign(links.table);
      return;
    }
    // Remote seats: show each invitation with a copy button; this screen may open one of them.
    const rows = names.map((name, i) => {
      const link = absolute(links.seats && links.seats[i]);
      if (!link) return h("div", { class: "invite-row" }, h("strong", {}, name), h("span", { class: "muted" }, "played by the table bot"));
      return h("div", { class: "invite-row", testid: `invite-${i}` },
        h("strong", {}, name),
        h("input", { class: "link-field", readonly: true, value: link, testid: `invite-link-${i}`, "aria-label": `Invitation link for ${name}` }),
        h("button", { type: "button", class: "btn secondary", testid: `copy-link-${i}`,
          onclick: async () => toast((await copy(link)) ? "Link copied." : "Copy failed: select the link and copy it.") }, "Copy"),
        h("button", { type: "button", class: "btn primary", testid: `open-seat-${i}`, onclick: () => location.assign(link) }, "Play here"));
    });
    const tableLink = absolute(links.table);
    modal({
      title: "Invitations",
      testid: "invite-panel",
      wide: true,
      dismissable: true,
      body: [
        h("p", {}, "Send each remote player their seat's link. Each link opens that seat only."),
        ...rows,
        tableLink ? h("div", { class: "invite-row" }, h("strong", {}, "Table link"),
          h("input", { class: "link-field", readonly: true, value: tableLink, "aria-label": "Table link" }),
          h("button", { type: "button", class: "btn secondary", testid: "copy-link-table",
            onclick: async () => toast((await copy(tableLink)) ? "Link copied." : "Copy failed.") }, "Copy")) : null,
      ],
      buttons: [{ label: "Close", value: null, testid: "invite-close" }],
    }).done.then(loadSaved);
  }

  function resumeLink(t) {
    const links = t.links || {};
    return links.table || (links.seats || []).find(Boolean) || null;
  }

  async function exportTable(t) {
    try {
      const text = await api.exportRecord(t.id);
      const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      const a = h("a", { href: url, download: `iwgt-${t.game}-${t.id}.json`, class: "offscreen" });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 5000);
    } catch (err) {
      toast(`Export refused: ${err.message}`, "error");
    }
  }

  // A saved game's state in the player's words (the server's "playing", "over", "quit").
  const STATUS_WORDS = { playing: "in play", over: "finished", quit: "quit" };

  async function loadSaved() {
    let tables;
    try {
      tables = await api.listTables();
    } catch (err) {
      fill(savedList, h("p", { class: "muted" }, err.status === 403
        ? "Saved games are managed from the table's own screen."
        : `Saved games unavailable: ${err.message}`));
      return;
    }
    // The physical tables the server's bridge knows (none without one: then no select is shown).
    let devices = [];
    try {
      devices = await listDevices();
    } catch { /* an older server, or the lobby closed to this screen: no physical tables */ }
    const gameTitle = (name) => (state.games.find((g) => g.name === name) || { title: name }).title;
    const scenarioTitle = (game, name) => {
      const g = state.games.find((x) => x.name === game);
      const sc = g && (g.scenarios || []).find((x) => x.name === name);
      return sc ? sc.title : name;
    };
    const byId = new Map((tables || []).map((t) => [t.id, t]));
    // A game table as the players know it: "Game: Scenario (t-1234, in play)".
    const gameOf = (id) => {
      const t = byId.get(id);
      return t ? `${gameTitle(t.game)}: ${scenarioTitle(t.game, t.scenario)} (${t.id}, ${STATUS_WORDS[t.status] || t.status})`
        : `table ${id}`;
    };
    renderDevices(devices, gameOf);
    if (!tables || !tables.length) {
      fill(savedList, h("p", { class: "muted", testid: "saved-empty" }, "No saved games yet."));
      return;
    }
    const ctx = { devices, byId, gameOf };
    fill(savedList, tables.map((t) => {
      const link = resumeLink(t);
      const when = t.created ? new Date(typeof t.created === "number" ? t.created * 1000 : t.created) : null;
      return h("div", { class: "saved-row", testid: `saved-${t.id}`, role: "group", "aria-label": `Table ${t.id}` },
        h("div", { class: "saved-info" },
          h("strong", {}, `${gameTitle(t.game)}: ${scenarioTitle(t.game, t.scenario)}`),
          h("span", { class: "muted" }, [
            t.id, when && !Number.isNaN(when.getTime()) ? when.toLocaleString() : null,
            STATUS_WORDS[t.status] || t.status, Number.isInteger(t.turn) ? `turn ${t.turn}` : null, t.mode,
            Array.isArray(t.seats) ? t.seats.join(" v ") : null,
          ].filter(Boolean).join(" · "))),
        t.status === "playing" && devices.length ? physicalTable(t, ctx) : null,
        h("div", { class: "saved-actions" },
          h("button", { type: "button", class: "btn primary", testid: `resume-${t.id}`, disabled: !link,
            onclick: () => link && location.assign(link) }, t.status === "playing" ? "Resume" : "Open"),
          h("button", { type: "button", class: "btn secondary", testid: `export-${t.id}`, onclick: () => exportTable(t) }, "Export"),
          h("button", { type: "button", class: "btn danger", testid: `delete-${t.id}`, onclick: async () => {
            if (!(await confirmDialog("Delete this game?", `Table ${t.id} and its record will be deleted for good.`, "Delete"))) return;
            try {
              await api.deleteTable(t.id);
              toast("Game deleted.");
            } catch (err) {
              toast(`Delete refused: ${err.message}`, "error");
            }
            loadSaved();
          } }, "Delete")));
    }));
  }

  /**
   * The lobby's "Physical tables": each device the bridge knows, the game it plays (whatever that game's state:
   * in play, finished or quit) and a Free button for a bound one (docs/screen-shell.md).
   */
  function renderDevices(devices, gameOf) {
    deviceList.hidden = !devices.length;
    if (!devices.length) {
      deviceList.replaceChildren();
      return;
    }
    fill(deviceList,
      h("h3", { id: "hw-devices-title" }, "Physical tables"),
      h("ul", { "aria-labelledby": "hw-devices-title" }, devices.map((d) => h("li", { testid: `hardware-device-${d.device}`,
        "data-table": d.table || "" },
      h("span", {}, h("strong", {}, deviceLabel(d)), d.table ? `: plays ${gameOf(d.table)}` : ": free"),
      d.table ? h("button", { type: "button", class: "btn secondary small", testid: `hardware-free-${d.device}`,
        onclick: async (e) => {
          e.currentTarget.disabled = true;
          try {
            await bindDevice(d.device, null);
            toast(`${d.device} is free: ${gameOf(d.table)} plays on the screen only.`, "ok");
          } catch (err) {
            toast(`${d.device} could not be freed: ${err.message}`, "error", 7000);
          }
          loadSaved();
        } }, `Free ${d.device}`) : null))));
  }

  /**
   * A game table's "Physical table" select: no table, or one of the devices (online ones first, with their
   * size, and the game each already plays); choosing binds it (PUT /api/hardware/<device>). A device playing
   * another game in play is moved only once the players say so (that game then goes on on the screen only);
   * a refusal (a board too big for the table) is shown in red under it, the select back to what is bound.
   */
  function physicalTable(t, { devices, byId, gameOf }) {
    const bound = devices.find((d) => d.table === t.id) || null;
    const id = `hardware-select-${t.id}`;
    const select = h("select", { class: "big-select", id, testid: id },
      h("option", { value: "" }, "None: play on the screen"),
      devices.map((d) => h("option", { value: d.device, "data-online": d.online ? "true" : "false",
        "data-table": d.table || "" },
      deviceLabel(d) + (d.table && d.table !== t.id ? `: plays ${gameOf(d.table)}` : ""))));
    select.value = bound ? bound.device : "";
    const problem = h("p", { class: "error-text hw-bind-error", testid: `hardware-error-${t.id}`, role: "alert", hidden: true });
    const here = gameOf(t.id);
    select.addEventListener("change", async () => {
      const chosen = select.value;
      problem.hidden = true;
      const device = devices.find((d) => d.device === chosen);
      const other = device && device.table && device.table !== t.id ? byId.get(device.table) : null;
      if (other && other.status === "playing") {
        const yes = await confirmDialog(`Move ${chosen} to this game?`,
          `${chosen} plays ${gameOf(other.id)} now. Moved here, that game goes on on the screen only.`, `Move ${chosen}`);
        if (!yes) {
          select.value = bound ? bound.device : "";
          return;
        }
      }
      select.disabled = true;
      try {
        if (chosen) await bindDevice(chosen, t.id);
        else if (bound) await bindDevice(bound.device, null);
        toast(chosen ? `${here} now plays on ${chosen}.` : `${here} plays on the screen only.`, "ok");
        loadSaved();
      } catch (err) {
        problem.textContent = `${chosen || "The physical table"} refused: ${err.message}`;
        problem.hidden = false;
        select.value = bound ? bound.device : "";
        select.disabled = false;
      }
    });
    return h("div", { class: "field saved-hardware", testid: `hardware-${t.id}` },
      h("label", { for: id }, "Physical table"), select, problem);
  }

  try {
    state.games = await api.listGames();
  } catch (err) {
    fill(cards, h("p", { class: "error-text" }, `The game list is unavailable: ${err.message}`));
  }
  renderCards();
  loadSaved();
}
