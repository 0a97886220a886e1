// Where the page keeps a seat's token: localStorage, keyed by match id, so a
// reload keeps the seat and another browser is a spectator. A token is never
// put in a URL the page shows or the server logs; "copy seat link" carries it
// in the fragment (#seat=white.TOKEN), which browsers never send to a server,
// and the page that opens such a link stores the seat and removes the fragment.

const KEY = (matchId) => `magery.seat.${matchId}`;
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

export function loadSeat(matchId) {
  try {
    const seat = JSON.parse(localStorage.getItem(KEY(matchId)) || "null");
    if (seat && (seat.seat === "white" || seat.seat === "black") && TOKEN.test(seat.token)) return seat;
  } catch {
    /* a damaged entry is no seat */
  }
  return null;
}

/** Every seat this browser keeps, as {match, token} (for claiming them into an account). */
export function heldSeats(store = localStorage) {
  const held = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (!key || !key.startsWith("magery.seat.")) continue;
    const matchId = key.slice("magery.seat.".length);
    const seat = loadSeat(matchId);
    if (seat) held.push({ match: matchId, token: seat.token });
  }
  return held;
}

export function saveSeat(matchId, seat, token) {
  localStorage.setItem(KEY(matchId), JSON.stringify({ seat, token }));
}

export function forgetSeat(matchId) {
  localStorage.removeItem(KEY(matchId));
}

/** Takes a seat handed over in the fragment (#seat=white.TOKEN), then removes it from the address bar. */
export function takeSeatFromFragment(matchId, loc = window.location, hist = window.history) {
  const found = /^#seat=(white|black)\.([A-Za-z0-9_-]{16,128})$/.exec(loc.hash);
  if (loc.hash.startsWith("#seat=")) hist.replaceState(hist.state, "", loc.pathname + loc.search);
  if (!found) return null;
  saveSeat(matchId, found[1], found[2]);
  return { seat: found[1], token: found[2] };
}

export function seatLink(matchId, seat) {
  return `${window.location.origin}/matches/${encodeURIComponent(matchId)}#seat=${seat.seat}.${seat.token}`;
}

export function inviteLink(matchId) {
  return `${window.location.origin}/matches/${encodeURIComponent(matchId)}`;
}

export function savedName() {
  return localStorage.getItem("magery.name") || "";
}

export function saveName(name) {
  if (name) localStorage.setItem("magery.name", name);
}
