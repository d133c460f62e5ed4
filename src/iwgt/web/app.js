// The page's entry point: routes / to game selection and /play/{table}#token=… to the table screen.

import { showLobby } from "./lobby.js";
import { TableScreen } from "./table.js";
import { h, fill } from "./dom.js";

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
  window.iwgtTable = new TableScreen(root, table, token);
}

route();
