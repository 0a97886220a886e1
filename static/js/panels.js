// The match page's panels, painted from the page's state: the players and
// their clocks, the status line, the seat's buttons, the claim countdown, the end.

import { colourName, otherColour } from "./mages.js";
import { orbPicture } from "./pieces.js";
import { inviteLink } from "./seat.js";
import { endWords, resultWords } from "./results.js";
import { changeText, playerNodes, ratingText } from "./ratings.js";

const $ = (id) => document.getElementById(id);
const COLOURS = ["white", "black"];

export function myTurn(page) {
  const m = page.match;
  return Boolean(page.seat && m.status === "active" && m.to_move === page.seat.seat);
}

export function statusWords(page) {
  const m = page.match;
  if (m.status === "waiting") return "Waiting for an opponent to join.";
  if (m.status === "finished") return `Match over. ${resultWords(m.result)}`;
  const whose = `${colourName(m.to_move)} to move${myTurn(page) ? ": your turn" : ""}`;
  if (m.phase === "setup") return `Setup · ${whose}.`;
  const phase = m.phase === "decision" ? "Decision phase" : "Action phase";
  const notes = [];
  if (m.phase === "decision") for (const c of COLOURS) if (m.passed && m.passed[c]) notes.push(`${colourName(c)} has passed`);
  const seer = (m.effects || []).find((e) => e.mage === "seer");
  if (seer && seer.owed && seer.owed.length) notes.push(`the Seer owes ${seer.owed.map(colourName).join(", then ")} a turn`);
  return `Round ${m.round} · ${phase} · ${whose}.${notes.length ? ` (${notes.join("; ")}.)` : ""}`;
}

function clockText(ms, type) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (type === "correspondence" && s >= 3600) {
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    return d ? `${d} d ${h} h` : `${h} h ${Math.floor((s % 3600) / 60)} min`;
  }
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export function paintClocks(page) {
  const clock = page.match.clock;
  for (const c of COLOURS) {
    const el = $(`player-${c}`).querySelector(".clock");
    el.hidden = !clock;
    if (!clock) continue;
    const running = clock.running === c && page.match.status === "active";
    const left = clock[c] - (running ? performance.now() - page.clockAt : 0);
    if (page.match.status === "active" && typeof clock.setup === "number" && page.match.to_move === c) {
      // Setup runs no clock: the side to set up sees its setup time instead (docs/rules.md).
      const setupLeft = clock.setup - (performance.now() - page.clockAt);
      el.textContent = `Setup ${clockText(setupLeft, "realtime")}`;
      el.className = "clock running setup";
      el.setAttribute("aria-label", `${colourName(c)}'s time left to set up: ${clockText(setupLeft, "realtime")}`);
      el.title = "Time left to set up; the clocks start with the first round";
      continue;
    }
    const low = left < (clock.type === "correspondence" ? 3600_000 : 20_000);
    el.textContent = clockText(left, clock.type) + (low ? " ⚠" : "");
    el.className = `clock${running ? " running" : ""}${low ? " low" : ""}`;
    el.setAttribute("aria-label", `${colourName(c)}'s clock: ${clockText(left, clock.type)}${low ? ", low on time" : ""}`);
    el.title = low ? "Low on time" : `${colourName(c)}'s clock`;
  }
}

export function paintPlayers(page) {
  const m = page.match;
  for (const c of COLOURS) {
    const box = $(`player-${c}`);
    const p = m.players[c];
    const name = box.querySelector(".name");
    const drawn = JSON.stringify(p ? [p.name, p.account, p.rating, p.title] : null);
    if (name.dataset.drawn !== drawn) { // redrawn only when it changes: a link keeps its focus
      name.dataset.drawn = drawn;
      name.replaceChildren(...playerNodes(p, "(free seat)"));
    }
    box.querySelector(".you").hidden = !(page.seat && page.seat.seat === c);
    const presence = box.querySelector(".presence");
    presence.className = `presence ${p && p.name ? (p.connected ? "on" : "off") : ""}`;
    presence.textContent = p && p.name ? (p.connected ? " · ● connected" : " · ○ away") : "";
    box.classList.toggle("to-move", m.status === "active" && m.to_move === c);
    const orb = box.querySelector(".orb");
    const holds = m.status !== "waiting" && m.orb === c;
    orb.hidden = !holds;
    box.querySelector(".orb-note").hidden = !holds;
    if (holds && !orb.firstChild) orb.append(orbPicture());
  }
}

export function paintSeatPanel(page) {
  const m = page.match;
  const seat = page.seat;
  const active = m.status === "active";
  $("invite").hidden = !(seat && m.status === "waiting");
  if (!$("invite").hidden) $("invite-link").value = inviteLink(page.id);
  $("join-box").hidden = !invited(page);
  $("seat-actions").hidden = !(seat && (active || m.status === "waiting"));
  $("resign").hidden = !active;
  $("abort").hidden = !(seat && (m.status === "waiting" || (active && m.phase === "setup")));
  const offer = m.draw_offer;
  const mine = seat && offer === seat.seat;
  const theirs = seat && offer && offer !== seat.seat;
  $("offer-draw").hidden = !active || Boolean(offer);
  $("accept-draw").hidden = $("decline-draw").hidden = !(active && theirs);
  $("withdraw-draw").hidden = !(active && mine);
  $("draw-note").hidden = !(active && offer);
  $("draw-note").textContent = mine ? "You offered a draw." : offer ? `${colourName(offer)} offers a draw.` : "";
  $("seat-link-box").hidden = !(seat && seat.token && m.status !== "finished"); // an account's seat has no link
  paintClaim(page);
  const panel = $("seat-panel");
  panel.hidden = [...panel.children].every((child) => child.hidden);
}

/** Whether the page offers this browser the free seat: a match opened by its
 * invite link, before its reader chose to only watch. */
export function invited(page) {
  const m = page.match;
  const free = COLOURS.some((c) => !m.players[c] || !m.players[c].name);
  return !page.seat && !page.onlyWatching && !page.joining && m.status === "waiting" && free;
}

/** "You are watching" for a spectator (not for the friend a seat waits for);
 * the computer's thinking while a bot is to act. */
export function paintTools(page) {
  const m = page.match;
  $("watching").hidden = Boolean(page.seat) || invited(page);
  // A spectator has no turn to be told of; the computer reads no chat.
  if (!page.seat) $("notify").hidden = true;
  // Against the computer the page comes with no chat at all (templates/match.html).
  if ($("chat")) $("chat").hidden = COLOURS.some((c) => m.players[c] && m.players[c].bot);
  const mover = m.status === "active" ? m.players[m.to_move] : null;
  const text = mover && mover.bot ? "The computer is thinking…" : "";
  if ($("thinking").textContent !== text) $("thinking").textContent = text;
}

export function paintClaim(page) {
  const m = page.match;
  const seat = page.seat;
  const opponent = seat ? m.players[otherColour(seat.seat)] : null;
  const away = Boolean(seat && m.status === "active" && opponent && opponent.name && !opponent.bot && !opponent.connected
    && m.options && m.options.abandon_seconds);
  if (!away) page.awaySince = null;
  else if (page.awaySince === null) page.awaySince = performance.now();
  $("claim-box").hidden = !away;
  if (!away) return;
  const left = Math.ceil(m.options.abandon_seconds - (performance.now() - page.awaySince) / 1000);
  $("claim").disabled = left > 0;
  $("claim-note").textContent = left > 0
    ? `Your opponent is away. If they are not back within ${left} s you may claim the victory.`
    : "Your opponent has been away too long: you may claim the victory.";
}

/** Each side's rated change in the end panel: "White, Ada: 1500? → 1512? (+12)". */
function paintRatingChanges(m) {
  const list = $("rating-changes");
  const moved = COLOURS.filter((c) => m.players[c] && m.players[c].rating_change !== null && m.players[c].rating_change !== undefined);
  list.hidden = moved.length === 0;
  list.replaceChildren(...moved.map((c) => {
    const p = m.players[c];
    const item = document.createElement("li");
    const change = document.createElement("span");
    change.className = `rating-change ${p.rating_change > 0 ? "up" : p.rating_change < 0 ? "down" : ""}`;
    change.textContent = ` (${changeText(p.rating_change)})`;
    // "1500? → 1742?": the rating the match began with, then the one it left.
    const after = { ...p.rating, rating: p.rating.rating + p.rating_change };
    item.append(`${colourName(c)}, ${p.name}: ${ratingText(p.rating)} → ${ratingText(after)}`, change);
    return item;
  }));
}

export async function paintEnd(page) {
  const m = page.match;
  const box = $("end");
  box.hidden = m.status !== "finished";
  $("seed-box").hidden = box.hidden;
  if (box.hidden) return;
  $("result").textContent = endWords(m.result, page.seat ? page.seat.seat : null);
  paintRatingChanges(m);
  $("seed").textContent = m.seed || "(not revealed)";
  $("commitment").textContent = m.seed_commitment;
  const check = $("seed-check");
  if (check.dataset.for === m.seed) return;
  check.dataset.for = m.seed || "";
  if (!m.seed || !crypto.subtle) {
    check.textContent = "Check it yourself: the SHA-256 of the seed must equal the commitment.";
    return;
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(m.seed));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  check.textContent = hex === m.seed_commitment
    ? "✓ This page checked it: the SHA-256 of the seed equals the commitment."
    : "✗ The SHA-256 of the seed does not equal the commitment!";
}
