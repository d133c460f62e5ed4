// The HTTP API of docs/protocol.md (lobby, tables, records) and the catalogue look-ups, with readable errors.

import * as fallback from "./catalog.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", "The table's server cannot be reached.");
  }
  if (res.status === 204) return null;
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text };
    }
  }
  if (!res.ok) throw new ApiError(res.status, data && data.error, data && data.message);
  return data;
}

export const listGames = () => request("GET", "/api/games");
export const listTables = () => request("GET", "/api/tables");
export const getTable = (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`);
export const createTable = (body) => request("POST", "/api/tables", body);
export const deleteTable = (id) => request("DELETE", `/api/tables/${encodeURIComponent(id)}`);
export const importRecord = (text) => request("POST", "/api/tables/import", text);

/** The record JSON text of a table (lobby, or a seat's token once the game is over). */
export async function exportRecord(id, token) {
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  const res = await fetch(`/api/tables/${encodeURIComponent(id)}/record${q}`, { headers: { Accept: "application/json" } });
  if (!res.ok) {
    let msg = `HTTP ${res.status}`;
    try {
      const d = await res.json();
      msg = d.message || d.error || msg;
    } catch { /* not JSON */ }
    throw new ApiError(res.status, "export", msg);
  }
  return res.text();
}

let catalogue = null;

/**
 * Spells, default packs and unit traits of Days of the Valkyrx: from GET /api/games/valkyrx/data, completed
 * by the page's generated copy (the server's data does not name wizards, Masters, the Grima or the worm).
 */
export async function valkyrxCatalogue() {
  if (catalogue) return catalogue;
  const traits = {};
  for (const [id, list] of Object.entries(fallback.TRAITS)) traits[id] = [...list];
  catalogue = { spells: fallback.SPELLS, packs: fallback.PACKS, traits, characters: null, source: "page" };
  try {
    const data = await request("GET", "/api/games/valkyrx/data");
    if (data && Array.isArray(data.spells) && data.spells.length) {
      catalogue.spells = data.spells;
      catalogue.source = "server";
    }
    if (data && data.packs) catalogue.packs = data.packs;
    if (data && data.units) {
      catalogue.characters = new Set();
      for (const [id, u] of Object.entries(data.units)) {
        const list = traits[id] || (traits[id] = []);
        if (u.flyer && !list.includes("flyer")) list.push("flyer");
        if (!u.flyer && list.includes("flyer")) list.splice(list.indexOf("flyer"), 1);
        if (u.character) catalogue.characters.add(id);
      }
    }
  } catch { /* not offered: keep the page's copy */ }
  return catalogue;
}

export function spellInfo(id) {
  const list = (catalogue && catalogue.spells) || fallback.SPELLS;
  return list.find((sp) => sp.id === id) || { id, name: humanise(id), red: false, effect: "" };
}

export function traitsOf(type) {
  const t = (catalogue && catalogue.traits) || fallback.TRAITS;
  return t[type] || [];
}

/** Whether a unit type is a character (one body), by the server's data or by its starting strength. */
export function isCharacterType(type, start) {
  if (catalogue && catalogue.characters) return catalogue.characters.has(type);
  return Number(start) === 1;
}

export function humanise(id) {
  const text = String(id || "").replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
