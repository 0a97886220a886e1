// A person's live channel (issue 20), on every page (templates/person.html):
// one stream, POST /api/v1/stream/person (docs/api.md, "A person's channel"),
// for the signed-in account and/or the guest seats this browser holds (their
// tokens go in the body, never in a URL). Newline-delimited JSON: a `person`
// message whenever something changed, a `ping` when quiet. A dropped stream
// is opened again after a pause that doubles up to 30 s (back to 1 s once a
// message arrives); a stream silent for longer than three keep-alives is taken
// for dead and opened again.
//
// What it shows: the header's counts (matches awaiting your move, challenges
// for you), a toast per challenge for you (Accept / Decline with a reason),
// a toast per challenge you sent while it waits (Cancel), and what became of
// it: accepted takes this page to the new match, declined says why. The
// home page's "Your matches" is drawn by your-matches.js from the same message.

import { call } from "./api.js";
import { heldSeats } from "./seat.js";
import { accountName, csrfToken } from "./session.js";
import { drawYourMatches, noteTurns } from "./your-matches.js";
import { challengeWords } from "./challenge-words.js";
import { noteInbox } from "./bell.js";

const PATH = "/api/v1/stream/person";
const SILENT_MS = 25000; // three keep-alives (7 s) and some: the stream is dead
const KNOWN = "magery.challenges.sent"; // this tab's challenges seen waiting (sessionStorage)
// The decline reasons the API takes (docs/api.md, "Challenges"), as the decliner reads them.
const REASONS = [
  ["generic", "Not now"],
  ["later", "Later, please"],
  ["too_fast", "Too fast"],
  ["too_slow", "Too slow"],
  ["time_control", "Another time control"],
  ["rated", "Rated, please"],
  ["casual", "Casual, please"],
  ["variant", "Another variant"],
];

export const record = { messages: 0, opened: 0, last: null };
window.magery = Object.assign(window.magery || {}, { person: record });

const $ = (id) => document.getElementById(id);
const toasts = $("person-toasts");

function loadKnown() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(KNOWN) || "[]"));
  } catch {
    return new Set();
  }
}
const known = loadKnown();
function saveKnown() {
  sessionStorage.setItem(KNOWN, JSON.stringify([...known]));
}

/** Remember a challenge this page sent (challenge.js), so its answer is acted on here. */
export function sent(challengeId) {
  known.add(challengeId);
  saveKnown();
}

function toast(id, label) {
  let box = document.getElementById(id);
  if (!box) {
    box = document.createElement("div");
    box.id = id;
    box.className = "person-toast";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", label);
    toasts.append(box);
  }
  return box;
}

function para(text, strong) {
  const p = document.createElement("p");
  if (strong) {
    const b = document.createElement("strong");
    b.textContent = strong;
    p.append(b, " ");
  }
  p.append(text);
  return p;
}

function button(text, onClick, primary = false) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (primary) b.className = "primary";
  b.addEventListener("click", onClick);
  return b;
}

function failed(box, error) {
  let note = box.querySelector(".error");
  if (!note) {
    note = document.createElement("p");
    note.className = "error";
    note.setAttribute("role", "alert");
    box.append(note);
  }
  note.textContent = error.message;
}

function incoming(c) {
  const id = `challenge-${c.id}`;
  if (document.getElementById(id)) return;
  const box = toast(id, `Challenge from ${c.challenger}`);
  box.classList.add("incoming");
  box.append(para(`challenges you: ${challengeWords(c, "challenged")}.`, c.challenger));
  const row = document.createElement("div");
  row.className = "row";
  const reason = document.createElement("select");
  reason.id = `${id}-reason`;
  for (const [value, text] of REASONS) reason.append(new Option(text, value));
  const label = document.createElement("label");
  label.htmlFor = reason.id;
  label.className = "visually-hidden";
  label.textContent = "Reason to decline";
  const accept = button("Accept", async () => {
    accept.disabled = true;
    try {
      const done = await call("POST", `/challenges/${encodeURIComponent(c.id)}/accept`);
      window.location.assign(`/matches/${encodeURIComponent(done.match_id)}`);
    } catch (error) {
      accept.disabled = false;
      failed(box, error);
    }
  }, true);
  const decline = button("Decline", async () => {
    decline.disabled = true;
    try {
      await call("POST", `/challenges/${encodeURIComponent(c.id)}/decline`, { body: { reason: reason.value } });
      box.remove();
    } catch (error) {
      decline.disabled = false;
      failed(box, error);
    }
  });
  row.append(accept, label, reason, decline);
  box.append(row);
}

function waiting(c) {
  const id = `challenge-${c.id}`;
  if (document.getElementById(id)) return;
  if (c.open) {  // to nobody yet: its link is on its own page
    const box = toast(id, "Your open challenge");
    const link = document.createElement("a");
    link.href = c.url;
    link.textContent = "its link";
    const words = para(`Waiting for anyone with the link to accept (${challengeWords(c, "challenger")}): `);
    words.append(link, ".");
    box.append(words);
    addCancel(box, c);
    return;
  }
  const box = toast(id, `Your challenge to ${c.challenged}`);
  box.append(para(`Waiting for ${c.challenged} to answer your challenge (${challengeWords(c, "challenger")}).`));
  addCancel(box, c);
}

function addCancel(box, c) {
  const cancel = button("Cancel", async () => {
    cancel.disabled = true;
    try {
      await call("POST", `/challenges/${encodeURIComponent(c.id)}/cancel`);
    } catch (error) {
      cancel.disabled = false;
      failed(box, error);
    }
  });
  box.append(cancel);
}

const told = new Set(); // answers shown: each stays until closed

function answered(c) {
  const id = `challenge-${c.id}`;
  const box = toast(id, `Your challenge to ${c.challenged}`);
  told.add(id);
  box.replaceChildren();
  const what = {
    declined: `declined your challenge: ${c.challenged} ${c.reason_text || "declined"}.`,
    expired: "did not answer your challenge in time.",
    canceled: "— your challenge is canceled.",
  }[c.status];
  box.append(para(what, c.challenged), button("Close", () => {
    told.delete(id);
    box.remove();
  }));
}

function challenges(message) {
  const mine = message.challenges;
  const open = new Set();
  for (const c of mine.in) {
    open.add(`challenge-${c.id}`);
    incoming(c);
  }
  for (const c of mine.out) {
    if (c.status === "pending") {
      open.add(`challenge-${c.id}`);
      if (!known.has(c.id)) sent(c.id);
      waiting(c);
    } else if (c.status === "accepted" && !c.match_id) {
      open.add(`challenge-${c.id}`); // taken, its match not made yet: the next message brings it
    } else if (known.has(c.id)) {
      known.delete(c.id);
      saveKnown();
      if (c.status === "accepted" && c.match_id) {
        window.location.assign(`/matches/${encodeURIComponent(c.match_id)}`);
        return;
      }
      answered(c);
    }
  }
  for (const box of [...toasts.children]) if (!open.has(box.id) && !told.has(box.id)) box.remove();
  const count = mine.in.length;
  $("challenge-count").textContent = String(count);
  $("challenge-badge").setAttribute("aria-label", `Challenges for you: ${count}`);
  $("challenge-badge").hidden = count === 0;
}

function show(message) {
  record.messages += 1;
  record.last = message;
  $("person").hidden = false;
  $("awaiting-count").textContent = String(message.awaiting);
  $("awaiting").setAttribute("aria-label", `Matches awaiting your move: ${message.awaiting}`);
  $("awaiting").classList.toggle("due", message.awaiting > 0);
  challenges(message);
  if (message.inbox && document.getElementById("bell")) noteInbox(message.inbox);
  drawYourMatches(message.matches);
  noteTurns(message.matches);
}

$("challenge-badge").addEventListener("click", () => {
  const first = toasts.querySelector(".incoming button");
  if (first) first.focus();
});

// ---- the stream -----------------------------------------------------------------

function who() {
  return { account: accountName(), seats: heldSeats().slice(0, 200) };
}

async function listen(signal, seats) {
  const headers = { "Content-Type": "application/json", Accept: "application/x-ndjson" };
  const csrf = csrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const response = await fetch(PATH, { method: "POST", headers, body: JSON.stringify({ seats }), signal });
  if (!response.ok || !response.body) throw new Error(`the channel answered ${response.status}`);
  record.opened += 1;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 1);
      if (!line) continue;
      const message = JSON.parse(line);
      listen.heard();
      if (message.type === "person") show(message);
    }
  }
}

async function run() {
  let pause = 1000;
  for (;;) {
    const { account, seats } = who();
    if (!account && !seats.length) {
      // Nobody yet: a guest's first seat (a match made on this page) opens it.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      continue;
    }
    const stop = new AbortController();
    let heardAt = Date.now();
    listen.heard = () => {
      heardAt = Date.now();
      pause = 1000;
    };
    const watch = setInterval(() => {
      const silent = Date.now() - heardAt > SILENT_MS;
      const moreSeats = !account && heldSeats().length !== seats.length;
      if (silent || moreSeats) stop.abort();
    }, 5000);
    try {
      await listen(stop.signal, seats);
    } catch {
      /* dropped, refused or aborted: opened again below */
    } finally {
      clearInterval(watch);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 30000);
  }
}

run();
