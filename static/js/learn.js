// The Learn page: the minion explorer (choose a type, see where it moves on an
// empty arena, click a square to stand it there) and the pictures of the
// types. Where a minion moves is the engine's (the page carries its move table,
// app/rules/vocabulary.move_table); the words are the engine's vocabulary.

import { aType, typeName } from "./mages.js";
import { minionPicture } from "./pieces.js";

const root = document.getElementById("learn");
const MOVES = JSON.parse(root.dataset.moves);
const arena = document.getElementById("explorer");
const words = document.getElementById("explorer-words");
const shown = { type: null, square: "d4" };

for (const pic of root.querySelectorAll(".pic[data-type]")) pic.append(minionPicture("white", pic.dataset.type));

function paint() {
  const { type, square } = shown;
  const targets = new Set(type ? MOVES[type][square] : []);
  for (const b of arena.querySelectorAll("button.sq")) {
    const sq = b.dataset.square;
    b.querySelector("svg")?.remove();
    b.classList.toggle("to", targets.has(sq));
    b.classList.toggle("from", Boolean(type) && sq === square);
    if (type && sq === square) b.append(minionPicture("white", type));
    b.setAttribute("aria-label", type && sq === square ? `${sq}, White's ${type}` : targets.has(sq) ? `${sq}, it may move here` : sq);
  }
  for (const b of root.querySelectorAll(".type-button")) b.setAttribute("aria-pressed", String(b.dataset.type === type));
  if (type) {
    const list = MOVES[type][square];
    words.textContent = `${typeName(type)} on ${square}: ${list.length} squares (${list.join(", ")}).`;
  }
}

for (const b of root.querySelectorAll(".type-button")) {
  b.addEventListener("click", () => { shown.type = b.dataset.type; paint(); });
}
arena.addEventListener("click", (e) => {
  const b = e.target.closest("button.sq");
  if (!b || !shown.type) return;
  shown.square = b.dataset.square;
  paint();
  words.textContent = `${aType(shown.type)[0].toUpperCase()}${aType(shown.type).slice(1)} stands on ${shown.square}: ` +
    `it may move to ${MOVES[shown.type][shown.square].length} squares (${MOVES[shown.type][shown.square].join(", ")}).`;
});

// A ruling asked for by its anchor (#r9, from a refusal on the match page) is shown and focused.
function focusRuling() {
  const target = /^#r\d+$/.test(window.location.hash) && document.querySelector(window.location.hash);
  if (target) { target.classList.add("asked"); target.focus(); }
}
window.addEventListener("hashchange", focusRuling);
focusRuling();
document.documentElement.dataset.ready = "1";
