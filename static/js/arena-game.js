// An arena game's page: Berserk halves the player's own clock before their
// first action, for one more point if they win (POST /tournaments/{id}/berserk).
// The button goes for good once they went berserk or played a turn, on this
// page or elsewhere (heard from match.js's updates).

import { call } from "./api.js";

const box = document.getElementById("arena-game");
const button = document.getElementById("berserk");
const note = document.getElementById("berserk-note");
const OWN = new Set(["place", "pass", "remove", "berserk"]);

function gone(words) {
  button.hidden = true;
  button.disabled = true;
  if (words) note.textContent = words;
}

if (box && button) {
  const colour = box.dataset.colour;
  const match = location.pathname.split("/").pop();
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await call("POST", `/tournaments/${encodeURIComponent(box.dataset.arena)}/berserk`, { body: { match } });
      gone("Berserk: your clock is halved, and a win scores one more point.");
    } catch (e) {
      note.textContent = `Not berserk: ${e.message}`;
      if (e.code === "berserk_too_late" || e.code === "already_berserk" || e.code === "match_over") gone();
      else button.disabled = false;
    }
  });
  box.dataset.ready = "1"; // its buttons answer from now on
  document.addEventListener("magery:match", (e) => {
    const { match: state, action, player } = e.detail;
    if (button.hidden) return;
    if (state.status === "finished") gone();
    else if (action && player === colour && OWN.has(action.type)) {
      gone(action.type === "berserk" ? "Berserk: your clock is halved, and a win scores one more point." : "");
    }
  });
}
