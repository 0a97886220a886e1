// The account page's grid of notifications (templates/_notify.html): each box
// is saved the moment it changes, by PUT /api/v1/account/notification-preferences
// naming that one kind and channel, and the page's status region says what was
// saved. Without this script the grid is a plain form with a Save button.
//
// Changes are sent one after another, in the order they were made, so the
// server ends with the last one. Once nothing more is waiting, every box is
// set to what the server answered: the stored choices, the one truth the email
// API and a mail's unsubscribe link also change.

import { call } from "./api.js";

const form = document.getElementById("notify-form");
const said = document.getElementById("account-said"); // the page's one role="status"
const echo = document.getElementById("notify-saved"); // the same words where the player is looking
const saveButton = document.getElementById("notify-save");

let queue = Promise.resolve();
let waiting = 0;

function say(words) {
  said.textContent = words;
  echo.textContent = words;
}

function labelOf(box) {
  return box.closest("label").textContent.trim();
}

function showTruth(preferences) {
  for (const box of form.querySelectorAll("input[type=checkbox][data-kind]")) {
    const on = preferences[box.dataset.kind]?.[box.dataset.channel];
    if (typeof on === "boolean") box.checked = on;
  }
}

async function save(box, on) {
  const { kind, channel } = box.dataset;
  try {
    const answer = await call("PUT", "/account/notification-preferences", { body: { [kind]: { [channel]: on } } });
    if (waiting === 1) showTruth(answer.preferences);
    say(`Saved: ${labelOf(box)}, ${on ? "on" : "off"}.`);
  } catch (error) {
    if (waiting === 1) box.checked = !on;
    say(`Not saved: ${labelOf(box)}. ${error.message || error}`);
  } finally {
    waiting -= 1;
  }
}

function changed(event) {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.kind) return;
  const on = box.checked;
  waiting += 1;
  queue = queue.then(() => save(box, on));
}

if (form && said && echo && saveButton) {
  saveButton.hidden = true;
  form.addEventListener("change", changed);
  form.addEventListener("submit", (event) => event.preventDefault()); // Enter in the grid: already saved
}
