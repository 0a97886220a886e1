// The match's websocket (docs/api.md, "Websocket"): a snapshot, then every
// update in version order. A dropped line is reconnected with ?since=<last
// version applied>, so nothing is missed and nothing is applied twice.
// Other modules share the socket: it is an EventTarget ("open" at each
// connection, "message" with every message as its detail) and `send` writes
// on it (the chat, chat.js). It asks for compact updates (compact.js): a
// `delta` is turned into the usual update before anyone sees it; one that does
// not apply reopens the socket asking for full updates from the last version.
// A seat's socket (its token) asks ?legal=true: the state that makes it the
// seat's turn carries its legal actions (`legal`, left on the update for the
// page), and a resumed seat is told them in a `legal` message (onLegal).

import { CompactState } from "./compact.js";

const NO_RETRY = new Set([1000, 1008, 1009]);

export class Live extends EventTarget {
  /**
   * handlers: onSnapshot(match, spectators, legal), onUpdate(message), onPresence(message),
   * onLegal(legal), onLine(up: boolean, detail), each optional.
   */
  constructor(matchId, token, handlers) {
    super();
    this.matchId = matchId;
    this.token = token;
    this.handlers = handlers;
    this.version = null;
    this.socket = null;
    this.retries = 0;
    this.closed = false;
    this.timer = null;
    this.compact = new CompactState();
    this.wantsCompact = true;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams();
    if (this.token) query.set("token", this.token);
    if (this.token) query.set("legal", "true"); // a seat: its turns carry its legal actions
    if (this.version !== null) query.set("since", String(this.version));
    if (this.wantsCompact) query.set("updates", "compact");
    const q = query.toString();
    return `${scheme}://${window.location.host}/api/v1/matches/${encodeURIComponent(this.matchId)}/ws${q ? `?${q}` : ""}`;
  }

  start(version = null) {
    if (version !== null) this.version = version;
    this.closed = false;
    this.open();
  }

  open() {
    const ws = new WebSocket(this.url());
    this.socket = ws;
    ws.onopen = () => {
      this.retries = 0;
      this.handlers.onLine?.(true);
      this.dispatchEvent(new Event("open"));
    };
    ws.onmessage = (event) => this.receive(ws, event.data);
    ws.onclose = (event) => {
      if (this.socket !== ws) return;
      this.socket = null;
      if (this.closed) return;
      if (NO_RETRY.has(event.code)) {
        this.handlers.onLine?.(false, event.reason || "the server closed the connection", false);
        return;
      }
      this.handlers.onLine?.(false, "Connection lost: reconnecting…", true);
      const delay = Math.min(5000, 300 * 2 ** this.retries) + Math.random() * 250;
      this.retries += 1;
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  receive(ws, text) {
    let m;
    try {
      m = JSON.parse(text);
    } catch {
      return;
    }
    if (m.type === "delta") {
      if (this.version !== null && m.version <= this.version) return; // seen already
      const update = this.compact.update(m);
      if (update === null) {
        this.fullFromNowOn(ws);
        return;
      }
      m = update;
    }
    this.dispatchEvent(new CustomEvent("message", { detail: m }));
    if (m.type === "snapshot") {
      this.version = m.match.version;
      this.compact.hold(m.match);
      this.handlers.onSnapshot?.(m.match, m.match.spectators, m.legal);
    } else if (m.type === "update") {
      if (this.version !== null && m.version <= this.version) return; // seen already
      this.version = m.version;
      this.compact.hold(m.match);
      this.handlers.onUpdate?.(m);
    } else if (m.type === "legal") {
      this.handlers.onLegal?.(m);
    } else if (m.type === "presence") {
      this.handlers.onPresence?.(m);
    } else if (m.type === "ping") {
      ws.send('{"type":"pong"}');
    }
  }

  /** A delta that does not apply to what is held: open again, asking for full updates after `version`. */
  fullFromNowOn(ws) {
    if (this.socket !== ws) return;
    this.wantsCompact = false;
    this.compact.forget();
    this.socket = null;
    ws.close(1000);
    this.open();
  }

  /** Send `message` (an object) on the open socket; false when there is none. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Whether a seat's socket is open or opening: its states carry the seat's legal actions. */
  carriesLegal() {
    return Boolean(this.token && this.socket && this.socket.readyState <= WebSocket.OPEN);
  }

  /** Reconnect now (a new token after joining, say). */
  restart(token) {
    this.token = token;
    this.stop();
    this.start();
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.socket) {
      const ws = this.socket;
      this.socket = null;
      ws.close(1000);
    }
  }
}
