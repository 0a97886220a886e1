// A finished match's result in words, the same on every page that says it
// (the match page's status line and end panel, the home page's recent results):
// never a raw reason code.

import { VOCABULARY, colourName, otherColour } from "./mages.js";

// Why a match was won, as the end of "White wins: …": the engine's words
// (its vocabulary's endings) with the loser named.
function wonBy(reason, loser) {
  if (reason === "adjudicated") return "a server admin's decision";
  const words = VOCABULARY.endings[reason];
  return words ? words.replace("the loser's", `${loser}'s`) : null;
}

// How a match was drawn, as the end of "A draw: …".
const DRAWN_BY = {
  agreement: "both players agreed",
  no_progress: VOCABULARY.endings.no_progress,
  adjudicated: "a server admin's decision",
  timeout: "time ran out",
};

/** The result in words: "White wins: Black resigned.", "A draw: both players agreed." */
export function resultWords(result) {
  if (!result) return "";
  if (result.reason === "aborted") return "The match was aborted.";
  if (!result.winner) {
    const why = DRAWN_BY[result.reason];
    if (result.abandoned) return `A draw: ${colourName(result.abandoned)} left the match.`;
    return why ? `A draw: ${why}.` : "A draw.";
  }
  const winner = colourName(result.winner);
  const loser = colourName(otherColour(result.winner));
  // A claimed win (the loser away too long) is a loss on time to the engine.
  if (result.abandoned) return `${winner} wins: ${colourName(result.abandoned)} left the match.`;
  if (result.reason === "resigned") return `${winner} wins: ${loser} resigned.`;
  if (result.reason === "timeout") return `${winner} wins on time.`;
  const why = wonBy(result.reason, loser);
  return why ? `${winner} wins: ${why}.` : `${winner} wins.`;
}

/** The result said to the one reading it: "You won — Black resigned.", "You lost
 * — five of your greater minions are dead." to a player (the match's ending in
 * the engine's words, the loser named as "your" to the loser), the neutral
 * words to a spectator (seat null). */
export function endWords(result, seat) {
  if (!result) return "";
  const late = result.late ? ` ${colourName(result.late)} did not set up in time.` : "";
  if (!seat) return resultWords(result) + late;
  if (result.reason === "aborted") return `The match was aborted.${late}`;
  if (!result.winner) return resultWords(result);
  const won = result.winner === seat;
  const loser = colourName(otherColour(result.winner));
  const head = won ? "You won" : "You lost";
  switch (result.reason) {
    case "resigned": return `${head} — ${won ? `${loser} resigned` : "you resigned"}.`;
    case "timeout":
      if (result.abandoned) return `${head} — ${won ? `${loser} left the match` : "you left the match"}.`;
      return `${head} on time.`;
    case "adjudicated": return `${head} — a server admin's decision.`;
    default: {
      const words = VOCABULARY.endings[result.reason];
      if (!words) return `${head}.`;
      return `${head} — ${words.replace("the loser's", won ? `${loser}'s` : "your")}.`;
    }
  }
}
