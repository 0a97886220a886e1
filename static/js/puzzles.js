// The puzzle page: one action wins, and only one. The board and the turn panel
// are the match page's own (board.js, controls.js, chooser.js): the solver picks
// from the legal actions the server listed, each try goes to
// POST /api/v1/puzzles/{id}/attempt with every action so far, and the answer
// says right so far (the opponent's replies are drawn), solved, or failed (the
// solution is replayed on the board, step by step).
//
// Marks on <html> for tests and tools: data-puzzle (its id), data-puzzle-step
// (actions sent and answered), data-puzzle-outcome ("solved" or "failed").

import { call } from "./api.js";
import { draw, lastActionHighlights } from "./board.js";
import { Controls } from "./controls.js";
import { mageName } from "./mages.js";

const root = document.getElementById("puzzle-app");
const boardEl = document.getElementById("board");
const statusEl = document.getElementById("status");
const refusalEl = document.getElementById("refusal");
const hintButton = document.getElementById("hint");
const hintText = document.getElementById("hint-text");
const outcomeEl = document.getElementById("outcome");
const outcomeWords = document.getElementById("outcome-words");
const solutionEl = document.getElementById("solution");
const backButton = document.getElementById("replay-back");
const forwardButton = document.getElementById("replay-next");
const html = document.documentElement;

const page = { puzzle: null, state: null, actions: [], last: null, hints: 0, replay: null, at: 0, done: false };

const controls = new Controls({
  panel: document.getElementById("turn"),
  title: document.getElementById("turn-title"),
  promptEl: document.getElementById("prompt"),
  choicesEl: document.getElementById("choices"),
  onAct: (action) => attempt(action),
});

const themeWords = (themes) => themes.map((t) => t.replace(/_/g, " ")).join(", ");

function start(puzzle) {
  Object.assign(page, { puzzle, state: puzzle.state, actions: [], last: null, hints: 0, replay: null, at: 0, done: false });
  controls.setLegal({ actions: puzzle.legal, version: 0 }, puzzle.to_move);
  hintText.hidden = true;
  hintButton.disabled = false;
  outcomeEl.hidden = true;
  solutionEl.replaceChildren();
  refusalEl.textContent = "";
  statusEl.textContent = "Find the winning action.";
  document.getElementById("puzzle-task").textContent =
    `${puzzle.to_move === "white" ? "White" : "Black"} to play: find the only winning action${puzzle.moves > 1 ? `s (${puzzle.moves})` : ""}.`;
  const link = document.getElementById("puzzle-link");
  link.textContent = puzzle.id;
  link.href = `/puzzles/${puzzle.id}`;
  document.getElementById("puzzle-rating").textContent = String(puzzle.rating);
  html.dataset.puzzle = puzzle.id;
  html.dataset.puzzleStep = "0";
  delete html.dataset.puzzleOutcome;
  paint();
}

function highlights() {
  if (page.replay) return lastActionHighlights(page.at > 0 ? page.replay[page.at - 1].action : null);
  const hl = page.last ? lastActionHighlights(page.last) : { squares: {}, chambers: {}, reserve: {} };
  const mine = controls.highlights();
  for (const part of ["squares", "chambers", "reserve"]) hl[part] = { ...(hl[part] || {}), ...mine[part] };
  if (page.hints > 1 && page.actions.length === 0 && page.puzzle.hint) hl.chambers[page.puzzle.hint] = "choice hinted";
  return hl;
}

function paint() {
  const state = page.replay ? (page.at === 0 ? page.puzzle.state : page.replay[page.at - 1].state) : page.state;
  const active = !page.done;
  draw(boardEl, state, {
    orientation: page.puzzle.to_move,
    me: page.puzzle.to_move,
    highlights: highlights(),
    onSquare: (sq) => active && choice("square", sq),
    onChamber: (mage) => active && choice("chamber", mage),
    onReserve: (type) => active && choice("reserve", type),
  });
  controls.render(paint);
  if (page.replay) {
    backButton.disabled = page.at === 0;
    forwardButton.disabled = page.at === page.replay.length;
    for (const [i, li] of [...solutionEl.children].entries()) li.classList.toggle("current", i === page.at - 1);
  }
}

function choice(kind, value) {
  if (controls.click(kind, value)) paint();
}

async function attempt(action) {
  refusalEl.textContent = "";
  paint();
  let answer;
  try {
    answer = await call("POST", `/puzzles/${page.puzzle.id}/attempt`, { body: { actions: [...page.actions, action] } });
  } catch (error) {
    refusalEl.textContent = error.message;
    controls.setLegal({ actions: page.puzzle.legal && page.state === page.puzzle.state ? page.puzzle.legal : controls.legal.actions, version: 0 },
      page.puzzle.to_move);
    paint();
    return;
  }
  page.actions.push(action);
  html.dataset.puzzleStep = String(page.actions.length);
  if (!answer.complete) {
    page.state = answer.state;
    page.last = answer.replies.length ? answer.replies[answer.replies.length - 1] : action;
    controls.setLegal({ actions: answer.legal, version: page.actions.length }, page.puzzle.to_move);
    statusEl.textContent = answer.replies.length ? "Right. Your opponent answered: go on." : "Right: you play again.";
    paint();
    return;
  }
  finish(answer, action);
}

function finish(answer, action) {
  page.done = true;
  page.state = answer.state;
  page.last = action;
  controls.clear();
  hintButton.disabled = true;
  html.dataset.puzzleOutcome = answer.correct ? "solved" : "failed";
  const change = answer.rating_change === null ? "" :
    ` Your puzzle rating: ${answer.player_rating} (${answer.rating_change >= 0 ? "+" : ""}${Math.round(answer.rating_change)}).`;
  statusEl.textContent = answer.correct ? `Solved!${change}` : `That is not the winning action.${change}`;
  if (answer.player_rating !== null) document.getElementById("player-rating").textContent = String(answer.player_rating);
  outcomeWords.textContent = answer.correct ? "Solved. The whole line:" : "The solution, replayed on the board:";
  solutionEl.replaceChildren(...answer.replay.map((step) => {
    const li = document.createElement("li");
    li.textContent = step.words;
    return li;
  }));
  outcomeEl.hidden = false;
  page.replay = answer.replay;
  page.at = answer.correct ? answer.replay.length : 1;
  paint();
}

hintButton.addEventListener("click", () => {
  page.hints += 1;
  hintText.hidden = false;
  if (page.hints === 1) hintText.textContent = `Themes: ${themeWords(page.puzzle.themes)}.`;
  else {
    hintText.textContent = `Themes: ${themeWords(page.puzzle.themes)}. Start from the ${mageName(page.puzzle.hint)}.`;
    hintButton.disabled = true;
  }
  paint();
});
backButton.addEventListener("click", () => { if (page.replay && page.at > 0) { page.at -= 1; paint(); } });
forwardButton.addEventListener("click", () => {
  if (page.replay && page.at < page.replay.length) { page.at += 1; paint(); }
});
document.getElementById("next-puzzle").addEventListener("click", async () => {
  try {
    const next = await call("GET", "/puzzles/next");
    history.replaceState(null, "", `/puzzles/${next.id}`);
    start(next);
  } catch (error) {
    refusalEl.textContent = error.message;
  }
});

start(JSON.parse(root.dataset.puzzle));
