// "Your matches" on the home page (templates/your_matches.html), drawn from the
// live channel's `person` message (person.js): those awaiting your move first,
// each with the opponent and the clock (real time: both sides' time left;
// correspondence: the time left to move). And the opt-in notification when it
// becomes your move in a correspondence match, while any page of the site is
// open (the browser's Notification API; the choice is kept in localStorage).

import { timeWords, variantName } from "./challenge-words.js";

const NOTIFY = "magery.notify-turns";
const $ = (id) => document.getElementById(id);
export const record = { notifications: [] };
window.magery = Object.assign(window.magery || {}, { turns: record });

let shown = [];
let receivedAt = 0;

function left(ms) {
  if (ms >= 86400000) return `${Math.floor(ms / 86400000)} d ${Math.floor((ms % 86400000) / 3600000)} h`;
  if (ms >= 3600000) return `${Math.floor(ms / 3600000)} h ${Math.floor((ms % 3600000) / 60000)} min`;
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockWords(m) {
  const c = m.clock;
  if (!c) return m.status === "waiting" ? "waiting for an opponent" : timeWords(m.time_control);
  const gone = Date.now() - receivedAt;
  if (typeof c.setup === "number") {
    const setup = left(c.setup - gone);
    return m.awaiting ? `${setup} left to set up` : `their setup: ${setup} left`;
  }
  const time = (side) => c[side] - (c.running === side ? gone : 0);
  const them = m.colour === "white" ? "black" : "white";
  if (c.type === "correspondence") {
    if (!c.running) return timeWords(m.time_control);
    return c.running === m.colour ? `${left(time(m.colour))} left to move` : `their move: ${left(time(them))} left`;
  }
  return `you ${left(time(m.colour))} · them ${left(time(them))}`;
}

function item(m) {
  const li = document.createElement("li");
  li.className = m.awaiting ? "awaiting" : "";
  const link = document.createElement("a");
  link.href = `/matches/${encodeURIComponent(m.id)}`;
  link.textContent = `vs ${m.opponent || "nobody yet"}`;
  const who = document.createElement("span");
  who.className = "who";
  const what = document.createElement("span");
  what.className = "meta";
  what.textContent = `${m.rated ? "Rated" : "Casual"} · ${variantName(m.variant)}, ${m.colour === "white" ? "White" : "Black"} · `;
  const clock = document.createElement("span");
  clock.className = "clock-left";
  clock.dataset.match = m.id;
  clock.textContent = clockWords(m);
  what.append(clock);
  who.append(link, " ", what);
  li.append(who);
  if (m.awaiting) {
    const due = document.createElement("strong");
    due.className = "your-move";
    due.textContent = "Your move";
    who.prepend(due, " ");
  }
  return li;
}

export function drawYourMatches(matches) {
  shown = matches;
  receivedAt = Date.now();
  const panel = $("your-matches");
  if (!panel) return;
  panel.hidden = false;
  const list = $("your-list");
  list.replaceChildren(...(matches.length ? matches.map(item) : [empty()]));
}

function empty() {
  const li = document.createElement("li");
  li.className = "empty";
  li.textContent = "No match running: create one, or challenge a player from their profile.";
  return li;
}

// The clocks tick between messages.
setInterval(() => {
  for (const span of document.querySelectorAll(".clock-left")) {
    const m = shown.find((x) => x.id === span.dataset.match);
    if (m) span.textContent = clockWords(m);
  }
}, 1000);

// ---- the notification ------------------------------------------------------------

let before = null; // ids awaiting your move at the last message (null: none seen yet)

function wanted() {
  return localStorage.getItem(NOTIFY) === "1" && "Notification" in window && Notification.permission === "granted";
}

export function noteTurns(matches) {
  const now = new Set(matches.filter((m) => m.awaiting).map((m) => m.id));
  if (before !== null && wanted()) {
    for (const m of matches) {
      const correspondence = m.time_control && m.time_control.type === "correspondence";
      const here = window.location.pathname === `/matches/${m.id}` && !document.hidden;
      if (m.awaiting && correspondence && !before.has(m.id) && !here) {
        record.notifications.push(m.id);
        const note = new Notification(`Your move against ${m.opponent}`, { body: variantName(m.variant), tag: `turn-${m.id}` });
        note.onclick = () => window.location.assign(`/matches/${encodeURIComponent(m.id)}`);
      }
    }
  }
  before = now;
}

function showNotifyState() {
  const state = $("notify-state");
  const turn = $("notify-turns");
  if (!state || !turn) return;
  if (!("Notification" in window)) {
    turn.hidden = true;
    state.textContent = "This browser has no notifications.";
    return;
  }
  const on = wanted();
  turn.textContent = on ? "Stop notifying me" : "Notify me when it is my move in a correspondence match";
  turn.setAttribute("aria-pressed", String(on));
  state.textContent = Notification.permission === "denied" ? "Notifications are blocked in this browser's settings." : "";
}

const turnButton = $("notify-turns");
if (turnButton) {
  turnButton.addEventListener("click", async () => {
    if (wanted()) {
      localStorage.removeItem(NOTIFY);
    } else {
      const permission = await Notification.requestPermission();
      if (permission === "granted") localStorage.setItem(NOTIFY, "1");
    }
    showNotifyState();
  });
  showNotifyState();
}
