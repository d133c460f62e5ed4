// Character cards (VX-15-07, VX-15-09/10, VX-15-15 to VX-15-21): name, strength bar, morale level, the flyers'
// wings, the Grima's visible/stealth symbol and quarry, the Sand Worm's surface/underground symbol and orders.

import { h, bar, icon } from "/static/dom.js";
import { traitsOf, spellInfo, isCharacterType } from "./catalogue.js";

const WORM_SURFACE_LIMIT = 3; // VX-15-19: "he will die after 3 moves on the surface"

/**
 * One card's facts: the server's card (view.cards) merged with the observation's unit, or, without server
 * cards, the unit alone (a character is represented one to one, VX-02-04).
 */
function normalise(card, unit) {
  const u = unit || {};
  const type = card ? card.type : u.type;
  const traits = traitsOf(type);
  const share = card && typeof card.share === "number" ? card.share : u.start ? u.strength / u.start : 0;
  const out = {
    id: card ? card.unit : u.id,
    type,
    name: (card && card.name) || u.name || "?",
    owner: card ? card.owner : u.owner,
    share,
    level: (card && card.level) || u.level,
    status: (card && card.status) || u.status,
    border: card ? card.border : ({ Weakened: "yellow", Critical: "orange" })[u.level] || null,
    morale: u.morale,
    bonus: u.morale_bonus,
    infected: Boolean(u.infected),
    hidden: Boolean(u.hidden),
    cell: u.cell,
    note: (card && card.note) || null, // what the Grima or the worm does by itself, and what you may do
  };
  if (card ? "flying" in card : traits.includes("flyer")) out.flying = card ? Boolean(card.flying) : Boolean(u.airborne);
  if (card ? "stealth" in card : traits.includes("stealth")) {
    out.stealth = card ? card.stealth : u.hidden ? "hidden" : "visible";
    out.quarry = card && "quarry" in card ? card.quarry : u.quarry;
  }
  if (card ? "worm" in card : traits.includes("burrower")) {
    out.worm = card ? card.worm : u.hidden ? "underground" : "surface";
    out.movesLeft = card && typeof card.surface_moves_left === "number" ? card.surface_moves_left
      : Math.max(0, WORM_SURFACE_LIMIT - (Number(u.surface_turns) || 0));
  }
  if (card ? "spells_left" in card : traits.includes("wizard")) {
    out.spellsLeft = card ? card.spells_left : u.spells_left;
    out.spells = (card && card.spells) || u.spells;
  }
  return out;
}

/**
 * The strip of cards: your characters first, then the enemy's.
 * @param {object} p
 * @param {object[]|undefined} p.cards view.cards from the server
 * @param {object[]} p.units observation units
 * @param {number} p.seat the seat this screen shows
 * @param {string[]} p.sideNames
 * @param {object[]} p.actions options.actions of the view
 * @param {number|null} p.selected
 * @param {(type: string, card: object, extra?: object) => void} p.onOrder a card button was tapped
 */
export function renderCards({ cards, units, seat, sideNames, actions, selected, onOrder }) {
  const byId = new Map(units.map((u) => [u.id, u]));
  const list = Array.isArray(cards)
    ? cards.map((c) => normalise(c, byId.get(c.unit)))
    : units.filter((u) => isCharacterType(u.type, u.start)).map((u) => normalise(null, u));
  const shown = list.filter((c) => c.status === "active");
  shown.sort((a, b) => (a.owner === seat ? 0 : 1) - (b.owner === seat ? 0 : 1) || a.id - b.id);
  if (!shown.length) return h("p", { class: "muted" }, "No characters on the table.");
  return shown.map((c) => card(c, { seat, sideNames, actions, selected, onOrder, byId }));
}

function levelClass(level) {
  const l = String(level || "").toLowerCase();
  return l === "weakened" ? "weakened" : l === "critical" ? "critical" : "";
}

function orderButton(label, testid, onclick, kind = "secondary") {
  return h("button", { type: "button", class: ["btn", "small", kind], testid, onclick }, label);
}

function card(u, { seat, sideNames, actions, selected, onOrder, byId }) {
  const mine = u.owner === seat;
  const lvl = u.border === "yellow" ? "weakened" : u.border === "orange" ? "critical" : levelClass(u.level);
  const mineActs = mine ? actions.filter((a) => a.unit === u.id) : [];
  const has = (type) => mineActs.some((a) => a.type === type);
  const body = [];

  body.push(h("div", { class: "card-head" },
    h("span", { class: "card-name" }, u.name),
    u.infected ? h("span", { class: "skull", testid: `card-skull-${u.id}`, "aria-label": "infected with the plague" }, icon("skull")) : null));
  body.push(bar(u.share, `${u.name} strength ${Math.round(u.share * 100)}%`));
  const morale = typeof u.morale === "number" ? `${Math.round(u.morale)}${u.bonus ? ` (${u.bonus > 0 ? "+" : ""}${u.bonus})` : ""}` : "";
  body.push(h("div", { class: "card-line" },
    h("span", { class: ["level", lvl] }, `Morale: ${u.level || "?"}`), h("span", { class: "muted" }, morale)));

  const symbols = h("div", { class: "card-symbols" });
  if (u.flying !== undefined) {
    symbols.append(h("span", { class: ["wings", u.flying ? "flying" : "grounded"], testid: `card-wings-${u.id}`,
      "data-state": u.flying ? "flying" : "grounded", role: "img", "aria-label": u.flying ? "flying: red wings" : "grounded: white wings" },
    icon("wings"), h("span", {}, u.flying ? "Flying" : "Grounded")));
  }
  if (u.stealth !== undefined) {
    const hidden = u.stealth === "hidden";
    const quarryActs = mineActs.filter((a) => a.type === "quarry");
    symbols.append(h("button", {
      type: "button",
      class: ["symbol", "grima-symbol", hidden ? "hidden-mode" : "visible-mode"],
      testid: `grima-symbol-${u.id}`,
      "data-state": hidden ? "hidden" : "visible",
      "aria-label": hidden ? "The Grima is hidden in stealth mode: tap to choose whom she follows" : "The Grima is visible",
      disabled: !quarryActs.length,
      onclick: () => onOrder("quarry", u, { actions: quarryActs }),
    }, icon(hidden ? "mask" : "eye"), h("span", {}, hidden ? "Stealth" : "Visible")));
    if (mine && u.quarry !== undefined && u.quarry !== null) {
      const q = byId.get(u.quarry);
      symbols.append(h("span", { class: "muted quarry", testid: `grima-quarry-${u.id}` }, `Follows ${q ? q.name : `#${u.quarry}`}`));
    }
  }
  if (u.worm !== undefined) {
    const under = u.worm === "underground";
    symbols.append(h("span", { class: ["symbol", "worm-symbol", under ? "underground" : "surface"], testid: `worm-symbol-${u.id}`,
      "data-state": under ? "underground" : "surface", role: "img", "aria-label": under ? "underground" : "on the surface" },
    icon(under ? "ground" : "worm"), h("span", {}, under ? "Underground" : "Surface")));
  }
  if (symbols.childNodes.length) body.push(symbols);
  if (u.note) body.push(h("p", { class: "card-note", testid: `card-note-${u.id}` }, u.note));
  if (u.worm === "surface") {
    body.push(h("div", { class: ["sunstroke", u.movesLeft <= 1 && "danger"], testid: `worm-sun-${u.id}` },
      icon("sun"), `Moves left on the surface: ${u.movesLeft}. His skin burns: he dies after ${WORM_SURFACE_LIMIT} moves in the sun.`));
  }
  if (u.spellsLeft !== undefined) {
    const held = Array.isArray(u.spells) ? u.spells.map((id) => spellInfo(id).name).join(", ") : null;
    body.push(h("div", { class: "card-line spells-line" },
      h("span", {}, `Spells left: ${u.spellsLeft ?? "?"}`), held ? h("span", { class: "muted" }, held) : null));
  }

  const orders = h("div", { class: "card-orders" });
  const worm = u.worm !== undefined;
  if (has("conceal")) orders.append(orderButton(worm ? "Burrow" : "Conceal", `${worm ? "worm" : "grima"}-conceal-${u.id}`, () => onOrder("conceal", u)));
  if (has("reveal")) orders.append(orderButton("Reveal", `grima-reveal-${u.id}`, () => onOrder("reveal", u)));
  if (has("surface")) orders.append(orderButton("Surface…", `worm-surface-${u.id}`, () => onOrder("surface", u), "primary"));
  if (has("tunnel")) orders.append(orderButton("Tunnel…", `worm-tunnel-${u.id}`, () => onOrder("tunnel", u)));
  if (orders.childNodes.length) body.push(orders);

  return h("article", {
    class: ["card", `side-${u.owner}`, lvl && `card-${lvl}`, selected === u.id && "selected", u.hidden && "ghost"],
    testid: `card-${u.id}`,
    "data-level": lvl || "standard",
    "data-border": u.border || "",
    "aria-label": `${u.name}, ${sideNames[u.owner] || ""}`,
  }, ...body, h("button", { type: "button", class: "card-tap", testid: `card-show-${u.id}`, "aria-label": `Show ${u.name} on the table`,
    onclick: () => onOrder("focus", u) }, h("span", { class: "side-chip" }, `${sideNames[u.owner] || `Seat ${u.owner}`}${mine ? " · yours" : ""}`)));
}
