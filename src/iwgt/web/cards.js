// Character cards (VX-15-07, VX-15-09/10, VX-15-15 to VX-15-21): name, strength bar, morale level, the flyers'
// wings, the Grima's visible/stealth symbol and quarry, the Sand Worm's surface/underground symbol and orders.

import { h, bar, icon } from "./dom.js";
import { traitsOf, spellInfo } from "./api.js";

const WORM_SURFACE_LIMIT = 3; // VX-15-19: "he will die after 3 moves on the surface"

/** A character is represented one to one (VX-02-04): one body at the start. */
export const isCharacter = (u) => Number(u.start) === 1;

const levelClass = (level) => {
  const l = String(level || "").toLowerCase();
  return l === "weakened" ? "weakened" : l === "critical" ? "critical" : "";
};

/**
 * The strip of cards.
 * @param {object} p
 * @param {object[]} p.units observation units
 * @param {number} p.seat the seat this screen shows
 * @param {string[]} p.sideNames
 * @param {object[]} p.actions options.actions of the view
 * @param {number|null} p.selected
 * @param {(type: string, unit: object, extra?: object) => void} p.onOrder a card button was tapped
 */
export function renderCards({ units, seat, sideNames, actions, selected, onOrder }) {
  const shown = units.filter((u) => isCharacter(u) && u.status === "active" && (u.owner === seat || u.cell));
  shown.sort((a, b) => (a.owner === seat ? 0 : 1) - (b.owner === seat ? 0 : 1) || a.id - b.id);
  if (!shown.length) return h("p", { class: "muted" }, "No characters on the table.");
  return shown.map((u) => card(u, { seat, sideNames, actions, selected, onOrder }));
}

function orderButton(label, testid, onclick, kind = "secondary") {
  return h("button", { type: "button", class: ["btn", "small", kind], testid, onclick }, label);
}

function card(u, { seat, sideNames, actions, selected, onOrder }) {
  const mine = u.owner === seat;
  const traits = traitsOf(u.type);
  const frac = u.start ? u.strength / u.start : 0;
  const lvl = levelClass(u.level);
  const mineActs = actions.filter((a) => a.unit === u.id);
  const has = (type) => mineActs.some((a) => a.type === type);
  const body = [];

  const head = h("div", { class: "card-head" },
    h("span", { class: "card-name" }, u.name),
    u.infected ? h("span", { class: "skull", title: "Infected with the plague", "aria-label": "infected with the plague" }, icon("skull")) : null);
  body.push(head);
  body.push(bar(frac, `${u.name} strength ${Math.round(frac * 100)}%`));
  body.push(h("div", { class: "card-line" },
    h("span", { class: ["level", lvl] }, `Morale: ${u.level || "?"}`),
    h("span", { class: "muted" }, `${Math.round(Number(u.morale) || 0)}${u.morale_bonus ? ` (${u.morale_bonus > 0 ? "+" : ""}${u.morale_bonus})` : ""}`)));

  const symbols = h("div", { class: "card-symbols" });
  if (traits.includes("flyer")) {
    const flying = Boolean(u.airborne);
    symbols.append(h("span", { class: ["wings", flying ? "flying" : "grounded"], testid: `card-wings-${u.id}`,
      "data-state": flying ? "flying" : "grounded", role: "img", "aria-label": flying ? "flying" : "grounded" },
    icon("wings"), h("span", {}, flying ? "Flying" : "Grounded")));
  }
  if (traits.includes("stealth")) {
    const hidden = Boolean(u.hidden);
    const quarryActs = mine ? mineActs.filter((a) => a.type === "quarry") : [];
    const sym = h("button", {
      type: "button",
      class: ["symbol", "grima-symbol", hidden ? "hidden-mode" : "visible-mode"],
      testid: `grima-symbol-${u.id}`,
      "data-state": hidden ? "hidden" : "visible",
      "aria-label": hidden ? "The Grima is hidden (stealth): tap to choose her quarry" : "The Grima is visible",
      disabled: !(mine && quarryActs.length),
      onclick: () => onOrder("quarry", u, { actions: quarryActs }),
    }, icon(hidden ? "mask" : "eye"), h("span", {}, hidden ? "Stealth" : "Visible"));
    symbols.append(sym);
    if (mine && u.quarry !== undefined && u.quarry !== null) {
      symbols.append(h("span", { class: "muted quarry", testid: `grima-quarry-${u.id}` }, `Hunting #${u.quarry}`));
    }
  }
  if (traits.includes("burrower")) {
    const under = Boolean(u.hidden);
    const turns = Number(u.surface_turns) || 0;
    const left = Math.max(0, WORM_SURFACE_LIMIT - turns);
    symbols.append(h("span", { class: ["symbol", "worm-symbol", under ? "underground" : "surface"], testid: `worm-symbol-${u.id}`,
      "data-state": under ? "underground" : "surface", role: "img", "aria-label": under ? "underground" : "on the surface" },
    icon(under ? "ground" : "worm"), h("span", {}, under ? "Underground" : "Surface")));
    if (!under) {
      body.push(h("div", { class: ["sunstroke", left <= 1 && "danger"], testid: `worm-sun-${u.id}` },
        icon("sun"), `Moves left on the surface: ${left}. His skin burns: he dies after ${WORM_SURFACE_LIMIT} moves in the sun.`));
    }
  }
  if (traits.includes("wizard") || u.spells_left !== undefined) {
    const held = Array.isArray(u.spells) ? u.spells.map((id) => spellInfo(id).name).join(", ") : null;
    body.push(h("div", { class: "card-line spells-line" },
      h("span", {}, `Spells left: ${u.spells_left ?? "?"}`),
      held ? h("span", { class: "muted" }, held) : null));
  }
  if (symbols.childNodes.length) body.push(symbols);

  const orders = h("div", { class: "card-orders" });
  if (mine) {
    const stealth = traits.includes("stealth");
    const worm = traits.includes("burrower");
    if (has("conceal")) orders.append(orderButton(worm ? "Burrow" : "Conceal", `${worm ? "worm" : "grima"}-conceal-${u.id}`, () => onOrder("conceal", u)));
    if (has("reveal") && stealth) orders.append(orderButton("Reveal", `grima-reveal-${u.id}`, () => onOrder("reveal", u)));
    if (has("surface")) orders.append(orderButton("Surface…", `worm-surface-${u.id}`, () => onOrder("surface", u), "primary"));
    if (has("tunnel")) orders.append(orderButton("Tunnel…", `worm-tunnel-${u.id}`, () => onOrder("tunnel", u)));
  }
  if (orders.childNodes.length) body.push(orders);

  return h("article", {
    class: ["card", `side-${u.owner}`, lvl && `card-${lvl}`, selected === u.id && "selected", u.hidden && "ghost"],
    testid: `card-${u.id}`,
    "data-level": lvl || "standard",
    "aria-label": `${u.name}, ${sideNames[u.owner] || ""}`,
    tabindex: "0",
  }, ...body, h("button", { type: "button", class: "card-tap", "aria-label": `Show ${u.name} on the table`,
    onclick: () => onOrder("focus", u) }, h("span", { class: "side-chip" }, sideNames[u.owner] || `Seat ${u.owner}`)));
}
