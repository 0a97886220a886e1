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
