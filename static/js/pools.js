// Quick pairing on the home page (templates/pools_panel.html; docs/web.md):
// press a pool, wait (a long-held GET /pools/wait, asked again while waiting),
// and go to the match once paired; Cancel leaves; after a while with nobody,
// the computer is offered. A guest is known to the pools by its ticket, kept in
// this browser like a seat's token; an account by its session.

import { ApiError, call, matches } from "./api.js";
import { savedName, saveSeat } from "./seat.js";
import { accountName, csrfToken } from "./session.js";

const $ = (id) => document.getElementById(id);
const TICKET = "magery.pool.ticket";
const HELD_SECONDS = 25;

const panel = { variant: $("pool-variant"), buttons: $("pool-buttons"), wait: $("pool-wait"),
  status: $("pool-status"), offer: $("pool-offer"), level: $("pool-level"), error: $("pool-error") };
let waiting = null; // {controller, words, offer} while this page waits

function ticket() {
  return accountName() ? null : localStorage.getItem(TICKET);
}

function showVariant() {
  for (const button of panel.buttons.querySelectorAll("button.pool-button")) {
    button.hidden = button.dataset.variant !== panel.variant.value;
  }
}

/** Why a signed-in player still waits: nobody within the range yet, and the range as it is now. */
function reachWords(reach) {
  if (!reach) return "";
  const widens = reach.within < reach.most ? `; the range widens as you wait, up to \u00b1${reach.most}` : "";
  return ` Nobody within \u00b1${reach.within} of your ${reach.rating} yet${widens}.`;
}

function showWaiting(words, seconds, reach = null) {
  const waited = seconds >= 1 ? ` (${Math.floor(seconds)} s)` : "";
  panel.status.textContent = `Looking for an opponent: ${words}${waited}…${reachWords(reach)}`;
}

function setWaiting(on) {
  panel.wait.hidden = !on;
  for (const button of panel.buttons.querySelectorAll("button")) button.disabled = on;
  panel.variant.disabled = on;
}

function headers() {
  const sent = { Accept: "application/json" };
  const mine = ticket();
  if (mine) sent.Authorization = `Bearer ${mine}`;
  return sent;
}

async function heldWait(signal) {
  const response = await fetch(`/api/v1/pools/wait?timeout=${HELD_SECONDS}`, { headers: headers(), signal });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

function toMatch(pairing) {
  if (pairing.token) saveSeat(pairing.id, pairing.seat, pairing.token);
  window.location.assign(`/matches/${encodeURIComponent(pairing.id)}`);
}

function answered(body) {
  if (body.status === "paired") {
    waiting = null;
    panel.status.textContent = "Opponent found: to the match…";
    toMatch(body.match);
    return true;
  }
  showWaiting(waiting.words, body.waited_seconds, body.rating_range);
  if (body.computer && !waiting.offer) {
    waiting.offer = body.computer;
    const whom = accountName() ? "near your rating" : "for a new player";
    panel.level.textContent = `(level “${body.computer.level}”, ${whom})`;
    panel.offer.hidden = false;
  }
  return false;
}

async function press(button) {
  panel.error.textContent = "";
  const words = `${button.querySelector(".control").textContent} ${panel.variant.selectedOptions[0].textContent}`;
  waiting = { controller: new AbortController(), words, offer: null };
  setWaiting(true);
  panel.offer.hidden = true;
  showWaiting(words, 0);
  const mine = waiting;
  try {
    const body = await call("POST", `/pools/${encodeURIComponent(button.dataset.pool)}/join`,
      { token: ticket(), body: { name: accountName() || savedName() || "anonymous" } });
    if (body.ticket) localStorage.setItem(TICKET, body.ticket);
    if (answered(body)) return;
    while (waiting === mine) {
      if (answered(await heldWait(mine.controller.signal))) return;
    }
  } catch (error) {
    if (waiting !== mine) return; // cancelled: the aborted request says nothing
    waiting = null;
    setWaiting(false);
    panel.error.textContent = error instanceof ApiError ? `Quick pairing stopped: ${error.message}` : String(error);
  }
}

async function cancel() {
  const was = waiting;
  waiting = null;
  if (was) was.controller.abort();
  setWaiting(false);
  panel.offer.hidden = true;
  panel.status.textContent = "";
  try {
    const left = await call("POST", "/pools/leave", { token: ticket() });
    if (left.status === "paired") toMatch(left.match); // paired just before the Cancel landed
  } catch (error) {
    panel.error.textContent = error instanceof ApiError ? error.message : String(error);
  }
}

async function playComputer() {
  const offer = waiting && waiting.offer;
  if (!offer) return;
  await cancel();
  try {
    const made = await matches.create({ opponent: offer.opponent, options: offer.options, rated: offer.rated,
      name: accountName() || savedName() || "anonymous" });
    if (made.token) saveSeat(made.match.id, made.seat, made.token);
    window.location.assign(`/matches/${encodeURIComponent(made.match.id)}`);
  } catch (error) {
    panel.error.textContent = error instanceof ApiError ? `Not created: ${error.message}` : String(error);
  }
}

// A page that closes leaves the pools at once (the lease would within seconds anyway).
window.addEventListener("pagehide", () => {
  if (!waiting) return;
  const sent = headers();
  const csrf = csrfToken();
  if (csrf) sent["X-CSRF-Token"] = csrf;
  fetch("/api/v1/pools/leave", { method: "POST", headers: sent, keepalive: true }).catch(() => {});
});

panel.variant.addEventListener("change", showVariant);
panel.buttons.addEventListener("click", (event) => {
  const button = event.target.closest("button.pool-button");
  if (button && !waiting) press(button);
});
$("pool-cancel").addEventListener("click", cancel);
$("pool-computer").addEventListener("click", playComputer);
showVariant();
