// The dialogs of Days of the Valkyrx (rules section 15): wizards' spells at deployment, the spell-casting flow,
// the health-bar report (after each combat round, and in Game Over with the plague's story) and late troops.
// The shared ones (physical dice, Options, Quit, Game Over, the pass-and-play cover) are the shell's.

import { h, bar, icon } from "/static/dom.js";
import { modal } from "/static/ui.js";
import { loadCatalogue, spellInfo, traitsOf } from "./catalogue.js";

const SPELLS_PER_WIZARD = 6; // VX-11-08, decided: exactly six different spells

/**
 * VX-15-05/06: "Default pack" or "Custom spells" for one wizard. Resolves to the spell list to send
 * ([] = default pack).
 */
export async function chooseWizardSpells(wizard) {
  const cat = await loadCatalogue();
  const master = traitsOf(wizard.type).includes("master_wizard");
  const pack = (cat.packs && cat.packs[wizard.type]) || [];
  const first = modal({
    title: `${wizard.name}: his spells`,
    testid: "spells-dialog",
    body: [
      h("p", {}, "Arm your wizard with the default pack of spells, or choose six spells yourself."),
      pack.length ? h("p", { class: "muted" }, `Default pack: ${pack.map((id) => spellInfo(id).name).join(", ")}`) : null,
    ],
    buttons: [
      { label: "Default pack", value: "default", kind: "primary", testid: "spells-default" },
      { label: "Custom spells", value: "custom", kind: "secondary", testid: "spells-custom" },
    ],
  });
  const how = await first.done;
  if (how !== "custom") return [];

  const chosen = new Set();
  const count = h("span", { class: "spell-count", testid: "spells-count" }, `0 of ${SPELLS_PER_WIZARD}`);
  const grid = h("div", { class: "spell-grid", role: "group", "aria-label": "Spells" });
  let confirm;
  const draw = () => {
    grid.replaceChildren(...cat.spells.map((sp) => {
      const on = chosen.has(sp.id);
      const barred = sp.red && !master;
      return h("button", {
        type: "button",
        class: ["spell", on && "chosen", sp.red && "red"],
        testid: `spell-${sp.id}`,
        "aria-pressed": on ? "true" : "false",
        disabled: barred || (!on && chosen.size >= SPELLS_PER_WIZARD),
        title: barred ? "Red spells are for Master wizards only" : sp.effect,
        onclick: () => {
          if (on) chosen.delete(sp.id); else chosen.add(sp.id);
          draw();
        },
      },
      h("span", { class: "spell-name" }, sp.name),
      sp.red ? h("span", { class: "red-mark" }, barred ? "Red · Masters only" : "Red") : null,
      h("span", { class: "spell-effect" }, sp.effect || ""),
      h("span", { class: "spell-meta" }, `range ${sp.range}, ${sp.duration} turn${sp.duration === 1 ? "" : "s"}`));
    }));
    count.textContent = `${chosen.size} of ${SPELLS_PER_WIZARD}`;
    if (confirm) confirm.disabled = chosen.size !== SPELLS_PER_WIZARD;
  };
  const dlg = modal({
    title: `${wizard.name}: choose ${SPELLS_PER_WIZARD} spells`,
    testid: "spells-custom-dialog",
    wide: true,
    body: [
      h("p", {}, master ? "A Master wizard may hold red spells." : "A lesser wizard may not hold red spells.", " ", count),
      grid,
    ],
    buttons: [
      { label: "Default pack instead", value: "default", testid: "spells-default" },
      { label: "Confirm spells", value: "ok", kind: "primary", testid: "spells-confirm" },
    ],
  });
  confirm = dlg.el.querySelector('[data-testid="spells-confirm"]');
  draw();
  const v = await dlg.done;
  return v === "ok" ? [...chosen] : [];
}

/**
 * VX-15-11 to 15-13: choose the wizard, then one of his spells. Resolves to {wizard, spell, actions} or null.
 * @param {object[]} casts the cast actions of the view
 * @param {Map<number, object>} units by id
 */
export async function chooseCast(casts, units) {
  const wizards = [...new Set(casts.map((a) => a.unit))];
  let wizard = wizards[0];
  if (wizards.length > 1) {
    wizard = await modal({
      title: "Which wizard will cast?",
      testid: "wizard-dialog",
      dismissable: true,
      transient: true,
      buttons: [
        ...wizards.map((id) => ({ label: (units.get(id) || { name: `#${id}` }).name, value: id, kind: "primary", testid: `wizard-${id}` })),
        { label: "Cancel", value: undefined, testid: "wizard-cancel" },
      ],
    }).done;
    if (wizard === undefined) return null;
  }
  const mine = casts.filter((a) => a.unit === wizard);
  const spellIds = [...new Set(mine.map((a) => a.spell))];
  const w = units.get(wizard) || { name: `#${wizard}` };
  const dlg = modal({
    title: `${w.name}: which spell?`,
    testid: "cast-spell-dialog",
    dismissable: true,
    transient: true,
    wide: true,
    buttons: [{ label: "Cancel", value: undefined, testid: "cast-spell-cancel" }],
  });
  dlg.body.append(h("div", { class: "spell-grid" }, spellIds.map((id) => {
    const sp = spellInfo(id);
    return h("button", { type: "button", class: ["spell", "castable", sp.red && "red"], testid: `spell-${id}`,
      onclick: () => dlg.close(id) },
    h("span", { class: "spell-name" }, sp.name),
    sp.red ? h("span", { class: "red-mark" }, "Red") : null,
    h("span", { class: "spell-effect" }, sp.effect || ""),
    sp.range !== undefined ? h("span", { class: "spell-meta" }, `range ${sp.range}, ${sp.duration} turn${sp.duration === 1 ? "" : "s"}`) : null);
  })));
  const spell = await dlg.done;
  if (spell === undefined) return null;
  return { wizard, spell, actions: mine.filter((a) => a.spell === spell) };
}

/** VX-15-13: confirm the spell. Resolves true to cast. */
export function confirmCast(wizardName, spellId, target) {
  const sp = spellInfo(spellId);
  return modal({
    title: "Confirm the spell",
    testid: "cast-confirm-dialog",
    transient: true,
    body: [
      h("p", { class: "big-text" }, `${wizardName} casts ${sp.name}`, target ? ` at [${target[0]}, ${target[1]}]` : "", "?"),
      sp.effect ? h("p", { class: "muted" }, sp.effect) : null,
    ],
    buttons: [
      { label: "Back", value: false, testid: "cast-cancel" },
      { label: `Cast ${sp.name}`, value: true, kind: "primary", testid: "cast-confirm" },
    ],
  }).done.then((v) => v === true);
}

/** One row of the health-bar report. */
function reportRow(line) {
  const frac = line.start ? line.strength / line.start : 0;
  const lvl = String(line.level || "").toLowerCase();
  const gone = ["destroyed", "fled", "left"].includes(line.status);
  return h("tr", { class: ["report-row", gone && "gone"], testid: `report-unit-${line.unit}` },
    h("th", { scope: "row" }, line.infected ? h("span", { class: "skull", "aria-label": "infected" }, icon("skull")) : null, line.name),
    h("td", { class: "bar-cell" }, bar(frac, `${line.name} ${Math.round(frac * 100)}%`)),
    h("td", { class: "num" }, line.start > 1 ? `${fmt(line.strength)} / ${fmt(line.start)}` : pct(frac)),
    h("td", { class: "num" }, line.casualties === null || line.casualties === undefined ? "–"
      : line.casualties > 0 ? `−${line.start > 1 ? fmt(line.casualties) : pct(line.casualties / (line.start || 1))}` : "0"),
    h("td", { class: ["level", lvl] }, gone || line.status === "reserve" ? line.status : `${line.level || ""}${line.status === "routed" || line.routed ? " (routed)" : ""}`));
}

/** Men in whole men (a unit fights in whole men, not 7.3 of them); "<1" for a sliver; never "−0". */
function fmt(n) {
  const v = Math.abs(Number(n) || 0);
  return Math.round(v) === 0 && v > 0 ? "<1" : String(Math.round(v));
}

/** A share as a whole percentage; "<1%" for a sliver. */
function pct(share) {
  const v = Math.abs(Number(share) || 0);
  return Math.round(v * 100) === 0 && v > 0 ? "<1%" : `${Math.round(v * 100)}%`;
}

/** Rows of a report: view.report.units, or, at the end of the game, the observation's units. */
export function reportLines(report, units) {
  if (report && Array.isArray(report.units)) return report.units;
  if (report && Array.isArray(report.lines)) return report.lines;
  return (units || []).map((u) => ({ unit: u.id, name: u.name, seat: u.owner, strength: u.strength, start: u.start,
    casualties: null, level: u.level, status: u.status, infected: u.infected }));
}

const seatOf = (line) => {
  if (typeof line.seat === "number") return line.seat;
  if (typeof line.owner === "number") return line.owner;
  return String(line.side || "").toLowerCase() === "darkness" ? 1 : 0;
};

/** The health bars of both armies (the report's armies, else each unit's share averaged), then per-unit rows. */
export function reportBody(lines, names, armies) {
  const sides = names.map((name, i) => {
    const rows = lines.filter((l) => seatOf(l) === i);
    const army = Array.isArray(armies) ? armies.find((a) => a.seat === i) : null;
    let frac;
    if (army && typeof army.share === "number") frac = army.share;
    else {
      const total = rows.reduce((t, l) => t + (Number(l.strength) || 0) / (Number(l.start) || 1), 0);
      frac = rows.length ? total / rows.length : 0;
    }
    const lost = army && typeof army.lost_this_turn === "number" && army.lost_this_turn > 0
      ? ` · lost ${pct(army.lost_this_turn)} this turn` : "";
    return { name: (army && army.name) || name, rows, frac, lost };
  });
  return [
    h("div", { class: "army-bars" }, sides.map((sd, i) => h("div", { class: ["army", `side-${i}`], testid: `report-army-${i}` },
      h("strong", {}, sd.name), bar(sd.frac, `${sd.name} ${Math.round(sd.frac * 100)}%`, "army-bar"),
      h("span", { class: "muted" }, `${Math.round(sd.frac * 100)}% of its starting strength${sd.lost}`)))),
    ...sides.map((sd, i) => h("table", { class: ["report-table", `side-${i}`] },
      h("caption", {}, sd.name),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Unit"), h("th", { scope: "col" }, "Strength"),
        h("th", { scope: "col" }, "Left"), h("th", { scope: "col", title: "Everything lost this turn: combat, shooting, spells, the Sand Worm, the plague, quicksand" }, "Lost this turn"),
        h("th", { scope: "col" }, "Morale"))),
      h("tbody", {}, sd.rows.map(reportRow)))),
  ];
}

export function showReport(report, names) {
  const turn = report && report.turn !== undefined ? ` after turn ${report.turn}` : "";
  return modal({
    title: `Health bars${turn}`,
    testid: "report-modal",
    wide: true,
    body: reportBody(reportLines(report), names, report && report.armies),
    buttons: [{ label: "OK", value: true, kind: "primary huge", testid: "report-ok" }],
  }).done;
}

/** Late reinforcements: which waiting unit joins. Resolves a unit id or undefined. */
export function chooseTroops(unitIds, units) {
  return modal({
    title: "Add troops",
    testid: "add-troops-dialog",
    dismissable: true,
    transient: true,
    body: h("p", {}, "Tap a waiting unit, then a lit entry cell on the table."),
    buttons: [
      ...unitIds.map((id) => ({ label: (units.get(id) || { name: `#${id}` }).name, value: id, kind: "primary", testid: `add-unit-${id}` })),
      { label: "Cancel", value: undefined, testid: "add-troops-cancel" },
    ],
  }).done;
}

/**
 * Game Over's own part (VX-15-26): the final health bars and the plague's story (the shell shows the winner).
 * @param {{names: string[], units: object[], report: object|null, plague: object[]|null}} p
 */
export function finalReport({ names, units, report, plague }) {
  const byId = new Map((units || []).map((u) => [u.id, u]));
  const nameOf = (id) => (byId.get(id) || { name: `#${id}` }).name;
  const body = [...reportBody(reportLines(report, units), names, report && report.armies)];
  if (Array.isArray(plague) && plague.length) {
    body.push(h("section", { class: "plague", testid: "plague-chain" }, h("h3", {}, "The plague"),
      h("ol", {}, plague.map((p, i) => h("li", {},
        i === 0 && (p.source === p.unit || p.source === null)
          ? `Turn ${p.turn}: ${nameOf(p.unit)} first carried it${p.by_spell ? " (by the spell)" : ""}.`
          : `Turn ${p.turn}: ${nameOf(p.unit)} caught it from ${nameOf(p.source)}${p.by_spell ? " (by the spell)" : ""}.`)))));
  }
  if (report && report.turn !== undefined) body.push(h("p", { class: "muted" }, `Last combat report: turn ${report.turn}.`));
  return body;
}
