// Playing again, from the end panel: "Rematch" offers (or accepts an offer
// made at the same moment), the opponent sees "Accept rematch" / "Decline
// rematch", and once the rematch is made both pages move to it. The token of
// this seat in the rematch comes in the answer to its own call and is kept in
// localStorage until the rematch exists (docs/api.md, "Playing again").

import { ApiError, call } from "./api.js";
import { colourName } from "./mages.js";
import { saveSeat } from "./seat.js";

const $ = (id) => document.getElementById(id);
const PENDING = (matchId) => `magery.rematch.${matchId}`;

function path(matchId, rest = "") {
  return `/matches/${encodeURIComponent(matchId)}/rematch${rest}`;
}

export class Rematch {
  constructor({ matchId, getPage, onMatch, onError, go = (url) => window.location.assign(url) }) {
    this.matchId = matchId;
    this.getPage = getPage;
    this.onMatch = onMatch;
    this.onError = onError;
    this.go = go;
    this.moving = false;
    $("rematch").addEventListener("click", () => this.offer());
    $("accept-rematch").addEventListener("click", () => this.offer());
    $("decline-rematch").addEventListener("click", () => this.decline());
    $("withdraw-rematch").addEventListener("click", () => this.decline());
    $("new-match").addEventListener("click", () => this.go("/#create"));
  }

  async offer() {
    const page = this.getPage();
    if (!page.seat) return;
    try {
      const answer = await call("POST", path(this.matchId), { token: page.seat.token });
      const mine = answer.rematch;
      if (mine.token) localStorage.setItem(PENDING(this.matchId), JSON.stringify({ seat: mine.seat, token: mine.token }));
      this.onMatch(answer.match);
      // The newest state known, not the answer's: the update saying the rematch
      // is made may have come over the socket before this answer did.
      this.follow(this.getPage().match);
    } catch (error) {
      this.onError(error instanceof ApiError ? error : new ApiError(0, null));
    }
  }

  async decline() {
    const page = this.getPage();
    if (!page.seat) return;
    try {
      const answer = await call("POST", path(this.matchId, "/decline"), { token: page.seat.token });
      localStorage.removeItem(PENDING(this.matchId));
      this.onMatch(answer.match);
    } catch (error) {
      this.onError(error);
    }
  }

  /** Once the rematch exists: a seat holding its token there goes to it. */
  follow(match) {
    const made = match.rematch && match.rematch.match_id;
    if (!made || this.moving) return;
    let kept;
    try {
      kept = JSON.parse(localStorage.getItem(PENDING(this.matchId)) || "null");
    } catch {
      kept = null;
    }
    if (!kept || !kept.token) return; // a spectator, or the seat's own answer is still on its way
    this.moving = true;
    saveSeat(made, kept.seat, kept.token);
    localStorage.removeItem(PENDING(this.matchId));
    this.go(`/matches/${encodeURIComponent(made)}`);
  }

  paint() {
    const page = this.getPage();
    const m = page.match;
    const over = m.status === "finished";
    const seat = page.seat;
    const state = m.rematch || {};
    const opponent = seat && m.players[seat.seat === "white" ? "black" : "white"];
    const playable = Boolean(over && seat && opponent && opponent.name);
    const made = state.match_id;
    const theirs = playable && !made && state.offered_by && state.offered_by !== seat.seat;
    const mine = playable && !made && state.offered_by === seat.seat;
    const declinedMe = playable && state.declined_by && state.declined_by !== seat.seat;
    $("rematch").hidden = !playable || Boolean(made) || Boolean(state.offered_by) || Boolean(declinedMe);
    $("accept-rematch").hidden = $("decline-rematch").hidden = !theirs;
    $("withdraw-rematch").hidden = !mine;
    $("new-match").hidden = !over;
    const note = $("rematch-note");
    let text = "";
    if (made) text = seat ? "The rematch is ready: taking you there…" : "";
    else if (mine) text = "You offered a rematch; waiting for the answer.";
    else if (theirs) text = `${colourName(state.offered_by)} offers a rematch, with the colours swapped.`;
    else if (declinedMe) text = `${colourName(state.declined_by)} declined the rematch.`;
    if (note.textContent !== text) note.textContent = text;
    const watch = $("watch-rematch");
    watch.hidden = !(made && !seat);
    if (made) watch.href = `/matches/${encodeURIComponent(made)}`;
  }
}
