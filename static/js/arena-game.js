// An arena game's page: Berserk halves the player's own clock before their
// first action, for one more point if they win (POST /tournaments/{id}/berserk).

import { call } from "./api.js";

const box = document.getElementById("arena-game");
const button = document.getElementById("berserk");
const note = document.getElementById("berserk-note");

if (box && button) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await call("POST", `/tournaments/${encodeURIComponent(box.dataset.arena)}/berserk`);
      note.textContent = "Berserk: your clock is halved, and a win scores one more point.";
      button.hidden = true;
    } catch (e) {
      note.textContent = `Not berserk: ${e.message}`;
      button.disabled = false;
    }
  });
}
