// A challenge's page (templates/challenge_link.html): its challenger copies
// the link; a signed-in visitor accepts, and goes to the match made.

import { call } from "./api.js";

const url = document.getElementById("challenge-url");
if (url) {
  url.value = new URL(url.value, window.location.origin).href;
  const copied = document.getElementById("challenge-copied");
  document.getElementById("challenge-copy").addEventListener("click", async () => {
    url.select();
    try {
      await navigator.clipboard.writeText(url.value);
      copied.textContent = "Link copied.";
    } catch {
      copied.textContent = "Select the link and copy it.";
    }
  });
}

const form = document.getElementById("challenge-accept-form");
if (form) {
  const error = document.getElementById("challenge-error");
  const accept = document.getElementById("challenge-accept");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    accept.disabled = true;
    try {
      const taken = await call("POST", `/challenges/${encodeURIComponent(form.dataset.id)}/accept`);
      window.location.assign(`/matches/${encodeURIComponent(taken.match_id)}`);
    } catch (failure) {
      error.textContent = failure.message;
      accept.disabled = false;
    }
  });
}
