// The table's WebSocket (/ws/{table}): hello first, reconnect with backoff, and acts kept until acknowledged
// so that a dropped socket resends them with their same ids (the server applies a retried id once).

const PING_MS = 20000;
const MAX_BACKOFF_MS = 10000;

export class TableSocket {
  /**
   * @param {string} table the table id
   * @param {string} token the credential from the link's fragment
   * @param {(msg: object) => void} onMessage every server message
   * @param {(state: string, detail?: string) => void} onState "connecting" | "open" | "closed" | "offline"
   */
  constructor(table, token, onMessage, onState) {
    this.table = table;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    this.pending = new Map(); // id -> message, in sending order
    this.counter = 0;
    this.backoff = 500;
    this.ws = null;
    this.welcomed = false;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.prefix = `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${proto}//${location.host}/ws/${encodeURIComponent(this.table)}`;
    this.onState("connecting");
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.welcomed = false;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.handle(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      if (this.stopped) {
        this.onState("closed");
        return;
      }
      this.onState("offline", ev.reason || "");
      this.scheduleRetry();
    });
    ws.addEventListener("error", () => { /* close follows */ });
  }

  handle(msg) {
    if (msg.type === "welcome") {
      this.welcomed = true;
      this.backoff = 500;
      this.onState("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.sendRaw({ type: "ping" }), PING_MS);
      // Acts not yet acknowledged go again, with their same ids: applied once at most.
      for (const pending of this.pending.values()) this.sendRaw(pending);
    } else if (msg.type === "ack" || (msg.type === "error" && msg.id && this.pending.has(msg.id))) {
      this.pending.delete(msg.id);
    } else if (msg.type === "error" && msg.error === "unauthorized" && !this.welcomed) {
      this.stopped = true; // a bad token will not get better by retrying
    } else if (msg.type === "closed") {
      this.stopped = true;
    }
    this.onMessage(msg);
  }

  scheduleRetry() {
    clearTimeout(this.retryTimer);
    const wait = this.backoff + Math.random() * 250;
    this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  sendRaw(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN && (this.welcomed || msg.type === "hello")) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  nextId() {
    this.counter += 1;
    return `${this.prefix}-${this.counter}`;
  }

  /** Send an action as `seat`; it is kept (and resent on reconnection) until its ack or error. */
  act(seat, action) {
    const msg = { type: "act", id: this.nextId(), seat, action };
    this.pending.set(msg.id, msg);
    this.sendRaw(msg);
    return msg.id;
  }

  /** A physical die's face (view.die). */
  die(face) {
    const msg = { type: "die", id: this.nextId(), face };
    this.pending.set(msg.id, msg);
    this.sendRaw(msg);
    return msg.id;
  }

  quit() {
    const msg = { type: "quit", id: this.nextId() };
    this.pending.set(msg.id, msg);
    this.sendRaw(msg);
    return msg.id;
  }

  /** Questions that change nothing: not kept, simply asked again if lost. */
  select(seat, unit) {
    return this.sendRaw({ type: "select", seat, unit });
  }

  preview(seat, action) {
    return this.sendRaw({ type: "preview", seat, action });
  }

  get busy() {
    return this.pending.size > 0;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000, "leaving");
  }
}
