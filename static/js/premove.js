// Premove: during the opponent's turn the seat may choose its next action with
// the same clicks as a normal one. The page cannot know what will be legal then
// (the server decides, and the opponent has not moved yet), so the clicks are
// offered from what the position makes plausible (a type from the reserve on an
// empty chamber, or a pass, in the decision phase; a removal from a chamber the
// seat holds in the action phase) and kept as clicks. When the turn comes they
// are read against GET /legal's list (chooser.js): a whole legal action is sent
// at once; the first clicks of one (a removal whose power is left to choose)
// are taken as the turn's first choices; anything else is dropped, with a word.

import { choose } from "./chooser.js";
import { aType, mageName, mageUse } from "./mages.js";

const PLACE_WORDS = (type, mage) => `place ${aType(type)} on the ${mageName(mage)}`;

/** The actions the seat might play next, as far as `match` shows (a superset is fine:
 * the server's list decides when the turn comes). */
export function plausible(match, seat) {
  const chambers = [...(match.tower || []), ...((match.private || {})[seat] || [])];
  if (match.phase === "decision") {
    if (match.passed && match.passed[seat]) return [];
    const reserve = (match.reserve || {})[seat] || {};
    const types = Object.keys(reserve).filter((t) => reserve[t] > 0);
    const empty = chambers.filter((c) => !c.occupant).map((c) => c.mage);
    const places = empty.flatMap((mage) => types.map((minion) => ({ type: "place", mage, minion })));
    return [...places, { type: "pass" }];
  }
  if (match.phase === "action") {
    const held = chambers.filter((c) => c.occupant && c.occupant.owner === seat).map((c) => c.mage);
    return held.flatMap((mage) => [{ type: "remove", mage, power: null }, ...(mageUse(mage) ? [{ type: "remove", mage, power: {} }] : [])]);
  }
  return [];
}

/** The words of a premove (its clicks so far, or the action they spell). */
export function premoveWords(picks, action) {
  if (action && action.type === "pass") return "pass";
  if (action && action.type === "place") return PLACE_WORDS(action.minion, action.mage);
  const chamber = picks.find((p) => p.kind === "chamber");
  if (action && action.type === "remove") {
    return action.power ? `remove from the ${mageName(action.mage)}: ${mageUse(action.mage)}` : `remove from the ${mageName(action.mage)} without its power`;
  }
  if (chamber && picks.length === 1) return `remove from the ${mageName(chamber.value)}, choosing its power when your turn comes`;
  return "";
}

export class Premove {
  constructor() {
    this.candidates = [];
    this.picks = []; // clicks made towards a premove
    this.planned = null; // {picks, action|null}: the premove chosen
    this.note = "";
  }

  /** Offers premoves while `match` waits on the opponent of `seat` (else none). */
  follow(match, seat, reviewing) {
    const waiting = Boolean(seat && match.status === "active" && match.to_move && match.to_move !== seat && !reviewing);
    this.candidates = waiting ? plausible(match, seat) : [];
    if (!this.candidates.length) this.picks = [];
    if (match.status !== "active" && this.planned) this.planned = null;
  }

  get open() {
    return this.candidates.length > 0;
  }

  current() {
    return choose(this.candidates, this.picks);
  }

  /** A click during the opponent's turn; returns whether it was taken. */
  click(kind, value) {
    if (!this.open) return false;
    const { options = [] } = this.current();
    let picks = [...this.picks, { kind, value }];
    if (!options.some((o) => o.kind === kind && o.value === value)) {
      // A fresh start: a click that begins another premove replaces the one under way.
      picks = [{ kind, value }];
      if (!(choose(this.candidates, picks).options || []).length && !choose(this.candidates, picks).action) return false;
    }
    this.note = "";
    this.picks = picks;
    const result = this.current();
    if (result.action) this.plan(result.action);
    return true;
  }

  /** A button of the premove line (a power's use, without it, pass, or "later"). */
  choose(token) {
    if (token === "later") return this.plan(null);
    this.picks = [...this.picks, token];
    const result = this.current();
    if (result.action) this.plan(result.action);
  }

  plan(action) {
    this.planned = { picks: this.picks, action };
    this.picks = [];
  }

  cancel() {
    const had = Boolean(this.planned || this.picks.length);
    this.planned = null;
    this.picks = [];
    return had;
  }

  /** The turn has come, with `legal` (GET /legal): what to do with the premove.
   * {action} to send, {picks} to start the turn from, {dropped: true}, or null. */
  take(legal) {
    const planned = this.planned;
    this.planned = null;
    this.picks = [];
    if (!planned) return null;
    const found = choose(legal.setup && legal.setup.length ? [] : legal.actions, planned.picks);
    if (found.action) return { action: found.action };
    if (!planned.action && found.options && found.options.length) return { picks: planned.picks };
    this.note = "Your premove was no longer legal and was dropped.";
    return { dropped: true };
  }

  /** Highlights: the premove's own clicks, and what may be clicked next once one is made. */
  highlights() {
    const hl = { squares: {}, chambers: {}, reserve: {} };
    const into = { square: hl.squares, chamber: hl.chambers, reserve: hl.reserve };
    const picks = this.planned ? this.planned.picks : this.picks;
    for (const p of picks) if (into[p.kind]) into[p.kind][p.value] = "premove";
    if (!this.planned && this.picks.length) {
      for (const o of this.current().options || []) if (into[o.kind] && !into[o.kind][o.value]) into[o.kind][o.value] = "premove-choice";
    }
    return hl;
  }

  /** Draws the premove line into `host`: what is chosen and Cancel, or the buttons
   * a premove under way needs (a removal's power), or a hint that one may be made. */
  render(host, repaint) {
    const key = JSON.stringify([this.open, this.picks, this.planned, this.note]);
    if (key === this.shownKey) return;
    this.shownKey = key;
    const line = host.querySelector(".premove-line");
    const buttons = host.querySelector(".premove-buttons");
    const note = host.querySelector(".premove-note");
    note.textContent = this.note;
    buttons.replaceChildren();
    const add = (text, onClick, cls = "") => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = text;
      if (cls) b.className = cls;
      b.addEventListener("click", () => { onClick(); repaint(); });
      buttons.append(b);
    };
    if (this.planned) {
      line.textContent = `Premove: ${premoveWords(this.planned.picks, this.planned.action)}`;
      add("Cancel", () => this.cancel(), "quiet premove-cancel");
    } else if (this.picks.length) {
      line.textContent = "Premove: choose the rest of it.";
      const { options = [] } = this.current();
      for (const o of options) {
        if (o.kind === "use") add(mageUse(o.value), () => this.choose(o), "primary");
        if (o.kind === "none") add("Without power", () => this.choose(o));
      }
      if (this.picks.length === 1 && this.picks[0].kind === "chamber" && options.some((o) => o.kind === "none")) {
        add("Choose the power later", () => this.choose("later"));
      }
      add("Cancel", () => this.cancel(), "quiet premove-cancel");
    } else {
      line.textContent = ""; // nothing under way: the line takes no room (the turn panel's slot stays still)
    }
    host.hidden = !line.textContent && !this.note;
  }
}
