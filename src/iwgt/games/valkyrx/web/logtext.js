// Words for the game log: each logged step (view.log: {version, actor, action, events}) as short sentences.

import { humanise } from "/static/api.js";
import { spellInfo } from "./catalogue.js";

const cellText = (c) => (Array.isArray(c) ? `[${c[0]}, ${c[1]}]` : "?");
const n1 = (x) => {
  const v = Number(x) || 0;
  return Math.abs(v) >= 10 ? String(Math.round(v)) : v.toFixed(1).replace(/\.0$/, "");
};

/**
 * Sentences for one step of the log.
 * @param {object|string} step a log entry
 * @param {(id: number) => string} name a unit's name
 * @param {string[]} sides the seats' names
 */
export function describeStep(step, name, sides) {
  if (typeof step === "string") return [step];
  if (!step || typeof step !== "object") return [];
  const out = [];
  const who = step.actor === -1 ? "The dice" : sides[step.actor] || "";
  const a = step.action;
  if (a && typeof a === "object") {
    const text = describeAction(a, name);
    if (text) out.push(`${who}: ${text}`);
  }
  for (const e of step.events || []) {
    const text = describeEvent(e, name, sides);
    if (text) out.push(text);
  }
  return out;
}

function describeAction(a, name) {
  switch (a.type) {
    case "place": return `places ${name(a.unit)} at ${cellText(a.to)}`;
    case "confirm": return "confirms the deployment";
    case "move": return `moves ${name(a.unit)} to ${cellText(a.to)}${a.charge ? " (charge)" : ""}${a.airborne ? " (flying)" : ""}${a.pray ? " to pray" : ""}`;
    case "end_phase": return "ends the phase";
    case "spells": return `arms ${name(a.unit)}${Array.isArray(a.spells) && !a.spells.length ? " with the default pack" : ""}`;
    case "cast": return `${name(a.unit)} casts ${spellInfo(a.spell).name}${a.target ? ` at ${cellText(a.target)}` : ""}`;
    case "transport": return `sends ${name(a.unit)} through the portal to ${cellText(a.to)}`;
    case "conceal": return `${name(a.unit)} goes into hiding`;
    case "reveal": return `${name(a.unit)} comes into sight`;
    case "quarry": return `${name(a.unit)} chooses her quarry`;
    case "tunnel": return `${name(a.unit)} tunnels`;
    case "surface": return `${name(a.unit)} surfaces`;
    case "secret_order": return "gives a secret order";
    case "add_troops": return `brings ${name(a.unit)} onto the table at ${cellText(a.to)}`;
    default: return a.type ? humanise(a.type) : "";
  }
}

function describeEvent(e, name, sides) {
  switch (e.event) {
    case "FirstMoverChosen": return `Turn ${e.turn}: ${sides[e.seat] || "?"} move first.`;
    case "MovementPhaseStarted": return `${sides[e.seat] || "?"}: movement phase.`;
    case "DeploymentConfirmed": return `${sides[e.seat] || "?"} have deployed.`;
    case "ContactMade": return `Contact: ${name(e.a)} and ${name(e.b)}${e.deferred ? " (they fight from next turn)" : ""}.`;
    case "AttackResolved": return `${name(e.attacker)} ${e.mode === "missile" ? "shoots at" : "fights"} ${name(e.target)}: ${n1(e.casualties)} casualties.`;
    case "CloseCombatOutcome": return `${name(e.winner)} wins the combat against ${name(e.loser)}.`;
    case "UnitRouted": return `${name(e.unit)} routs!`;
    case "UnitRallied": return `${name(e.unit)} rallies.`;
    case "UnitRemoved": return `${name(e.unit)} ${e.why || "is removed"}.`;
    case "SpellCast": return `${name(e.unit)} is casting ${e.name || spellInfo(e.spell).name}.`;
    case "SpellFizzled": return `${name(e.unit)}'s ${spellInfo(e.spell).name} comes to nothing: ${e.why}.`;
    case "SpellResisted": return `${name(e.unit)} resists ${spellInfo(e.spell).name}.`;
    case "SpellCasualties": return `${name(e.unit)} loses ${n1(e.casualties)} to ${spellInfo(e.spell).name}.`;
    case "SpellEnded": return `${spellInfo(e.spell).name} of ${name(e.caster)} ends.`;
    case "UnitRestored": return `${name(e.unit)} restored by ${n1(e.restored)}.`;
    case "UnitTransported": return `${name(e.unit)} passes through the portal to ${cellText(e.to)}.`;
    case "LavaSpread": return "The lava spreads.";
    case "ArmageddonRolled": return `Armageddon by ${name(e.caster)}: ${e.works ? "the gods deliver it" : "the gods will not"}.`;
    case "UnitInfected": return `${name(e.unit)} catches the plague.`;
    case "PlagueLosses": return `${name(e.unit)} loses ${n1(e.casualties)} to the plague.`;
    case "PlagueCured": return `${name(e.unit)} is cured of the plague.`;
    case "TitanCracked": return `${name(e.unit)} cracks under fire and ice.`;
    case "UnitConcealed": return `${name(e.unit)} vanishes from sight.`;
    case "UnitRevealed": return `${name(e.unit)} appears at ${cellText(e.cell)}.`;
    case "QuarryChosen": return `${name(e.unit)} now follows ${name(e.target)}.`;
    case "HiddenMove": return `${name(e.unit)} moves unseen to ${cellText(e.to)}.`;
    case "GrimaStruck": return `${name(e.unit)} strikes at ${name(e.quarry)}${e.success ? " and kills" : " and fails"}.`;
    case "WormSurfaced": return `${name(e.unit)} breaks the surface at ${cellText(e.cell)}${e.victim !== null && e.victim !== undefined ? `, swallowing ${n1(e.swallowed)} of ${name(e.victim)}` : ""}.`;
    case "TemplePrayer": return `${name(e.unit)} prays at the Temple: ${e.success ? `the gods answer until turn ${e.until}` : "thrown into the void"}.`;
    case "TrollDevoured": return `${name(e.troll)} devours ${n1(e.casualties)} of ${name(e.victim)}.`;
    case "TerrainCasualties": return `${name(e.unit)} loses ${n1(e.casualties)} in the ${e.feature}.`;
    case "DeadRaised": return `${n1(e.raised)} of the slain rise to march with ${name(e.unit)}.`;
    case "TroopsArrived": return `${name(e.unit)} join the battle.`;
    case "CombatReport": return `Combat report of turn ${e.turn}.`;
    case "GameOver": return `Game over: ${e.winner === null || e.winner === undefined ? "a draw" : `${sides[e.winner]} win`} (${e.reason}).`;
    default: return "";
  }
}
