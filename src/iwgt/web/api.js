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
 * Spells, default packs and unit traits of Days of the Valkyrx: from the server when it offers
 * GET /api/games/valkyrx/spells and /units, else from the page's generated copy.
 */
export async function valkyrxCatalogue() {
  if (catalogue) return catalogue;
  catalogue = { spells: fallback.SPELLS, packs: fallback.PACKS, traits: fallback.TRAITS, source: "page" };
  try {
    const data = await request("GET", "/api/games/valkyrx/spells");
    const list = Array.isArray(data) ? data : data && data.spells;
    if (Array.isArray(list) && list.length && list[0].id) {
      catalogue.spells = list;
      if (data.packs) catalogue.packs = data.packs;
      catalogue.source = "server";
    }
  } catch { /* not offered yet: keep the page's copy */ }
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

export function humanise(id) {
  const text = String(id || "").replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
