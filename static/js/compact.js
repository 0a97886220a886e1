// Compact updates (docs/api.md, "Compact updates"): a socket opened with
// ?updates=compact may be sent a `delta` (what changed since `base`) instead of
// a full `update`. This keeps the state a delta applies to, and hands the page
// an update of the usual shape, so nothing else on the page knows the difference.
// The server's twin is app/realtime/changes.py.

const DELTA_ONLY = ["changes", "base", "format", "clock", "connected", "spectators", "server_time", "status"];

const FORMAT = 1;

/** The state after delta `m`, from `state` (its `base`); null when it does not apply. */
export function applyDelta(state, m) {
  if (!state || m.format !== FORMAT || state.version !== m.base) return null;
  const out = structuredClone(state);
  for (const change of m.changes) {
    const path = change[0];
    if (!Array.isArray(path) || path.length === 0) return null;
    let holder = out;
    for (const step of path.slice(0, -1)) {
      holder = holder?.[step];
      if (holder === null || typeof holder !== "object") return null;
    }
    const last = path[path.length - 1];
    if (change.length === 2) holder[last] = structuredClone(change[1]);
    else if (change.length === 4) {
      const [, start, count, text] = change; // a stretch of an ASCII string replaced
      const was = holder[last];
      if (typeof was !== "string") return null;
      holder[last] = was.slice(0, start) + text + was.slice(start + count);
    } else if (Array.isArray(holder)) return null; // a removal names an object's key, never an index
    else delete holder[last];
  }
  out.version = m.version;
  out.clock = structuredClone(m.clock ?? null);
  out.spectators = m.spectators ?? 0;
  out.server_time = m.server_time ?? m.at;
  for (const [colour, connected] of Object.entries(m.connected || {})) {
    if (out.players && out.players[colour] && typeof out.players[colour] === "object") {
      out.players[colour].connected = connected;
    }
  }
  return out;
}

/** Holds the match state a socket's messages built, and turns a delta into an update. */
export class CompactState {
  constructor() {
    this.state = null;
  }

  /** A snapshot or a full update: what the next delta applies to. */
  hold(match) {
    this.state = structuredClone(match);
  }

  forget() {
    this.state = null;
  }

  /** The update of delta `m` (the page's usual shape, its own copy of the state), or null. */
  update(m) {
    const next = applyDelta(this.state, m);
    if (next === null) return null;
    this.state = next;
    // The update's own fields, without what only the delta carries (its changes and
    // the live fields, which are in the state now).
    const rest = { ...m };
    for (const key of DELTA_ONLY) delete rest[key];
    return { ...rest, type: "update", match: structuredClone(next) };
  }
}
