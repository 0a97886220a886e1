// The home page: create a match, join an open one in one click, watch a live
// one, see recent results. Everything through the public API.

import { ApiError, matches } from "./api.js";
import { checkFields, placeRefusal } from "./fields.js";
import { resultWords } from "./results.js";
import { loadSeat, saveName, savedName, saveSeat } from "./seat.js";
import { accountName } from "./session.js";
import { playerNodes } from "./ratings.js";

const $ = (id) => document.getElementById(id);
const form = $("create");
const VARIANT = { standard: "Standard", rotating: "Rotating", archmage: "Archmage", ultimate_archmage: "Ultimate archmage" };

// Signed in, the account plays under its own name (a hidden field holds it); a
// guest's name is remembered from one visit to the next.
const member = accountName();
if (!member) $("name").value = savedName();
const keepName = (name) => { if (!member) saveName(name); };

function showTimeFields() {
  const kind = $("time-control").value;
  $("realtime-fields").hidden = kind !== "realtime";
  $("correspondence-fields").hidden = kind !== "correspondence";
}
$("time-control").addEventListener("change", showTimeFields);
showTimeFields();

function options(opponent) {
  const kind = $("time-control").value;
  let timeControl = null;
  if (kind === "realtime") {
    timeControl = { type: "realtime", minutes: Number($("minutes").value), increment: Number($("increment").value) };
  } else if (kind === "correspondence") {
    timeControl = { type: "correspondence", days: Number($("days").value) };
  }
  const chosen = {
    variant: $("variant").value,
    no_progress_rounds: Number.parseInt($("no-progress").value, 10),
    time_control: timeControl,
  };
  // A seek's rating range (issue 20): the field is there only when signed in,
  // and a computer opponent joins at once, so it asks for none.
  const range = $("rating-range") ? $("rating-range").value : "";
  if (range && opponent === "human") chosen.rating_range = Number.parseInt(range, 10);
  // A friend's match is found by its link alone; "human" is a seek listed for anyone.
  if (opponent === "friend") chosen.listed = false;
  return chosen;
}

function showRangeField() {
  if ($("range-field")) $("range-field").hidden = $("opponent").value !== "human"; // a seek's range
}
$("opponent").addEventListener("change", showRangeField);
showRangeField();

/** Focuses a field, opening the folded options first if it is among them. */
function focusField(field) {
  const folded = field.closest("details");
  if (folded) folded.open = true;
  field.focus();
}

/** Creates the match the form describes against `opponent` ("human": an open
 * seek; "friend": by link only; "bot:<level>"); `button` is the one pressed. */
async function create(opponent, button) {
  const name = $("name").value.trim() || "anonymous";
  // A refusal is said where the person acted: beside the way pressed, or in the form.
  const said = button.classList.contains("way") ? $("ways-error") : $("create-error");
  $("create-error").textContent = "";
  $("ways-error").textContent = "";
  const wrong = checkFields();
  if (wrong) {
    $("create-error").textContent = "Not created: see the field marked below.";
    focusField(wrong);
    return;
  }
  button.disabled = true;
  try {
    const body = { options: options(opponent), seat: $("colour").value,
      opponent: opponent === "friend" ? "human" : opponent, name };
    if ($("rated") && $("rated").checked) body.rated = true; // the box is there only when signed in
    const made = await matches.create(body);
    keepName(name);
    if (made.token) saveSeat(made.match.id, made.seat, made.token); // an account's seat may come without one
    window.location.assign(`/matches/${encodeURIComponent(made.match.id)}`);
  } catch (error) {
    const field = error instanceof ApiError ? placeRefusal(error.message) : null;
    if (field) {
      $("create-error").textContent = "Not created: see the field marked below.";
      focusField(field);
    } else {
      said.textContent = error instanceof ApiError ? `Not created: ${error.message}` : String(error);
    }
    button.disabled = false;
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  create($("opponent").value, form.querySelector("button[type=submit]"));
});
for (const way of [$("way-friend"), $("way-computer")]) {
  way.addEventListener("click", () => create(way.dataset.opponent, way));
}

function timeWords(tc) {
  if (!tc) return "untimed";
  if (tc.type === "realtime") return `${tc.minutes} min + ${tc.increment} s`;
  return `${tc.days} days a move`;
}

function names(m) {
  const w = m.players.white && m.players.white.name ? m.players.white.name : "…";
  const b = m.players.black && m.players.black.name ? m.players.black.name : "…";
  return `${w} (White) v ${b} (Black)`;
}

function row(m, button) {
  const li = document.createElement("li");
  const who = document.createElement("span");
  who.className = "who";
  const title = document.createElement("span");
  // An account's name links to its profile, with its rating (ratings.js); a guest's is text.
  if (m.status === "waiting") {
    const seated = m.players.white && m.players.white.name ? "white" : "black";
    title.append(...playerNodes(m.players[seated]), ` waits, as ${seated === "white" ? "White" : "Black"}`);
  } else {
    title.append(...playerNodes(m.players.white), " (White) v ", ...playerNodes(m.players.black), " (Black)");
  }
  const meta = document.createElement("span");
  meta.className = "meta";
  const result = m.result ? ` · ${resultWords(m.result)}` : ""; // as the match page says it
  meta.textContent = ` · ${m.rated ? "Rated" : "Casual"} · ${VARIANT[m.options.variant] || m.options.variant}, ${timeWords(m.options.time_control)}${m.status === "active" ? `, round ${m.round}` : ""}${rangeWords(m)}${result}`;
  who.append(title, meta);
  li.append(who, button);
  return li;
}

/** A seek's rating range as the list says it: ", ratings 1400–1800" (the creator's ± its range). */
function rangeWords(m) {
  const span = rangeOf(m);
  if (!span) return "";
  return span.low === null ? `, ratings within \u00b1${span.range}` : `, ratings ${span.low}\u2013${span.high}`;
}

/** A waiting seek's range: {range, low, high} (low and high null when its creator shows no rating), or null. */
function rangeOf(m) {
  const range = m.options.rating_range;
  if (m.status !== "waiting" || !range) return null;
  const creator = ["white", "black"].map((c) => m.players[c]).find((p) => p && p.rating);
  if (!creator) return { range, low: null, high: null };
  return { range, low: creator.rating.rating - range, high: creator.rating.rating + range };
}

// The signed-in player's rating in each variant, drawn by the server (none for a guest).
const myRatings = $("open-list").dataset.myRatings ? JSON.parse($("open-list").dataset.myRatings) : null;

/** Why a seek's range closes it to this player ("Open to 1400–1600; you are 1720"), or "" when it is open. */
function closedWords(m) {
  const span = rangeOf(m);
  if (!span || span.low === null) return "";
  const open = `Open to ${span.low}\u2013${span.high}`;
  if (!myRatings) return `${open}; sign in to join (a guest has no rating)`;
  const mine = myRatings[m.options.variant];
  if (mine === undefined || (mine >= span.low && mine <= span.high)) return "";
  return `${open}; you are ${mine}`;
}

function link(text, href, label) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  a.setAttribute("aria-label", label);
  return a;
}

const refused = new Map(); // seeks this page was refused: id → why

/** Says a refusal in the row the person acted in, beside its button (not in the form far above). */
function sayInRow(button, text) {
  const li = button.closest("li");
  let said = li.querySelector(".refusal");
  if (!said) {
    said = Object.assign(document.createElement("p"), { className: "refusal" });
    said.setAttribute("role", "alert");
    li.append(said);
  }
  said.textContent = text;
}

async function join(m, button) {
  button.disabled = true;
  const name = $("name").value.trim() || "anonymous";
  try {
    const joined = await matches.join(m.id, name);
    keepName(name);
    if (joined.token) saveSeat(m.id, joined.seat, joined.token);
    window.location.assign(`/matches/${encodeURIComponent(m.id)}`);
  } catch (error) {
    sayInRow(button, error instanceof ApiError ? `Could not join: ${error.message}` : String(error));
    if (error instanceof ApiError && ["rating_out_of_range", "forbidden"].includes(error.code)) {
      refused.set(m.id, `Not open to you: ${error.message}`); // said again when the list is drawn anew
      button.textContent = "Not open to you"; // the seek stays; the words beside it say why (a range, a rated match)
      return;
    }
    button.disabled = false;
    button.textContent = "Taken";
    refreshLists();
  }
}

async function fill(listId, status, make, query = {}) {
  const list = $(listId);
  let page;
  try {
    page = await matches.list({ status, limit: 10, ...query });
  } catch {
    list.replaceChildren(Object.assign(document.createElement("li"), { className: "empty", textContent: "Could not load." }));
    return;
  }
  const items = page.matches.map((m) => row(m, make(m)));
  if (!items.length) items.push(Object.assign(document.createElement("li"), { className: "empty", textContent: "None right now." }));
  list.replaceChildren(...items);
}

/** A seat of this match is this browser's: its token kept here, or the signed-in account's (the state names it). */
function mine(m) {
  if (loadSeat(m.id)) return true;
  return Boolean(member) && ["white", "black"].some((c) => m.players[c] && m.players[c].account === member);
}

function refreshLists() {
  fill("open-list", "waiting", (m) => {
    if (mine(m)) return link("Open", `/matches/${encodeURIComponent(m.id)}`, `Open your match ${names(m)}`);
    const closed = refused.get(m.id) || closedWords(m);
    if (closed) return Object.assign(document.createElement("span"), { className: "closed", textContent: closed });
    const b = document.createElement("button");
    b.type = "button";
    b.className = "primary";
    b.textContent = "Join";
    b.setAttribute("aria-label", `Join ${names(m)}`);
    b.addEventListener("click", () => join(m, b));
    return b;
  }, { here: true }); // a seek whose creator left is not open to anyone (docs/web.md)
  fill("live-list", "active", (m) => link(mine(m) ? "Play" : "Watch", `/matches/${encodeURIComponent(m.id)}`, `${mine(m) ? "Play" : "Watch"} ${names(m)}`), { here: true });
  fill("recent-list", "finished", (m) => link("Replay", `/matches/${encodeURIComponent(m.id)}`, `Replay ${names(m)}`));
}

refreshLists();
setInterval(refreshLists, 15000);
