// A Swiss event's page (app/web/swiss_pages.py). A Swiss event changes a few
// times a round, and its rounds are minutes or days apart: the page is not
// pushed but drawn again, from this same page read once, when the next round
// is due (and a few times soon after, until it is drawn), after the player's
// own join or withdrawal, and else once a minute (refresh_seconds) while the
// event is not over. The server draws it; this
// script only swaps in what it drew.

import { call } from "./api.js";

const root = document.getElementById("swiss");
const data = JSON.parse(root.dataset.swiss);
const id = encodeURIComponent(data.id);
const $ = (name) => document.getElementById(name);
let timer = null;
let late = 0; // looks since the next round fell due without being drawn
const LATE_TRIES = 4;

function schedule() {
  clearTimeout(timer);
  const now = $("swiss-now");
  if (now.dataset.status === "finished") return;
  if (document.hidden) return; // a tab in the background reads nothing; it redraws when shown again
  let wait = data.refresh_seconds * 1000;
  const next = $("next-round");
  const due = next ? Date.parse(next.getAttribute("datetime")) - Date.now() + 1000 : null;
  if (due !== null && due > 0) {
    // A second after the round is due, when it may just have been paired.
    late = 0;
    wait = Math.min(wait, due);
  } else if (due !== null && late < LATE_TRIES) {
    // Due and not drawn yet (the server pairs it within its tick, or waits for a game):
    // a few more looks, 2, 4, 8 and 16 s on, then once a minute again.
    wait = Math.min(wait, 2000 * 2 ** late);
    late += 1;
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
