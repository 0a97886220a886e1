// The guided first match: a match against the computer whose page says, at
// each step of the first rounds, what the player may do now and why. The
// guide reads only what the page already has (the state, the legal actions,
// what the player has picked) and the engine's words (mages.js); it decides
// nothing. The flag lives in localStorage beside the seat, keyed by match id.

import { ApiError, matches } from "./api.js";
import { colourName, mageName, magePower, typeName } from "./mages.js";
import { saveSeat } from "./seat.js";

const KEY = (matchId) => `magery.guide.${matchId}`;
const GUIDED_ROUNDS = 2; // after these the guide steps back
const BOT = "bot:random"; // the gentlest opponent: it plays any legal action

/** Creates a guided match against the computer, you as White, and opens it. */
export async function startGuided(button) {
  button.disabled = true;
  try {
    const made = await matches.create({
      options: { variant: "standard", no_progress_rounds: 10, time_control: null },
      seat: "white", opponent: BOT, name: "You",
    });
    saveSeat(made.match.id, made.seat, made.token);
    localStorage.setItem(KEY(made.match.id), "1");
    window.location.assign(`/matches/${encodeURIComponent(made.match.id)}`);
  } catch (error) {
    button.disabled = false;
    button.insertAdjacentText("afterend", error instanceof ApiError ? ` Not created: ${error.message}` : ` ${error}`);
  }
}

export const isGuided = (matchId) => localStorage.getItem(KEY(matchId)) === "1";

/** What to say now: [step, sentence]. `page` is the match page's view, `controls` its choices. */
export function guideWords(page, controls) {
  const m = page.match;
  const me = page.seat && page.seat.seat;
  const mine = me && m.to_move === me && m.status === "active";
  const picks = (controls && controls.picks) || [];
  const orb = `${colourName(m.orb)} holds the Orb, so ${m.orb === me ? "you start" : "the computer starts"} each phase.`;
  if (m.status === "finished") return ["over", "The match is over. The Learn page says more about every mage and minion; a new match starts from the home page."];
  if (m.phase === "setup") {
    return mine
      ? ["setup", "Set up your backrow: one minion of each type on rank 1. Click two squares to swap them, then Confirm setup. Greater minions (dragon, elemental, construct) are strongest: keep them where they can get out."]
      : ["setup-wait", "The computer sets up its backrow on rank 8; then the first round begins."];
  }
  if (m.round > GUIDED_ROUNDS) return ["done", "You have seen two whole rounds: the guide steps back. Hover or long-press any chamber or minion to read what it does."];
  if (m.phase === "decision") {
    if (!mine) return ["decision-wait", `Decision phase: the computer places a minion on a chamber. A chamber it takes is one you cannot use this round. ${orb}`];
    const type = picks.find((p) => p.kind === "reserve");
    const chamber = picks.find((p) => p.kind === "chamber");
    if (type) return ["decision-type", `You chose ${typeName(type.value).toLowerCase()}: now click a free chamber to place it there. Which minion you place does not change the power; it is the one that will go back to your reserve.`];
    if (chamber) return ["decision-chamber", `You chose the ${mageName(chamber.value)}, whose power is yours when you take your minion off it: ${magePower(chamber.value)} Now choose a type from your reserve to place on it.`];
    return ["decision", `Decision phase: place a minion from your reserve on a free chamber, or pass. When you take it off in the action phase, that mage's power fires, so pick a mage whose power you want. ${orb}`];
  }
  if (!mine) return ["action-wait", "Action phase: the computer takes one of its minions off a chamber and may use that mage's power. Watch the arena: the last action is marked."];
  const chamber = picks.find((p) => p.kind === "chamber");
  if (chamber) return ["action-power", `You take your minion off the ${mageName(chamber.value)}, and its power is yours: ${magePower(chamber.value)} Choose where it acts (highlighted), or remove it without the power.`];
  return ["action", "Action phase: click a chamber holding one of your minions to take it off. It goes back to your reserve, and then the mage's power is yours to use: the arena shows where."];
}

/** The guide's region on the match page, above the turn panel. */
export class Guide {
  constructor(page, before) {
    this.page = page;
    this.on = isGuided(page.id);
    if (!this.on) return;
    this.box = document.createElement("section");
    this.box.className = "panel guide";
    this.box.setAttribute("aria-labelledby", "guide-title");
    this.box.innerHTML = `<h2 id="guide-title">Guide</h2>
      <p class="guide-opening">You play White against the computer. Win by leaving your opponent no minion in the arena, or by killing five of its greater minions, or three of one type. You never move a minion yourself: the mages do it for you. <a href="/learn">Learn the rules</a>.</p>
      <p id="guide-step" class="guide-step" role="status"></p>`;
    const off = document.createElement("button");
    off.type = "button";
    off.className = "quiet";
    off.textContent = "Hide the guide";
    off.addEventListener("click", () => { localStorage.removeItem(KEY(page.id)); this.box.remove(); this.on = false; });
    this.box.append(off);
    before.before(this.box);
    this.step = this.box.querySelector("#guide-step");
  }

  show(controls) {
    if (!this.on) return;
    const [step, words] = guideWords(this.page, controls);
    if (this.step.dataset.step === step && this.step.textContent === words) return;
    this.step.dataset.step = step;
    this.step.textContent = words;
  }
}
