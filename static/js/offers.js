// What one player offers the other beyond a draw: a takeback (casual matches
// between two people) and 15 seconds on a real-time clock. Drawn into
// <div id="offers">; it learns the match and the seat from the page at each
// paint, calls the API itself and hands each answer's match back to the page.

import { call } from "./api.js";

const other = (colour) => (colour === "white" ? "black" : "white");

function button(text, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

export class Offers {
  constructor({ host, matchId, onMatch, onError }) {
    this.host = host;
    this.matchId = matchId;
    this.onMatch = onMatch;
    this.onError = onError;
    this.seat = null;
    const id = encodeURIComponent(matchId);
    this.takeback = (doing) => this.send(`/matches/${id}/takeback`, { do: doing });
    this.ask = button("Takeback", () => this.takeback("ask"));
    this.withdraw = button("Withdraw takeback", () => this.takeback("withdraw"));
    this.give = button("Give 15 s", () => this.send(`/matches/${id}/give-time`, undefined));
    this.give.title = "15 seconds more on your opponent's clock";
    // The opponent's ask, answered where it is read.
    this.prompt = document.createElement("div");
    this.prompt.className = "row confirm";
    this.prompt.setAttribute("role", "group");
    this.prompt.setAttribute("aria-label", "Takeback asked");
    const words = document.createElement("span");
    words.textContent = "Takeback asked:";
    this.accept = button("Accept", () => this.takeback("accept"), "primary");
    this.decline = button("Decline", () => this.takeback("decline"));
    this.prompt.append(words, this.accept, this.decline);
    const row = document.createElement("div");
    row.className = "row";
    row.append(this.ask, this.withdraw, this.give);
    this.host.replaceChildren(row, this.prompt);
    this.host.hidden = true;
  }

  async send(path, body) {
    if (!this.seat) return;
    try {
      const answer = await call("POST", path, { token: this.seat.token, body });
      if (answer && answer.match) this.onMatch(answer.match);
    } catch (error) {
      this.onError(error);
    }
  }

  /** Shows what `seat` ({seat, token}, or null for a watcher) may offer in `match` now. */
  paint(match, seat) {
    this.seat = seat;
    const me = seat ? seat.seat : null;
    const running = Boolean(me) && match.status === "active";
    const opponent = running ? match.players[other(me)] : null;
    const takebacks = running && !match.rated && Boolean(opponent) && !opponent.computer;
    const asked = match.takeback_offer || null;
    const realtime = Boolean(match.clock) && match.clock.type === "realtime";
    this.ask.hidden = !takebacks || asked !== null;
    this.withdraw.hidden = !takebacks || asked !== me;
    this.prompt.hidden = !takebacks || asked === null || asked === me;
    this.give.hidden = !running || !realtime;
    this.host.hidden = this.ask.hidden && this.withdraw.hidden && this.prompt.hidden && this.give.hidden;
  }
}
