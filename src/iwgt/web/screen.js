// What every game's table screen does the same way: the connection badge, the closed and fatal screens,
// quitting, downloading the record, and reading a pointer's position on an SVG board.
import { h, fill } from "./dom.js";
import { exportRecord } from "./api.js";
import { toast, modal, confirmDialog } from "./ui.js";

const CONNECTION_TEXT = { connecting: "Connecting…", open: "Connected", offline: "Reconnecting…", closed: "Closed" };

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

/** Ask, then quit the game through the socket and go back to the game selection. */
export async function confirmQuit(socket) {
  if (await confirmDialog("Quit the game?", "The game ends here as abandoned; its record is kept.", "Quit Game")) {
    socket.quit();
    setTimeout(() => location.assign("/"), 600);
  }
}

/** Download the table's record as a JSON file. */
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

/** A pointer event's position in an SVG's own coordinates. */
export function svgPoint(svg, e) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return [0, 0];
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
  return [p.x, p.y];
}
