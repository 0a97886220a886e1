// A Swiss event's page (app/web/swiss_pages.py). A Swiss event changes a few
// times a round, and its rounds are minutes or days apart: the page is not
// pushed but drawn again, from this same page read once, when the next round
// is due, after the player's own join or withdrawal, and else once a minute
// (refresh_seconds) while the event is not over. The server draws it; this
// script only swaps in what it drew.

import { call } from "./api.js";

const root = document.getElementById("swiss");
const data = JSON.parse(root.dataset.swiss);
const id = encodeURIComponent(data.id);
const $ = (name) => document.getElementById(name);
let timer = null;

function schedule() {
  clearTimeout(timer);
  const now = $("swiss-now");
  if (now.dataset.status === "finished") return;
  if (document.hidden) return; // a tab in the background reads nothing; it redraws when shown again
  let wait = data.refresh_seconds * 1000;
  const next = $("next-round");
  if (next) {
    // A second after the round is due, when it may just have been paired.
    const due = Date.parse(next.getAttribute("datetime")) - Date.now() + 1000;
    if (due > 0 && due < wait) wait = due;
  }
  timer = setTimeout(redraw, wait);
}

async function redraw() {
  try {
    const response = await fetch(location.pathname, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (response.ok) {
      const drawn = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("swiss-now");
      if (drawn) {
        const focused = document.activeElement && document.activeElement.id;
        $("swiss-now").replaceWith(drawn);
        if (focused && $(focused)) $(focused).focus();
        root.dataset.version = String(Number(root.dataset.version || 0) + 1);
      }
    }
  } finally {
    schedule();
  }
}

root.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-do]");
  if (!button) return;
  const what = button.dataset.do;
  $("you-error").textContent = "";
  button.disabled = true;
  try {
    await call("POST", `/tournaments/${id}/${what}`);
    $("live-note").textContent = what === "join" ? "You joined the Swiss event." : "You withdrew from the Swiss event.";
    await redraw();
  } catch (e) {
    $("you-error").textContent = e.message;
    button.disabled = false;
  }
});

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") redraw();
});
root.dataset.live = "1";
schedule();
