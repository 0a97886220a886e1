// Keyboard focus on the match page: it stays where the next choice is. The
// turn panel's buttons come and go with every choice, and an element that
// leaves the page drops focus to the body, where a keyboard player would have
// to Tab through the whole page again. So the page asks here whether focus was
// lost from the game (or still sits in it) and, if so, moves it to the next choice.

let keyboard = false;
let inGame = false; // whether the last focused element was part of the game

const KEYS = new Set(["Tab", "Enter", " ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);
document.addEventListener("keydown", (e) => { if (KEYS.has(e.key)) keyboard = true; }, true);
document.addEventListener("pointerdown", () => { keyboard = false; }, true);

export class FocusKeeper {
  /** hosts: the elements whose focus belongs to the game (the board, the turn panel). */
  constructor(hosts) {
    this.hosts = hosts;
    this.parked = null; // the element focus waits on while nothing is to choose
    document.addEventListener("focusin", (e) => { inGame = this.holds(e.target); });
    // A click elsewhere on the page (its text, say) is the player leaving the game's focus.
    document.addEventListener("pointerdown", (e) => { if (!this.holds(e.target)) inGame = false; }, true);
  }

  holds(el) {
    return Boolean(el) && this.hosts.some((h) => h.contains(el));
  }

  /** Focus fell to the body from the game (its element left the page or was disabled). */
  get lost() {
    const el = document.activeElement;
    return inGame && (!el || el === document.body);
  }

  /** Focus is nowhere, or where the page parked it to wait for the turn: a new
   * choice may take it. Never from an element the player went to themself (a
   * chamber they are reading about, say), wherever it is. */
  get free() {
    const el = document.activeElement;
    return !el || el === document.body || (this.parked !== null && el === this.parked);
  }

  /** Moves focus to `el`; a mouse player's page is not scrolled by it. `parked`:
   * only a place to wait, which the next choice may take over. */
  move(el, parked = false) {
    if (!el || el.disabled) return false;
    el.focus({ preventScroll: !keyboard });
    this.parked = parked ? el : null;
    return document.activeElement === el;
  }
}
