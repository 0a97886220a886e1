// What the match page says besides drawing: short sounds (made with WebAudio,
// no audio files), a browser notification when it becomes your turn while the
// tab is hidden (opt-in), and toasts that stay in view wherever the page is
// scrolled. The mute switch is remembered by the browser (localStorage).
//
// Tests read window.mageryAlerts: the sounds asked for by name (while not
// muted), the notifications shown and the toasts raised. They assert the
// calls, never the audio.

import { endWords } from "./results.js";

const MUTED = "magery.muted";

// Each sound: [frequency Hz, seconds] notes, played one after another.
const SOUNDS = {
  turn: [[660, 0.09], [880, 0.12]],
  opponent: [[440, 0.07]],
  "low-time": [[990, 0.08], [990, 0.08], [990, 0.08]],
  "draw-offer": [[523, 0.1], [659, 0.1]],
  "rematch-offer": [[523, 0.1], [784, 0.12]],
  end: [[784, 0.12], [659, 0.12], [523, 0.2]],
};

export const record = { sounds: [], notifications: [], toasts: [] };
window.mageryAlerts = record;

let audio = null;

function muted() {
  try {
    return localStorage.getItem(MUTED) === "1";
  } catch {
    return false;
  }
}

/** Plays the named sound, unless muted. */
export function sound(name) {
  if (!SOUNDS[name] || muted()) return;
  record.sounds.push(name);
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    let at = audio.currentTime;
    for (const [hz, seconds] of SOUNDS[name]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + seconds);
      at += seconds;
    }
  } catch {
    /* no audio here: the sound is simply not heard */
  }
}

/** A notification, only when the tab is hidden and the player has allowed them. */
export function notify(title, body) {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  record.notifications.push(title);
  try {
    const shown = new Notification(title, { body, tag: "magery-turn" });
    shown.onclick = () => { window.focus(); shown.close(); };
  } catch {
    /* some browsers allow notifications only from a service worker */
  }
}

let host = null;

/** A toast in a corner of the window, in view however far the page is scrolled. */
export function toast(text) {
  record.toasts.push(text);
  if (!host) {
    host = document.createElement("div");
    host.className = "toasts";
    host.setAttribute("aria-live", "polite");
    document.body.append(host);
  }
  const item = document.createElement("p");
  item.className = "toast";
  item.textContent = text;
  host.append(item);
  setTimeout(() => item.remove(), 8000);
}

/** Wires the mute switch and the notification opt-in buttons. */
export function alertControls(muteButton, notifyButton) {
  // A speaker, named by what pressing it does ("Mute" while sounds play).
  const paintMute = () => {
    const off = muted();
    muteButton.setAttribute("aria-label", off ? "Unmute" : "Mute");
    muteButton.title = off ? "Sounds are off: press to hear them" : "Sounds are on: press to mute them";
    muteButton.textContent = off ? "\u{1F507}" : "\u{1F50A}";
  };
  muteButton.addEventListener("click", () => {
    try {
      localStorage.setItem(MUTED, muted() ? "0" : "1");
    } catch {
      /* private mode: the switch holds for this page only */
    }
    paintMute();
  });
  paintMute();
  const paintNotify = () => {
    const allowed = "Notification" in window && Notification.permission === "granted";
    notifyButton.hidden = !("Notification" in window) || allowed;
  };
  notifyButton.addEventListener("click", async () => {
    try {
      await Notification.requestPermission();
    } catch {
      /* refused or not offered */
    }
    paintNotify();
  });
  paintNotify();
}

/** Compares the match before and after an update and says what changed. */
// What the opponent did about a takeback or a clock, told to you (offers.js; an arena's berserk).
const OPPONENT_OFFERS = {
  takeback_offer: "asks for a takeback.",
  takeback_decline: "declines the takeback.",
  takeback_accept: "accepts the takeback: the match goes back.",
  takeback_withdraw: "withdraws the takeback ask.",
  give_time: "gives you 15 seconds.",
  berserk: "goes berserk: their clock is halved, and a win scores them a point more.",
};

export class Announcer {
  constructor(seatOf) {
    this.seatOf = seatOf; // () => the page's seat colour, or null
    this.lowSaid = false;
  }

  changed(before, after, action, player) {
    const me = this.seatOf();
    const mineNow = Boolean(me && after.status === "active" && after.to_move === me);
    const mineBefore = Boolean(me && before.status === "active" && before.to_move === me);
    if (after.version === before.version) return;
    const kind = action && action.type;
    const engine = ["setup", "place", "pass", "remove"].includes(kind);
    if (engine && player && player !== me && me) sound("opponent");
    if (mineNow && !mineBefore) {
      sound("turn");
      notify("Your turn", "Magery Online: it is your turn to act.");
    }
    if (after.draw_offer && after.draw_offer !== before.draw_offer && after.draw_offer !== me) {
      sound("draw-offer");
      toast(`${title(after.draw_offer)} offers a draw.`);
    }
    if (kind in OPPONENT_OFFERS && player && me && player !== me) {
      if (kind === "takeback_offer") sound("draw-offer"); // asked: an answer is awaited, as for a draw
      toast(`${title(player)} ${OPPONENT_OFFERS[kind]}`);
    }
    const offer = after.rematch && after.rematch.offered_by;
    if (offer && offer !== (before.rematch && before.rematch.offered_by) && offer !== me) {
      sound("rematch-offer");
      toast(`${title(offer)} offers a rematch.`);
    }
    const declined = after.rematch && after.rematch.declined_by;
    if (declined && declined !== me && declined !== (before.rematch && before.rematch.declined_by)) {
      toast(`${title(declined)} declined the rematch.`);
    }
    if (after.status === "finished" && before.status !== "finished") {
      sound("end");
      // Said to the reader: "You lost — five of your greater minions are dead."
      const words = endWords(after.result, me);
      toast(words || "The match is over.");
      notify("The match is over", `Magery Online: ${words || "the match has ended."}`);
    }
  }

  /** Once per match, when your own clock runs low. */
  clock(match, leftMs) {
    const me = this.seatOf();
    if (!me || this.lowSaid || !match.clock || match.status !== "active") return;
    const low = match.clock.type === "correspondence" ? 3600_000 : 20_000;
    if (match.clock.running === me && leftMs < low) {
      this.lowSaid = true;
      sound("low-time");
      toast("Your time is running low.");
    }
  }
}

function title(colour) {
  return colour.charAt(0).toUpperCase() + colour.slice(1);
}
