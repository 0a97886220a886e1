// The bell in the header (templates/_bell.html): a signed-in player's inbox.
// The unread count comes with every `person` message of the live channel
// (person.js calls noteInbox); opening the bell reads the newest notices,
// GET /api/v1/account/notifications (docs/api.md, "Notifications"), and marks
// them read up to the newest shown. Escape, or a press outside, closes it and
// gives the focus back to the bell.

import { call } from "./api.js";

const $ = (id) => document.getElementById(id);
const bell = $("bell");
const panel = $("bell-panel");
const list = $("bell-list");
const more = $("bell-more");
let next = null; // the `before` of the older page
let shownLatest = 0; // the newest notice the panel holds

export const bellRecord = { opened: 0, unread: 0 };
window.magery = Object.assign(window.magery || {}, { bell: bellRecord });

function count(unread) {
  bellRecord.unread = unread;
  const badge = $("bell-count");
  badge.textContent = String(unread);
  badge.hidden = unread === 0;
  bell.classList.toggle("due", unread > 0);
  bell.setAttribute("aria-label", unread ? `Notifications: ${unread} unread` : "Notifications: none unread");
}

function where(n) {
  const d = n.data || {};
  if (d.match_id) return `/matches/${encodeURIComponent(d.match_id)}`;
  if (n.kind === "challenge") return "/";
  return null;
}

function item(n) {
  const li = document.createElement("li");
  li.className = n.read ? "read" : "unread";
  const href = where(n);
  const text = document.createElement(href ? "a" : "span");
  if (href) text.href = href;
  text.className = "bell-text";
  text.textContent = n.text;
  if (!n.read) {
    const mark = document.createElement("span");
    mark.className = "visually-hidden";
    mark.textContent = "New: ";
    text.prepend(mark);
  }
  const when = document.createElement("time");
  when.dateTime = n.created_at;
  when.textContent = new Date(n.created_at).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
  li.append(text, when);
  return li;
}

async function load(before) {
  const query = before ? `?before=${before}` : "";
  const page = await call("GET", `/account/notifications${query}`);
  if (!before) list.replaceChildren();
  for (const n of page.notifications) list.append(item(n));
  next = page.next;
  more.hidden = next === null;
  $("bell-empty").hidden = list.children.length > 0;
  if (!before && page.notifications.length) shownLatest = page.notifications[0].id;
  return page;
}

async function open(focus = true) {
  bell.setAttribute("aria-expanded", "true");
  panel.hidden = false;
  bellRecord.opened += 1;
  $("bell-error").hidden = true;
  try {
    const page = await load(null);
    if (page.unread && shownLatest) {
      const after = await call("POST", "/account/notifications/read", { body: { up_to: shownLatest } });
      count(after.unread);
    }
  } catch (error) {
    $("bell-error").textContent = error.message;
    $("bell-error").hidden = false;
  }
  if (focus) panel.focus();
}

function close(focusBell) {
  if (panel.hidden) return;
  panel.hidden = true;
  bell.setAttribute("aria-expanded", "false");
  if (focusBell) bell.focus();
}

/** The inbox's part of a `person` message: `{unread, latest}`. */
export function noteInbox(inbox) {
  if (!inbox || !bell) return;
  count(inbox.unread);
  if (!panel.hidden && inbox.latest > shownLatest) open(false); // a new one while the list is open: shown at once
}

if (bell) { // a guest's page has no bell
  bell.addEventListener("click", () => (panel.hidden ? open() : close(true)));
  more.addEventListener("click", () => load(next).catch(() => {}));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) close(true);
  });
  document.addEventListener("pointerdown", (event) => {
    if (!panel.hidden && !panel.contains(event.target) && !bell.contains(event.target)) close(false);
  });
}
