// "Challenge" on a profile (templates/challenge_form.html): POST
// /api/v1/challenges/{name} with the options chosen. A computer level accepts
// at once: the page goes to the match. A person's answer comes on the live
// channel (person.js): accepted takes this page to the match, declined says why.

import { call } from "./api.js";
import { sent } from "./person.js";

const form = document.getElementById("challenge-form");
const error = document.getElementById("challenge-error");
const status = document.getElementById("challenge-status");
const send = document.getElementById("challenge-send");

function timeControl(value) {
  const [type, a, b] = value.split(":");
  if (type === "realtime") return { type, minutes: Number(a), increment: Number(b) };
  if (type === "correspondence") return { type, days: Number(a) };
  return null;
}

// "Anyone with the link": an open challenge, whose page (its link, with a copy
// button) the challenger is taken to.
const who = form.elements.who;
function named() {
  send.textContent = who.value === "open" ? send.dataset.open : send.dataset.player;
}
who.addEventListener("change", named);

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  send.disabled = true;
  const name = form.dataset.name;
  const body = {
    variant: form.elements.variant.value,
    time_control: timeControl(form.elements.time.value),
    colour: form.elements.colour.value,
    rated: form.elements.rated.checked,
    no_progress_rounds: Number(form.elements.rounds.value),
  };
  try {
    if (who.value === "open") {
      const opened = await call("POST", "/challenges/open", { body });
      window.location.assign(opened.url);
      return;
    }
    const made = await call("POST", `/challenges/${encodeURIComponent(name)}`, { body });
    if (made.match_id) {
      window.location.assign(`/matches/${encodeURIComponent(made.match_id)}`);
      return;
    }
    sent(made.id);
    status.textContent = `Challenge sent: waiting for ${name} to answer.`;
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    send.disabled = false;
  }
});
