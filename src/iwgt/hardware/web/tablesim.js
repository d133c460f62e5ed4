// The simulated table's page: its hex cells drawn with the touchscreen board's own geometry (board.js: odd-r
// offset cells, pointy-top), each cell's LEDs as dots in the colours the sim renders from the referee's frame,
// and the pieces as discs. Click a piece to lift it (it follows the pointer), click a cell to put it down; by
// keyboard, the board is one tab stop (arrows move between cells) and each piece another: Enter or Space lifts
// and places. A legend names the colours the last frame shows. Cells are the TABLE's [column, row], not a game's.
// Everything the table does happens in the sim process: this page only draws its state and sends the hands'
// actions over the WebSocket.

import { centre, key } from "/web/board.js";
import { s, svgPoint } from "/web/dom.js";

const SIZE = 50; // board.js: centre to corner, in SVG units
const W = Math.sqrt(3) * SIZE; // flat side to flat side
const MARGIN = 8; // board.js
const GUTTER = 40; // board.js: the band along each edge that holds the column and row numbers
const LED_RING = 0.7 * SIZE; // the LEDs sit on a ring round the piece
const PIECE_R = 0.42 * SIZE;
const RETRY_MS = 1000;

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

// The legend's words for the effects a frame may show: the table's own (hardware/frames.py) first, then the
// effects every game shares (core/lights.py); a game's own effect is named from its name.
const TABLE_EFFECTS = {
  piece_missing: "a piece belongs here: put one on",
  piece_extra: "no piece belongs here: take it off",
  identify: "identify (an installer's check)",
  illegal: "refused: the piece may not stand here",
};
const GAME_EFFECTS = {
  deploy: "deployment zone",
  movable: "a piece that may move",
  destination: "a lit piece may move here",
  charge: "a charge",
  preview: "the move being looked at",
  selected: "the piece picked",
  melee: "a melee",
  firing: "shooting",
  under_fire: "under fire",
  won: "won its fight",
  lost: "lost its fight",
  destroyed: "destroyed",
};
const words = (effect) => effect.replace(/_/g, " ");

function corners(cx, cy, scale = 1) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + SIZE * scale * Math.cos(a)).toFixed(2)},${(cy + SIZE * scale * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** An LED's value as the eye would name its colour: the table's brightness and gamma undone. */
function perceived(raw, layout) {
  const top = 255 * layout.brightness;
  const out = [0, 1, 2].map((k) => {
    const v = parseInt(raw.slice(2 * k, 2 * k + 2), 16);
    if (!v || !top) return 0;
    return Math.min(255, Math.round(255 * Math.pow(Math.min(1, v / top), 1 / layout.gamma)));
  });
  return out;
}

const hex2 = (n) => n.toString(16).padStart(2, "0");
const css = (rgb) => `#${rgb.map(hex2).join("")}`;

class TableSim {
  constructor() {
    this.layout = null;
    this.state = null;
    this.mode = null; // "stick" | "knock" | null
    this.cells = new Map(); // "c,r" -> {poly, glow, leds: [{el, index}], stuck}
    this.pieceEls = new Map();
    this.ledRaw = [];
    this.pointer = null;
    this.wrap = $("board-wrap");
    this.svg = s("svg", { class: "simboard", role: "group", "aria-label": "The simulated table", testid: "board" });
    this.gCells = s("g", { class: "layer-cells" });
    this.gLabels = s("g", { class: "layer-labels", "aria-hidden": "true" });
    this.gMarks = s("g", { class: "layer-marks", "aria-hidden": "true" });
    this.gPieces = s("g", { class: "layer-pieces" });
    this.gHand = s("g", { class: "layer-hand", "aria-hidden": "true" });
    this.svg.append(this.gLabels, this.gCells, this.gMarks, this.gPieces, this.gHand);
    this.wrap.append(this.svg);
    this.svg.addEventListener("click", (e) => this.click(e));
    this.svg.addEventListener("pointermove", (e) => this.follow(e));
    this.svg.addEventListener("pointerdown", (e) => this.follow(e));
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.bindButtons();
    this.connect();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${proto}://${location.host}/ws`);
    this.ws.binaryType = "arraybuffer";
    this.ws.onmessage = (e) => {
      const text = typeof e.data === "string" ? e.data : new TextDecoder().decode(e.data);
      const msg = JSON.parse(text);
      if (msg.type === "layout") this.setLayout(msg);
      else if (msg.type === "state") this.setState(msg);
      else if (msg.type === "error") this.say(msg.message);
    };
    this.ws.onclose = () => {
      this.say("The simulated table's process is away: trying again…");
      const badge = $("online");
      badge.dataset.online = "false";
      badge.textContent = "page offline";
      setTimeout(() => this.connect(), RETRY_MS);
    };
  }

  send(op, extra = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(JSON.stringify({ op, ...extra }));
  }

  say(text) {
    $("message").textContent = text || "";
  }

  bindButtons() {
    $("tidy").addEventListener("click", () => this.send("tidy"));
    $("drop-next").addEventListener("click", () => this.send("drop_next", { n: 1 }));
    $("power-cycle").addEventListener("click", () => this.send("power_cycle"));
    $("network").addEventListener("click", () => this.send(this.state && !this.state.plugged ? "plug" : "unplug"));
    $("box").addEventListener("click", () => this.send(this.state && this.state.in_hand ? "box_put" : "box_take"));
    for (const mode of ["stick", "knock"]) {
      $(mode).addEventListener("click", () => this.setMode(this.mode === mode ? null : mode));
    }
  }

  setMode(mode) {
    this.mode = mode;
    for (const m of ["stick", "knock"]) $(m).setAttribute("aria-pressed", String(mode === m));
    document.body.classList.toggle("mode-stick", mode === "stick");
    document.body.classList.toggle("mode-knock", mode === "knock");
    if (mode === "stick") this.say("Click a cell: its sensor sticks on (click a stuck cell to free it).");
    else if (mode === "knock") this.say("Click a piece: it falls into a free neighbouring cell.");
    else this.say("");
  }

  // The board, built once per layout.
  setLayout(layout) {
    this.layout = layout;
    $("device").textContent = layout.device;
    document.title = `Simulated table ${layout.device}`;
    this.gCells.replaceChildren();
    this.gLabels.replaceChildren();
    this.cells.clear();
    this.piecesSig = null;
    this.ledRaw = new Array(layout.led_count).fill("");
    for (const [col, row, leds] of layout.cells) {
      const [cx, cy] = centre(col, row);
      const poly = s("polygon", {
        points: corners(cx, cy, 0.97),
        class: "cell",
        testid: `cell-${col}-${row}`,
        "data-cell": `${col},${row}`,
        role: "button",
        tabindex: this.cells.size === 0 ? "0" : "-1", // roving: the board is one tab stop, arrows move in it
        "aria-label": `Table cell ${col}, ${row}`,
      });
      const glow = s("polygon", { points: corners(cx, cy, 0.9), class: "glow", "fill-opacity": "0", fill: "#000" });
      const g = s("g", { class: "cellgroup" }, poly, glow);
      const n = leds.length;
      const r = n > 6 ? 5 : 7;
      const dots = leds.map((index, k) => {
        const a = -Math.PI / 2 + (2 * Math.PI * k) / Math.max(n, 1);
        const el = s("circle", {
          cx: (cx + LED_RING * Math.cos(a)).toFixed(2),
          cy: (cy + LED_RING * Math.sin(a)).toFixed(2),
          r,
          class: "led",
          fill: "#000000",
          testid: `led-${index}`,
          "data-led": index,
          "data-cell": `${col},${row}`,
          "data-colour": "#000000",
          "data-raw": "000000",
        });
        g.append(el);
        return { el, index };
      });
      this.gCells.append(g);
      this.cells.set(`${col},${row}`, { poly, glow, leds: dots, cx, cy });
    }
    for (let col = 0; col < layout.columns; col++) {
      const [x] = centre(col, 0);
      this.gLabels.append(s("text", { x, y: GUTTER / 2 + MARGIN / 2, class: "edge-label" }, String(col)));
    }
    for (let row = 0; row < layout.rows; row++) {
      const [, y] = centre(0, row);
      this.gLabels.append(s("text", { x: GUTTER / 2 + MARGIN / 2, y, class: "edge-label" }, String(row)));
    }
    const [maxX] = centre(layout.columns - 1, 1);
    const [, maxY] = centre(0, layout.rows - 1);
    const width = maxX + W / 2 + MARGIN + GUTTER;
    const height = maxY + SIZE + MARGIN + GUTTER;
    this.svg.setAttribute("viewBox", `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`);
    if (this.state) this.setState(this.state);
  }

  setState(state) {
    this.state = state;
    window.iwgtSim.state = state;
    const badge = $("online");
    const online = Boolean(state.online);
    badge.dataset.online = String(online);
    badge.textContent = online ? "online" : state.plugged ? "offline" : "unplugged";
    $("session").textContent = String(state.session);
    $("seq").textContent = String(state.seq);
    const frame = $("frame-id");
    frame.dataset.frame = state.frame === null ? "" : String(state.frame);
    frame.textContent = state.frame === null ? "none" : `#${state.frame}`;
    $("referee").textContent = state.referee_online === null ? "–" : state.referee_online ? "online" : "offline";
    if (state.refusal && state.refusal !== this.lastRefusal) this.say(`The referee refused a message: ${state.refusal}`);
    this.lastRefusal = state.refusal;
    const pending = state.drop_pending ? ` (${state.drop_pending} to drop)` : "";
    $("queued").textContent = `${state.queued}${pending}`;
    $("network").textContent = state.plugged ? "Unplug the network" : "Plug the network back";
    $("box").textContent = state.in_hand ? "Put the piece in the box" : "Take a piece from the box";
    const hand = $("hand");
    if (state.in_hand) {
      const from = state.in_hand.origin ? `from [${state.in_hand.origin.join(", ")}]` : "from the box";
      const tag = state.in_hand.tag ? ` (tag ${state.in_hand.tag})` : "";
      hand.textContent = `In your hand: a piece ${from}${tag}. Click a cell to put it down.`;
    } else {
      hand.textContent = "Your hand is empty: click a piece to lift it.";
    }
    hand.dataset.held = state.in_hand ? "true" : "false";
    if (!this.layout) return;
    this.drawLeds(state.leds);
    this.drawPieces(state);
    this.drawLog(state.log);
    this.drawLegend(state.colours);
  }

  drawLeds(hexes) {
    const layout = this.layout;
    for (const cell of this.cells.values()) {
      let changed = false;
      const sum = [0, 0, 0];
      let lit = 0;
      for (const { el, index } of cell.leds) {
        const raw = hexes.slice(6 * index, 6 * index + 6);
        const rgb = perceived(raw, layout);
        if (raw !== this.ledRaw[index]) {
          this.ledRaw[index] = raw;
          const colour = css(rgb);
          el.setAttribute("fill", colour);
          el.dataset.colour = colour;
          el.dataset.raw = raw;
          changed = true;
        }
        if (rgb[0] || rgb[1] || rgb[2]) lit += 1;
        for (let k = 0; k < 3; k++) sum[k] += rgb[k];
      }
      if (!changed) continue;
      // The cell glows with its LEDs' mean colour, so a lit pattern reads from across the room.
      const n = Math.max(cell.leds.length, 1);
      cell.glow.setAttribute("fill", css(sum.map((v) => Math.round(v / n))));
      cell.glow.setAttribute("fill-opacity", lit ? "0.42" : "0");
    }
  }

  drawPieces(state) {
    // Drawn afresh only when they change: the state comes ten times a second while a light pulses, and a piece
    // re-made each time could never be clicked, nor keep the keyboard's focus.
    const sig = JSON.stringify([state.pieces, state.stuck, state.in_hand]);
    if (sig === this.piecesSig) return;
    this.piecesSig = sig;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".piece-g");
    const refocus = focused ? focused.dataset.cell : null;
    this.gPieces.replaceChildren();
    this.gMarks.replaceChildren();
    for (const [col, row] of state.stuck) {
      const cell = this.cells.get(`${col},${row}`);
      if (!cell) continue;
      this.gMarks.append(
        s("polygon", { points: corners(cell.cx, cell.cy, 0.82), class: "stuck-mark", testid: `stuck-${col}-${row}` }),
      );
    }
    for (const [col, row, tag] of state.pieces) {
      const cell = this.cells.get(`${col},${row}`);
      if (!cell) continue;
      const disc = s(
        "g",
        { class: "piece-g", "data-cell": `${col},${row}`, testid: `piece-${col}-${row}`, role: "button", tabindex: "0",
          "aria-label": `Piece on table cell ${col}, ${row}: Enter lifts it` },
        s("circle", { cx: cell.cx, cy: cell.cy, r: PIECE_R, class: "piece" }),
        tag ? s("text", { x: cell.cx, y: cell.cy + 5, class: "piece-tag" }, tag.replace(/^tag-/, "#")) : null,
      );
      this.gPieces.append(disc);
      if (refocus === `${col},${row}`) disc.focus(); // the keyboard's place kept
    }
    this.gHand.replaceChildren();
    const held = state.in_hand;
    if (held) {
      if (held.origin) {
        const o = this.cells.get(key(held.origin));
        if (o) this.gMarks.append(s("circle", { cx: o.cx, cy: o.cy, r: PIECE_R, class: "ghost" }));
      }
      const [x, y] = this.pointer || this.handStart(held);
      this.hand = s("circle", { cx: x, cy: y, r: PIECE_R * 1.08, class: "piece in-hand", testid: "in-hand" });
      this.gHand.append(this.hand);
    } else {
      this.hand = null;
    }
  }

  handStart(held) {
    if (held.origin) {
      const o = this.cells.get(key(held.origin));
      if (o) return [o.cx, o.cy - SIZE * 0.5];
    }
    return centre(0, 0);
  }

  drawLog(lines) {
    const ol = $("log");
    const sig = JSON.stringify(lines);
    if (ol.dataset.sig === sig) return;
    ol.dataset.sig = sig;
    ol.replaceChildren(
      ...lines.map((l) => {
        const li = document.createElement("li");
        li.className = l.kind;
        li.textContent = l.text;
        return li;
      }),
    );
  }

  follow(e) {
    this.pointer = svgPoint(this.svg, e);
    if (this.hand) {
      this.hand.setAttribute("cx", this.pointer[0].toFixed(1));
      this.hand.setAttribute("cy", this.pointer[1].toFixed(1));
    }
  }

  /** The keyboard: Enter or Space acts on the focused cell or piece as a click; arrows move between cells. */
  key(e) {
    const el = e.target.closest("[data-cell]");
    if (!el) return;
    const [col, row] = el.dataset.cell.split(",").map(Number);
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.focusCell(col, row); // the hand, if any, hovers over it; the pieces are drawn afresh
      this.act([col, row]);
      return;
    }
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (!step || !this.layout) return;
    e.preventDefault();
    const c = Math.max(0, Math.min(this.layout.columns - 1, col + step[0]));
    const r = Math.max(0, Math.min(this.layout.rows - 1, row + step[1]));
    this.focusCell(c, r);
  }

  /** Focus a cell (the board's one tab stop moves with it); a piece in the hand hovers over it. */
  focusCell(col, row) {
    const cell = this.cells.get(`${col},${row}`);
    if (!cell) return;
    for (const other of this.cells.values()) other.poly.setAttribute("tabindex", "-1");
    cell.poly.setAttribute("tabindex", "0");
    cell.poly.focus();
    this.pointer = [cell.cx, cell.cy - SIZE * 0.5];
    if (this.hand) {
      this.hand.setAttribute("cx", this.pointer[0].toFixed(1));
      this.hand.setAttribute("cy", this.pointer[1].toFixed(1));
    }
  }

  /** The legend: each colour the last frame shows, the table's own effects first. */
  drawLegend(colours) {
    const list = $("legend");
    const effects = Object.keys(colours || {});
    const sig = JSON.stringify(colours || {});
    if (list.dataset.sig === sig) return;
    list.dataset.sig = sig;
    const ordered = [...effects.filter((e) => e in TABLE_EFFECTS), ...effects.filter((e) => !(e in TABLE_EFFECTS)).sort()];
    list.replaceChildren(...ordered.map((effect) => {
      const li = document.createElement("li");
      li.dataset.testid = `legend-${effect}`;
      li.dataset.effect = effect;
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = colours[effect];
      const label = document.createElement("span");
      const own = effect in TABLE_EFFECTS;
      const b = document.createElement("strong");
      b.textContent = own ? "Table: " : "Game: ";
      label.append(b, TABLE_EFFECTS[effect] || GAME_EFFECTS[effect] || words(effect));
      li.append(sw, label);
      return li;
    }));
    $("legend-empty").hidden = ordered.length > 0;
  }

  click(e) {
    const el = e.target.closest("[data-cell]");
    if (!el || !this.state) return;
    this.act(el.dataset.cell.split(",").map(Number), e);
  }

  /** The hands on a cell (a click, or Enter on it): stick, knock, place the piece in the hand, or lift one. */
  act(cell, e = null) {
    if (!this.state) return;
    const occupied = this.state.pieces.some(([c, r]) => c === cell[0] && r === cell[1]);
    this.say("");
    if (this.mode === "stick") {
      this.send("stick", { cell });
      this.setMode(null);
    } else if (this.mode === "knock") {
      this.send("knock", { cell });
      this.setMode(null);
    } else if (this.state.in_hand) {
      this.send("place", { cell });
    } else if (occupied) {
      if (e) this.follow(e);
      this.send("lift", { cell });
    } else {
      this.say("No piece there: click a piece to lift it, or take one from the box.");
    }
  }
}

window.iwgtSim = { state: null };
window.iwgtSim.page = new TableSim();
