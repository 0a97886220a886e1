// Explanations on the match page, in the engine's words (mages.js): every
// chamber's and minion's on hover, keyboard focus and a long press (phones),
// and the rulings a refusal cites ("R9") linked to the Learn page (#r9).

import { VOCABULARY, colourName, mageName, magePower, rulingWords } from "./mages.js";

const LONG_PRESS_MS = 500;

// Whether the last thing the reader did was a key: focus the page moves itself
// (to the first choice of a new turn) or a click brings explains nothing, a
// keyboard player's Tab and arrows do.
let byKey = false;
document.addEventListener("keydown", () => { byKey = true; }, true);
document.addEventListener("pointerdown", () => { byKey = false; }, true);

/** What a chamber or a square explains, from the state shown: a sentence or "". */
export function explanation(state, target) {
  if (target.dataset.mage) {
    const mage = target.dataset.mage;
    const m = VOCABULARY.mages[mage];
    const where = m && m.floor ? `floor ${m.floor}` : m && m.chaos ? "a chaos mage" : "";
    const chambers = [...(state.tower || []), ...Object.values(state.private || {}).flat()];
    const here = chambers.find((c) => c.mage === mage);
    const holds = here && here.occupant ? ` ${colourName(here.occupant.owner)}'s ${here.occupant.minion} stands on it.` : " It is empty.";
    return `${mageName(mage)}${where ? ` (${where})` : ""}: ${magePower(mage)}${holds}`;
  }
  const square = target.dataset.square;
  const o = square && state.arena ? state.arena[square] : null;
  if (!o) return "";
  const t = VOCABULARY.minions[o.minion];
  return `${colourName(o.owner)}'s ${o.minion} on ${square}, a ${t.rank} minion: it ${t.moves}. It ${t.summoned}.`;
}

/** Shows the explanation of the chamber or square under the pointer, in focus, or long-pressed. */
export class Explainer {
  constructor(host, stateNow) {
    this.host = host;
    this.stateNow = stateNow;
    this.box = document.createElement("div");
    this.box.className = "explain";
    this.box.id = "explain";
    this.box.setAttribute("role", "tooltip");
    this.box.hidden = true;
    document.body.append(this.box);
    this.timer = null;
    this.pressed = false;
    this.shownFor = null; // the chamber or square explained now
    this.byFocus = false; // whether keyboard focus brought it (not the pointer or a press)
    const targetOf = (e) => e.target.closest && e.target.closest("button.chamber, button.sq");
    this.quiet = null; // clicked: its explanation waits until the pointer leaves it
    host.addEventListener("pointerover", (e) => {
      if (e.pointerType === "mouse" && targetOf(e) && targetOf(e) !== this.quiet) this.show(targetOf(e));
    });
    // Only the explanation the pointer brought: the page scrolling under a still
    // mouse (focus moving to a chamber below) must not hide the focused one's.
    host.addEventListener("pointerout", (e) => {
      if (e.pointerType === "mouse" && targetOf(e) && targetOf(e) === this.quiet) this.quiet = null;
      if (e.pointerType === "mouse" && targetOf(e) && targetOf(e) === this.shownFor) this.hide();
    });
    // A click or a tap is a choice being made: the explanation gets out of the way
    // of the board (it would cover the squares and chambers the next choice needs).
    host.addEventListener("pointerdown", (e) => {
      if (!targetOf(e)) return;
      this.quiet = targetOf(e);
      if (!this.pressed) this.hide();
    });
    // Keyboard focus only: a click focuses too, and the chosen chamber needs no explaining.
    host.addEventListener("focusin", (e) => { if (byKey && targetOf(e)) this.show(targetOf(e), true); });
    // Only what focus brought leaves with focus: when a turn's choices arrive the
    // page moves focus itself (from the arena, where it waited, to the first
    // choice), and that must not take away what the pointer rests on.
    host.addEventListener("focusout", () => { if (this.byFocus) this.hide(); });
    host.addEventListener("pointerdown", (e) => {
      const target = targetOf(e);
      if (!target || e.pointerType === "mouse") return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { this.pressed = true; this.show(target); }, LONG_PRESS_MS);
    });
    for (const end of ["pointerup", "pointercancel", "pointerleave"]) {
      host.addEventListener(end, () => clearTimeout(this.timer));
    }
    // A long press explains; it does not also choose.
    host.addEventListener("click", (e) => {
      if (!this.pressed) return;
      this.pressed = false;
      e.stopPropagation();
      e.preventDefault();
    }, true);
    host.addEventListener("contextmenu", (e) => { if (targetOf(e) && e.pointerType !== "mouse") e.preventDefault(); });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") this.hide(); });
  }

  show(target, byFocus = false) {
    const words = explanation(this.stateNow(), target);
    if (!words) return this.hide();
    this.box.textContent = words;
    this.box.hidden = false;
    this.shownFor = target;
    this.byFocus = byFocus;
    const r = target.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    this.box.style.maxWidth = `${width}px`;
    const left = Math.max(8, Math.min(window.scrollX + r.left, window.scrollX + window.innerWidth - width - 8));
    this.box.style.left = `${left}px`;
    this.box.style.top = `${window.scrollY + r.bottom + 6}px`;
  }

  hide() {
    this.box.hidden = true;
    this.shownFor = null;
    this.byFocus = false;
  }

  /** Said again from the state now shown (the page calls it on every change): an
   * explanation never tells of an occupant that has left. */
  refresh() {
    if (!this.shownFor) return;
    if (!this.shownFor.isConnected) return this.hide();
    const words = explanation(this.stateNow(), this.shownFor);
    if (!words) return this.hide();
    if (this.box.textContent !== words) this.box.textContent = words;
  }
}

/** `text` with every ruling it cites ("R9") made a link to the Learn page's
 * ruling, followed by the ruling in words. */
export function withRulings(text) {
  const out = [];
  const cited = [];
  let at = 0;
  for (const found of text.matchAll(/\bR(\d{1,2})\b/g)) {
    const rule = `R${found[1]}`;
    if (!rulingWords(rule)) continue;
    out.push(text.slice(at, found.index));
    const a = document.createElement("a");
    a.href = `/learn#r${found[1]}`;
    a.textContent = rule;
    a.title = rulingWords(rule);
    out.push(a);
    if (!cited.includes(rule)) cited.push(rule);
    at = found.index + found[0].length;
  }
  out.push(text.slice(at));
  for (const rule of cited) {
    const span = document.createElement("span");
    span.className = "ruling";
    span.textContent = ` (${rule}: ${rulingWords(rule)})`;
    out.push(span);
  }
  return out;
}
