// The HTTP API of docs/protocol.md (lobby, tables, records, each game's data), with readable errors.

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

const catalogues = new Map();

/**
 * A game's data for its screen (GET /api/games/{name}/data: its spells, units, measures…), asked once per
 * page and shared by every caller; rejects if the server offers none (then asked again next time).
 */
export function gameCatalogue(name) {
  if (!catalogues.has(name)) {
    const asked = request("GET", `/api/games/${encodeURIComponent(name)}/data`);
    asked.catch(() => catalogues.delete(name));
    catalogues.set(name, asked);
  }
  return catalogues.get(name);
}

/** An id in words: "cure_plague" -> "Cure plague". */
export function humanise(id) {
  const text = String(id || "").replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
