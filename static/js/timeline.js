// The move list and the replay. The list shows the latest log entries in words
// (at most KEEP of them, so a page left open for hours does not grow), each a
// button; the game's actions are numbered as moves (counted over the whole
// log, read once from GET /actions), the match's other events (a join, a draw
// offered) stand between them unnumbered. Any entry can be shown again, its
// state fetched from GET /states (the state the server's engine made then);
// the step buttons and ← → go from move to move. Reviewing never snaps back
// to the live position by itself: only "Back to the live position" (or the
// last step) does.

import { matches } from "./api.js";

// The game's own actions (docs/api.md, "The log"): every other entry is an event.
const MOVES = new Set(["setup", "place", "pass", "remove"]);
const isMove = (action) => Boolean(action && MOVES.has(action.type));

const KEEP = 200; // log entries kept on the page
const FIRST_LOAD = 40; // entries fetched with their states when the page opens
const CACHE = 240; // states kept for stepping

export class Timeline {
  constructor({ matchId, list, position, buttons, onShow }) {
    this.matchId = matchId;
    this.list = list;
    this.position = position;
    this.buttons = buttons;
    this.onShow = onShow;
    this.latest = 0; // the newest version the log holds
    this.shown = null; // null: live; else the version shown
    this.cache = new Map();
    this.earliest = null; // the oldest version in the list
    this.earlierButton = null;
    this.logState = null; // the state after the newest logged entry: words for the next
    this.reading = Promise.resolve();
    this.moves = null; // the versions that are moves, in order (null: not read yet)
    this.loaded = false; // whether load() has done (the moves read, or found unreadable)
    this.heardMoves = []; // moves heard live before the list of moves was read
    this.whenLoaded = new Promise((resolve) => { this.markLoaded = resolve; });
    buttons.first.addEventListener("click", () => this.first());
    buttons.prev.addEventListener("click", () => this.step(-1));
    buttons.next.addEventListener("click", () => this.step(1));
    buttons.last.addEventListener("click", () => this.show(this.latest));
    buttons.live.addEventListener("click", () => this.goLive());
    list.addEventListener("click", (e) => {
      const li = e.target.closest("li[data-version]");
      if (li) this.show(Number(li.dataset.version));
    });
  }

  /** The versions of every move so far, read once (the log without its states is small);
   * a move whose update came while they were read is kept too. */
  async readMoves() {
    try {
      const entries = await matches.log(this.matchId);
      const heard = this.heardMoves;
      this.moves = [...new Set([...entries.filter((e) => isMove(e.action)).map((e) => e.version), ...heard])].sort((a, b) => a - b);
    } catch {
      this.moves = null; // numbered as far as the entries read tell
    }
  }

  /** How many moves were made up to `version` (null when the page cannot tell). */
  movesUpTo(version) {
    if (!this.moves) return null;
    let n = 0;
    for (const v of this.moves) if (v <= version) n += 1;
    return n;
  }

  get moveCount() {
    return this.moves ? this.moves.length : null;
  }

  /** Fills the log when the page opens at `match` (its version and state). */
  async load(match) {
    this.latest = match.version;
    this.logState = match;
    this.remember(match.version, match, null);
    if (match.version < 1) {
      this.moves = [];
      this.loaded = true;
      this.markLoaded();
      return this.paint();
    }
    await this.readMoves();
    const from = Math.max(1, match.version - FIRST_LOAD + 1);
    await this.prepend(from, match.version);
    this.list.scrollTop = this.list.scrollHeight; // the newest entries in view
    this.loaded = true;
    this.markLoaded();
    this.paint();
  }

  async prepend(from, to) {
    let rows;
    try {
      rows = (await matches.states(this.matchId, Math.max(1, from - 1), to)).states;
    } catch {
      return;
    }
    const items = [];
    let before = this.cache.get(from - 1)?.match || null;
    for (const row of rows) {
      this.remember(row.version, row.match, row.action);
      if (row.version >= from) items.push(this.item(row, row.words, before)); // told by the server's engine
      before = row.match;
    }
    this.earlierButton?.remove();
    this.earlierButton = null;
    this.list.prepend(...items);
    this.earliest = from;
    this.offerEarlier();
  }

  /** A "Show earlier entries" button at the top while older entries are not shown. */
  offerEarlier() {
    if (this.earliest <= 1 || this.earlierButton) return;
    const li = document.createElement("li");
    li.className = "earlier";
    const b = document.createElement("button");
    b.type = "button";
    b.className = "quiet";
    b.textContent = "Show earlier entries";
    b.addEventListener("click", () => this.prepend(Math.max(1, this.earliest - FIRST_LOAD), this.earliest - 1));
    li.append(b);
    this.list.prepend(li);
    this.earlierButton = li;
  }

  /** A log entry: a button numbered as a move ("7", counted over the whole log;
   * an event, such as a join or a draw offered, unnumbered), then when it was
   * made (the round and phase, from the state before it), a swatch of the colour
   * that acted and the engine's words, which describe the button. The button is
   * named by its place alone ("Move 7"), so its name never says another
   * button's ("Pass", "Join"); a click anywhere on the entry picks it. */
  item(entry, text, before) {
    const li = document.createElement("li");
    li.dataset.version = String(entry.version);
    const move = isMove(entry.action);
    li.className = move ? "move" : "event";
    const b = document.createElement("button");
    b.type = "button";
    b.className = "n";
    const count = this.movesUpTo(entry.version);
    const hidden = (words) => {
      const span = document.createElement("span");
      span.className = "visually-hidden";
      span.textContent = words;
      return span;
    };
    if (count === null) b.append(hidden(`Entry ${entry.version}`));
    else if (move) b.append(hidden("Move "), String(count));
    else b.append(hidden(count ? `Event after move ${count}` : "Event before any move"));
    const when = document.createElement("span");
    when.className = "when";
    if (move && before && before.phase === "setup") when.textContent = "Setup:";
    else if (move && before && (before.phase === "decision" || before.phase === "action")) {
      when.textContent = `Round ${before.round}, ${before.phase}:`;
    }
    const who = document.createElement("span");
    who.className = `who-acted ${entry.player === "white" || entry.player === "black" ? entry.player : "server"}`;
    who.setAttribute("aria-hidden", "true");
    const t = document.createElement("span");
    t.className = "t";
    t.id = `entry-${entry.version}`;
    t.textContent = text;
    when.id = `${t.id}-when`;
    b.setAttribute("aria-describedby", `${when.textContent ? `${when.id} ` : ""}${t.id}`);
    const body = document.createElement("span");
    body.className = "body";
    body.append(when, when.textContent ? " " : "", t);
    li.append(b, who, body);
    return li;
  }

  /** A live update: a new log entry in words, and the state it made. */
  add(update) {
    if (update.version <= this.latest && this.list.querySelector(`li[data-version="${update.version}"]`)) return;
    if (isMove(update.action)) {
      if (!this.moves) this.heardMoves.push(update.version);
      else if (!this.moves.includes(update.version)) this.moves = [...this.moves, update.version].sort((a, b) => a - b);
    }
    const stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 8;
    this.list.append(this.item(update, update.words, this.logState));
    this.logState = update.match;
    this.latest = update.version;
    this.remember(update.version, update.match, update.action);
    // Not while replaying: the entries read back to reach the version shown stay.
    let extra = this.shown === null ? this.list.querySelectorAll("li[data-version]").length - KEEP : 0;
    while (extra-- > 0) {
      const oldest = this.list.querySelector("li[data-version]");
      this.earliest = Number(oldest.dataset.version) + 1;
      oldest.remove();
    }
    this.offerEarlier();
    if (stick && this.shown === null) this.list.scrollTop = this.list.scrollHeight;
    this.paint();
  }

  /** A fresh snapshot after a gap: the entries missed are read from the log. */
  async resync(match) {
    if (match.version <= this.latest) return;
    const gapFrom = this.latest + 1;
    try {
      const rows = (await matches.states(this.matchId, gapFrom, Math.min(match.version, gapFrom + 99))).states;
      for (const row of rows) this.add(row);
    } catch {
      /* the log shows what it has; the board is right regardless */
    }
    this.logState = match;
    this.latest = Math.max(this.latest, match.version);
    this.remember(match.version, match, null);
    this.paint();
  }

  remember(version, match, action) {
    const known = this.cache.get(version);
    this.cache.set(version, { match, action: action || (known && known.action) || null });
    if (this.cache.size > CACHE) this.cache.delete(this.cache.keys().next().value);
  }

  async stateAt(version) {
    if (this.cache.has(version)) return this.cache.get(version);
    const from = Math.max(1, version - 50);
    const to = Math.min(this.latest, from + 99);
    const rows = (await matches.states(this.matchId, from, to)).states;
    for (const row of rows) this.remember(row.version, row.match, row.action);
    return this.cache.get(version) || null;
  }

  /** One move back or on (one entry at a time while the moves are not known). */
  step(delta) {
    if (!this.loaded) return this.whenLoaded.then(() => this.step(delta)); // counted in moves, not entries
    const at = this.shown === null ? this.latest : this.shown;
    if (!this.moves) return this.show(Math.min(this.latest, Math.max(1, at + delta)));
    const done = this.movesUpTo(at); // the move on the board is the `done`th
    const target = done + delta; // the move to show, counted from 1
    if (target > this.moves.length) return this.goLive();
    if (target < 1) return undefined; // already at the first move (or before it)
    return this.show(this.moves[target - 1]);
  }

  first() {
    if (!this.loaded) return this.whenLoaded.then(() => this.first());
    return this.moves && this.moves.length ? this.show(this.moves[0]) : this.show(1);
  }

  /** Reads older log entries until `version` is among them, so the log shows
   * (and marks) the version on the board however far back the replay steps. */
  reach(version) {
    // One read at a time: steps taken quickly must not read the same entries twice.
    this.reading = this.reading.then(() => this.readBack(version));
    return this.reading;
  }

  async readBack(version) {
    while (this.earliest !== null && version < this.earliest) {
      const before = this.earliest;
      await this.prepend(Math.max(1, Math.min(version - 20, before - 40), before - 99), before - 1);
      if (this.earliest === before) return; // not read: the log shows what it has
    }
  }

  /** The action that made `version`, if the page has read it. */
  actionAt(version) {
    const known = this.cache.get(version);
    return known ? known.action : null;
  }

  async show(version) {
    if (this.latest < 1) return;
    version = Math.min(this.latest, Math.max(1, version));
    if (version === this.latest) return this.goLive();
    this.shown = version;
    this.paint();
    await this.reach(version);
    if (this.shown !== version) return;
    this.paint();
    let found;
    try {
      found = await this.stateAt(version);
    } catch {
      found = null;
    }
    if (this.shown !== version || !found) return;
    this.onShow(found, version);
  }

  goLive() {
    this.shown = null;
    this.paint();
    this.onShow(null, this.latest);
  }

  /** Whether an older version is on the board. */
  get reviewing() {
    return this.shown !== null && this.shown !== this.latest;
  }

  /** Scrolls the list (not the window) so that `li` is in it. */
  reveal(li) {
    const list = this.list.getBoundingClientRect();
    const item = li.getBoundingClientRect();
    if (item.top < list.top) this.list.scrollTop -= list.top - item.top;
    else if (item.bottom > list.bottom) this.list.scrollTop += item.bottom - list.bottom;
  }

  paint() {
    const at = this.shown === null ? this.latest : this.shown;
    const done = this.movesUpTo(at);
    const total = this.moveCount;
    const replay = this.reviewing ? " (replay)" : "";
    if (total === null) this.position.textContent = this.latest ? `Entry ${at} of ${this.latest}${replay}` : "No moves yet";
    else this.position.textContent = total ? `Move ${done} of ${total}${replay}` : "No moves yet";
    const firstMove = total ? this.moves[0] : 1;
    this.buttons.first.disabled = this.buttons.prev.disabled = total === null ? at <= 1 : !total || at <= firstMove;
    this.buttons.next.disabled = this.buttons.last.disabled = at >= this.latest;
    this.buttons.live.hidden = !this.reviewing;
    this.list.querySelector("li.current")?.classList.remove("current");
    const li = this.list.querySelector(`li[data-version="${at}"]`);
    if (li) {
      li.classList.add("current");
      // Within the list only: the window stays where the reader put it (a step from a
      // button above the list, such as the analysis's next mistake, must not scroll the page).
      if (this.shown !== null) this.reveal(li);
      // Stepping with ← → from inside the list: the focus follows the move shown.
      if (this.list.contains(document.activeElement) && document.activeElement !== li.firstChild) li.firstChild.focus();
    }
  }
}
