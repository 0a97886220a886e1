// The turn panel: what the seat to move may do now, offered from GET /legal
// only (through chooser.js), and the setup arrangement. It knows nothing of the
// rules: it turns clicks into one of the listed actions and hands it to the page.

import { choose, offered, prompt } from "./chooser.js";
import { VOCABULARY, colourName, mageName, magePower, mageUse } from "./mages.js";

const DEFAULT_ROW = VOCABULARY.default_backrow; // the engine's suggested backrow, a to h
const FILES = "abcdefgh";

function button(text, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

export class Controls {
  constructor({ panel, title, promptEl, choicesEl, onAct }) {
    this.panel = panel;
    this.title = title;
    this.promptEl = promptEl;
    this.choicesEl = choicesEl;
    this.onAct = onAct;
    this.clear();
  }

  clear() {
    this.legal = null;
    this.picks = [];
    this.setupRow = null;
    this.setupPick = null;
    this.seat = null;
    this.busy = false;
    this.panel.hidden = true;
  }

  /** A fresh /legal answer for `seat` (actions listed, or the setup types). */
  setLegal(legal, seat) {
    this.legal = legal;
    this.seat = seat;
    this.picks = [];
    this.setupPick = null;
    this.busy = false;
    if (legal.setup && legal.setup.length) {
      const types = new Set(legal.setup);
      this.setupRow = DEFAULT_ROW.every((t) => types.has(t)) && types.size === 8 ? [...DEFAULT_ROW] : [...legal.setup];
    } else {
      this.setupRow = null;
    }
  }

  get active() {
    return Boolean(this.legal && (this.setupRow || this.legal.actions.length));
  }

  backrow() {
    const rank = this.seat === "black" ? 8 : 1;
    return FILES.split("").map((f) => `${f}${rank}`);
  }

  current() {
    return this.setupRow ? { options: [] } : choose(this.legal ? this.legal.actions : [], this.picks);
  }

  /** The state to draw: with the proposed backrow while setting up, its minions
   * counted out of the reserve (they are on the arena now, not in both places). */
  boardState(match) {
    if (!this.setupRow) return match;
    const arena = { ...match.arena };
    const mine = { ...((match.reserve || {})[this.seat] || {}) };
    this.backrow().forEach((sq, i) => {
      const type = this.setupRow[i];
      arena[sq] = { owner: this.seat, minion: type };
      mine[type] = Math.max(0, (mine[type] || 0) - 1);
    });
    return { ...match, arena, reserve: { ...match.reserve, [this.seat]: mine } };
  }

  /** Highlights of the choices left ({squares, chambers, reserve}: name → classes). */
  highlights() {
    const hl = { squares: {}, chambers: {}, reserve: {} };
    if (!this.active) return hl;
    if (this.setupRow) {
      for (const sq of this.backrow()) hl.squares[sq] = sq === this.setupPick ? "proposed picked" : "proposed choice";
      return hl;
    }
    const into = { square: hl.squares, chamber: hl.chambers, reserve: hl.reserve };
    for (const p of this.picks) if (into[p.kind]) into[p.kind][p.value] = "picked";
    const { options = [] } = this.current();
    for (const o of options) if (into[o.kind] && !into[o.kind][o.value]) into[o.kind][o.value] = "choice";
    return hl;
  }

  draggable() {
    return this.setupRow ? new Set(this.backrow()) : null;
  }

  /** The first square, chamber or reserve type to offer (for keyboard focus). */
  firstChoice() {
    const { options = [] } = this.current();
    return options.find((o) => ["square", "chamber", "reserve"].includes(o.kind)) || null;
  }

  /** A click on the board; returns whether it was taken as a choice. */
  click(kind, value) {
    if (!this.active || this.busy) return false;
    if (this.setupRow) {
      if (kind !== "square" || !this.backrow().includes(value)) return false;
      if (this.setupPick === null) this.setupPick = value;
      else if (this.setupPick === value) this.setupPick = null;
      else {
        this.swap(this.setupPick, value);
        this.setupPick = null;
      }
      return true;
    }
    const { options = [] } = this.current();
    if (!offered(options, kind, value)) return false;
    this.pick({ kind, value });
    return true;
  }

  swap(a, b) {
    const row = this.backrow();
    const i = row.indexOf(a);
    const j = row.indexOf(b);
    if (i < 0 || j < 0) return;
    [this.setupRow[i], this.setupRow[j]] = [this.setupRow[j], this.setupRow[i]];
  }

  pick(token) {
    this.picks = [...this.picks, token];
    const result = this.current();
    if (result.action) this.submit(result.action);
  }

  cancel() {
    this.picks = [];
    this.setupPick = null;
  }

  submit(action) {
    this.busy = true;
    this.onAct(action);
  }

  /** Draws the panel: the prompt and the buttons of the choices left. */
  render(repaint) {
    const { panel, promptEl, choicesEl } = this;
    panel.hidden = !this.active;
    if (!this.active) {
      this.shownKey = null;
      return;
    }
    // The buttons stay while the choices do: a repaint for another reason (a
    // presence message, a clock) must not take the focused button off the page.
    const key = JSON.stringify([this.legal.version, this.setupRow !== null, this.busy, this.picks]);
    if (key === this.shownKey) return;
    this.shownKey = key;
    choicesEl.replaceChildren();
    const again = () => repaint();
    if (this.setupRow) {
      this.title.textContent = "Your setup";
      promptEl.textContent = "Swap two squares of your back row (tap both, or drag), then confirm.";
      const confirm = button("Confirm setup", () => this.submit({ type: "setup", backrow: [...this.setupRow] }), "primary");
      confirm.disabled = this.busy;
      choicesEl.append(confirm);
      return;
    }
    this.title.textContent = "Your turn";
    const { options = [] } = this.current();
    promptEl.textContent = this.busy ? "Sending…" : prompt(options, this.picks);
    const add = (text, token, cls = "", describe = "") => {
      const b = button(text, () => { if (!this.busy) { this.pick(token); again(); } }, cls);
      if (describe) b.title = describe;
      b.disabled = this.busy;
      choicesEl.append(b);
    };
    for (const o of options) {
      if (o.kind === "player") add(`${colourName(o.value)}${o.value === this.seat ? " (you)" : ""} takes two turns`, o);
      else if (o.kind === "mage") add(mageName(o.value), o, "", magePower(o.value));
      else if (o.kind === "use") add(mageUse(o.value), o, "primary"); // the engine's words (vocabulary)
    }
    const pass = options.find((o) => o.kind === "pass");
    if (pass) add("Pass", pass);
    const none = options.find((o) => o.kind === "none");
    if (none) add("Without power", none);
    if (this.picks.length) {
      const cancel = button("Cancel", () => { this.cancel(); again(); });
      cancel.disabled = this.busy;
      choicesEl.append(cancel);
    }
  }
}
