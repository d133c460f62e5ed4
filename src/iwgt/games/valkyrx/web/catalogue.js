// The Days of the Valkyrx catalogue as the screen reads it: spells, the wizards' default packs and each unit
// type's traits, from the server's GET /api/games/valkyrx/data (asked once per page).

import { gameCatalogue, humanise } from "/static/api.js";

let data = null; // {spells: [...], packs: {wizard: [...]}, traits: {type: [...]}, characters: Set}

/** The traits a unit type's counter and card show, from the server's unit flags. */
function traitsFromUnit(u) {
  const out = [];
  if (u.flyer) out.push("flyer");
  if (u.wizard) out.push("wizard");
  if (u.master) out.push("master_wizard");
  if (u.stealth) out.push("stealth");
  if (u.burrower) out.push("burrower");
  return out;
}

/** Load the catalogue (once); resolves to it, or to an empty one if the server offers none. */
export async function loadCatalogue() {
  if (data) return data;
  try {
    const raw = await gameCatalogue("valkyrx");
    const traits = {};
    const characters = new Set();
    for (const [id, u] of Object.entries((raw && raw.units) || {})) {
      traits[id] = traitsFromUnit(u);
      if (u.character) characters.add(id);
    }
    data = { spells: (raw && raw.spells) || [], packs: (raw && raw.packs) || {}, traits, characters };
    return data;
  } catch {
    return { spells: [], packs: {}, traits: {}, characters: null };
  }
}

/** A spell's card: its name, whether it is red, its range, duration and effect. */
export function spellInfo(id) {
  const list = (data && data.spells) || [];
  return list.find((sp) => sp.id === id) || { id, name: humanise(id), red: false, effect: "" };
}

/** A unit type's traits: "flyer", "wizard", "master_wizard", "stealth", "burrower". */
export function traitsOf(type) {
  return (data && data.traits[type]) || [];
}

/** Whether a unit type is a character (one body), by the server's data or by its starting strength. */
export function isCharacterType(type, start) {
  if (data && data.characters) return data.characters.has(type);
  return Number(start) === 1;
}
