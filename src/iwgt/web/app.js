// The page's entry point: routes / to game selection and /play/{table}#token=… to the table screen.

import { showLobby } from "./lobby.js";
import { TableSocket } from "./socket.js";
import { h, fill } from "./dom.js";
import { Shell, closedScreen, fatalScreen } from "./shell.js";

/**
 * The screen module of the game the welcome names: by convention `screen.js`, which the game's own package
 * serves at /static/games/<name>/, exporting `Screen` (docs/screen-shell.md). The page names no game.
 */
function loadScreen(game) {
  if (typeof game !== "string" || !/^[a-z][a-z0-9_-]*$/.test(game)) {
    return Promise.reject(new Error("the table did not say which game it plays"));
  }
  return import(`/static/games/${game}/screen.js`).then((m) => {
    if (typeof m.Screen !== "function") throw new Error(`the screen of ${game} exports no Screen`);
    return m;
  });
}

/**
 * Open the table's socket, and build the shell round the game's own screen once the welcome names the game.
 * Messages that arrive while the screen's module loads are kept and handed over in order.
 */
function openTable(root, table, token) {
  const queued = [];
  let screen = null;
  let connState = "connecting";
  let detail = "";
  let starting = false;
  const socket = new TableSocket(table, token, (msg) => {
    if (screen) screen.onMessage(msg);
    else {
      queued.push(msg);
      if (!starting && (msg.type === "welcome" || msg.type === "error" || msg.type === "closed")) start(msg);
    }
  }, (state, d) => {
    connState = state;
    detail = d || "";
    if (screen) screen.onState(state, d);
  });
  function start(first) {
    starting = true;
    const game = first.type === "welcome" && first.table ? first.table.game : null;
    if (game === null) {
      // A refusal or a closed table before any welcome: the shell says so without a game's screen.
      socket.close();
      if (first.type === "closed") closedScreen(first.reason);
      else if (first.error === "unauthorized") {
        fatalScreen(root, "This link does not open the table", first.message || "The invitation is not valid (any more).");
      } else fatalScreen(root, "The table refused this screen", first.message || "");
      return;
    }
    loadScreen(game).then((module) => {
      screen = new Shell(root, table, token, socket, module);
      window.iwgtTable = screen;
      screen.onState(connState, detail);
      for (const msg of queued.splice(0)) screen.onMessage(msg);
    }).catch((err) => {
      socket.close();
      fatalScreen(root, "No screen for this game", String(err && err.message ? err.message : err));
    });
  }
  fill(root, h("p", { class: "loading", testid: "loading" }, "Connecting to the table…"));
  socket.connect();
}

function tokenFor(table) {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = params.get("token");
  const stored = `iwgt-token-${table}`;
  if (token) {
    sessionStorage.setItem(stored, token); // survives a reload that loses the fragment
    return token;
  }
  return sessionStorage.getItem(stored);
}

function route() {
  const root = document.getElementById("app");
  const m = location.pathname.match(/^\/play\/([^/]+)\/?$/);
  if (!m) {
    showLobby(root);
    return;
  }
  const table = decodeURIComponent(m[1]);
  const token = tokenFor(table);
  if (!token) {
    fill(root, h("div", { class: "fatal", testid: "fatal" },
      h("h1", {}, "No invitation"),
      h("p", {}, "This table opens with its link, which carries the seat's token after #token=."),
      h("a", { class: "btn primary huge", href: "/", testid: "back-to-lobby" }, "Game selection")));
    return;
  }
  openTable(root, table, token);
}

route();
