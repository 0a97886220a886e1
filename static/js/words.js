// The result of a match in words. The log's words come from the server with
// each entry (`words`, told by the engine: app/matches/telling.py), and the
// reasons from the engine's vocabulary: the page tells nothing by itself.

import { VOCABULARY, colourName, otherColour } from "./mages.js";

const REASONS = VOCABULARY.endings;

/** The result in words: "White wins: Black resigned." */
export function resultWords(result) {
  if (!result) return "";
  const reason = REASONS[result.reason] || result.reason;
  if (result.reason === "aborted") return "The match was aborted.";
  if (!result.winner) return `A draw, by ${reason}.`;
  const loser = colourName(otherColour(result.winner));
  if (result.reason === "resigned") return `${colourName(result.winner)} wins: ${loser} resigned.`;
  if (result.reason === "timeout") {
    return result.abandoned ? `${colourName(result.winner)} wins: ${loser} left the match.` : `${colourName(result.winner)} wins on time.`;
  }
  return `${colourName(result.winner)} wins: ${reason}.`;
}
