// A challenge in words, for its toasts (person.js) and the profile's form
// (challenge.js): the variant in the engine's words, the time control, rated
// or casual, and the colour the reader plays.

import { VOCABULARY } from "./mages.js";

export function variantName(variant) {
  const found = VOCABULARY.variants && VOCABULARY.variants[variant];
  return found ? found.name : variant;
}

export function timeWords(tc) {
  if (!tc) return "untimed";
  if (tc.type === "realtime") return `${tc.minutes}+${tc.increment}`;
  return `${tc.days} ${tc.days === 1 ? "day" : "days"} a move`;
}

const OTHER = { white: "Black", black: "White", random: "a random colour" };
const SAME = { white: "White", black: "Black", random: "a random colour" };

/** `reader`: "challenged" or "challenger": whose colour to name. */
export function challengeWords(c, reader) {
  const colour = reader === "challenged" ? OTHER[c.colour] : SAME[c.colour];
  return `${variantName(c.variant)}, ${timeWords(c.time_control)}, ${c.rated ? "rated" : "casual"}; you play ${colour}`;
}
