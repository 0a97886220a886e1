// Right after signing up or in (templates/claim.html): the seats this browser
// played as a guest (their tokens kept in localStorage, seat.js) are handed to
// POST /account/claim, which makes each one whose token proves it the
// account's; then the page goes on to where the player was. The tokens stay
// kept: they still prove their seats, as before.

import { heldSeats } from "./seat.js";
import { csrfToken } from "./session.js";

const box = document.getElementById("claim");
const status = document.getElementById("claim-status");
const next = document.getElementById("claim-next").getAttribute("href");
const MOST = 200; // the route's limit

function goOn() {
  window.location.replace(next);
}

async function claim(seats) {
  const response = await fetch("/account/claim", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrfToken() || "" },
    body: JSON.stringify({ seats }),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body && body.detail ? body.detail : `the server answered ${response.status}`);
  return body;
}

async function start() {
  const seats = heldSeats().slice(0, MOST);
  if (!seats.length) return goOn();
  try {
    const done = await claim(seats);
    const n = done.claimed.length;
    box.dataset.claimed = String(n);
    status.textContent = n ? `${n} ${n === 1 ? "match is" : "matches are"} now your account's.` : "Nothing to bring along.";
    goOn();
  } catch (error) {
    // Signed in all the same: say why the seats stayed guests', and let the player go on.
    status.textContent = `Your guest matches could not be brought along: ${error.message}.`;
    box.dataset.claimed = "failed";
  }
}

start();
