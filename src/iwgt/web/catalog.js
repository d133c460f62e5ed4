// Fallback catalogue of Days of the Valkyrx spells and unit traits, generated once from
// src/iwgt/games/valkyrx/data/{spells,units}.toml. The page prefers GET /api/games/valkyrx/data; the traits the server's data
// does not give (wizard, master_wizard, stealth, burrower) come from here.

export const SPELLS = [
  {"id": "sleep", "name": "Sleep", "red": true, "range": 5, "duration": 1, "affects": "enemy", "effect": "Enemies in range fall asleep: those in contact are slaughtered, the rest do not fight this turn."},
  {"id": "fear", "name": "Fear", "red": false, "range": 5, "duration": 2, "affects": "enemy", "effect": "Enemies in range lose 10 morale for two turns (Elves fear nothing)."},
  {"id": "command", "name": "Command", "red": true, "range": 5, "duration": 3, "affects": "enemy", "effect": "Enemies in range fight for the caster in the three following turns; commanded by both sides, they revert."},
  {"id": "fire", "name": "Fire", "red": false, "range": 5, "duration": 1, "affects": "enemy", "effect": "A wall of flame: 10,000/defence casualties to each enemy in range; Wickermen destroyed; undead hit in full."},
  {"id": "strength", "name": "Strength", "red": false, "range": 5, "duration": 2, "affects": "friend", "effect": "Friends in range (caster too) strike and defend at +50% for two turns."},
  {"id": "resurrection", "name": "Resurrection", "red": true, "range": 5, "duration": 1, "affects": "friend", "effect": "Friends in range restored to their starting complement, less casualties the undead inflicted; not the undead."},
  {"id": "transportation", "name": "Transportation", "red": false, "range": 1, "duration": 3, "affects": "cell", "effect": "A lit portal beside the wizard for three turns: up to three friendly units that enter it are sent anywhere."},
  {"id": "earthquake", "name": "Earthquake", "red": false, "range": 5, "duration": 1, "affects": "all", "effect": "Friend and foe in range: 5,000/defence casualties, and a 1 on a d10 wipes a unit out."},
  {"id": "disharmony", "name": "Disharmony", "red": false, "range": 5, "duration": 1, "affects": "enemy", "effect": "Enemy units in range turn on themselves this combat round, fighting as two halves."},
  {"id": "shield", "name": "Shield", "red": false, "range": "local", "duration": 3, "affects": "self", "effect": "A bubble keeps the wizard from all harm (Armageddon aside) for three turns or until he casts again."},
  {"id": "weakness", "name": "Weakness", "red": false, "range": 5, "duration": 2, "affects": "enemy", "effect": "Enemies in range strike and defend at -50% for two turns."},
  {"id": "ice", "name": "Ice", "red": false, "range": 5, "duration": 1, "affects": "enemy", "effect": "A wall of icy cold: 10,000/defence casualties to each enemy in range; after fire, Stone Titans crack."},
  {"id": "plague", "name": "Plague", "red": true, "range": 5, "duration": 1, "affects": "one", "effect": "One unit in range, friend or foe, secretly becomes a plague carrier; all it touches sicken and die."},
  {"id": "cure_plague", "name": "Cure Plague", "red": false, "range": 5, "duration": 1, "affects": "infected", "effect": "Every infected unit in range is cured; losses already taken stay."},
  {"id": "deny_magic", "name": "Deny Magic", "red": false, "range": 10, "duration": 1, "affects": "wizard", "effect": "Ends the spell of an enemy wizard within 10 cells; what he casts later this turn fizzles."},
  {"id": "dismiss_dead", "name": "Dismiss Dead/Wraiths", "red": false, "range": 5, "duration": 1, "affects": "enemy", "effect": "Enemy undead and wraiths in range are removed from the battlefield."},
  {"id": "armageddon", "name": "Armageddon", "red": true, "range": "all", "duration": 2, "affects": "everything", "effect": "Next turn, a 1 on a d4 destroys everything on the battlefield, the caster too: a drawn game. Deny Magic stops it."},
  {"id": "creeping_death", "name": "Creeping Death", "red": true, "range": 5, "duration": 3, "affects": "cell", "effect": "Lava beside the nearest enemy spreads to 7 then 19 cells; units left in it die (Fire Dragons excepted)."},
  {"id": "lead_boots", "name": "Lead Boots", "red": false, "range": 5, "duration": 3, "affects": "enemy", "effect": "Enemies in range cannot move for three turns and fight at 50%."},
  {"id": "speed", "name": "Speed", "red": false, "range": 5, "duration": 3, "affects": "friend", "effect": "Friends in range (caster too) move at double speed in the three turns after the casting."},
  {"id": "courage", "name": "Courage", "red": false, "range": 5, "duration": 3, "affects": "friend", "effect": "Friends in range (caster too) gain 10 morale for three turns."},
];

// VX-15-05: the default pack of each wizard.
export const PACKS = {
  wulfgeldre: ["fire", "strength", "resurrection", "command", "deny_magic", "shield"],
  circan: ["ice", "courage", "speed", "cure_plague", "deny_magic", "transportation"],
  waerloga: ["sleep", "plague", "creeping_death", "weakness", "fear", "deny_magic"],
  ellorgast: ["fear", "weakness", "lead_boots", "disharmony", "earthquake", "shield"],
  lefan: ["fire", "ice", "strength", "speed", "courage", "deny_magic"],
};

// Unit types with a trait the touchscreen shows (wings, spells, stealth, burrowing).
export const TRAITS = {
  astigend: ["flyer"],
  vertigron: ["flyer"],
  ekglide: ["flyer"],
  wulfgeldre: ["wizard", "master_wizard"],
  circan: ["wizard"],
  grima: ["stealth"],
  mangere: ["flyer"],
  waerloga: ["wizard", "master_wizard"],
  ellorgast: ["wizard"],
  lefan: ["wizard"],
  sand_worm: ["burrower"],
  harpies: ["flyer"],
};
