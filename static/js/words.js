// The action log in plain words, from an entry of the log (or an update) and
// the public state just before it. Without that state (an entry read from the
// log alone) the words are shorter: they cannot say which minion was where.
// (app.rules will gain its own describe(); until then the page says it.)

import { aType, colourName, mageName, MAGE_TYPE, otherColour } from "./mages.js";

function occupantOf(state, mage) {
  if (!state) return null;
  for (const c of state.tower || []) if (c.mage === mage) return c.occupant;
  for (const side of Object.values(state.private || {})) {
    for (const c of side) if (c.mage === mage) return c.occupant;
  }
  return null;
}

const at = (state, square) => (state && state.arena ? state.arena[square] : undefined);

function power(mage, p, before, mover, removed) {
  if (p === null || p === undefined) return " without using its power";
  if (p.mage !== undefined) return `, borrowing the ${mageName(p.mage)}:${power(p.mage, p.power, before, mover, removed).replace(/^[,:]/, "")}`;
  if (p.move) {
    const [from, to] = p.move;
    const who = at(before, from);
    const target = at(before, to);
    // An opponent's minion (the Mentalist) is named; one's own is plain "b7 to c6".
    const what = who && who.owner !== mover ? `${colourName(who.owner)}'s ${who.minion} ` : "";
    if (!before) return `: ${from}–${to}`; // without the state before, a capture cannot be told
    return target ? `: ${what}${from} takes ${to}` : `: ${what}${from} to ${to}`;
  }
  if (p.summon) {
    const type = MAGE_TYPE[mage] || (removed && removed.minion);
    return `: summons ${type ? aType(type) : "a minion"} onto ${p.summon}`;
  }
  if (p.target) return mage === "magus" ? `: it moves on to the ${mageName(p.target)}` : `: clears the ${mageName(p.target)}`;
  if (p.player) return `: ${colourName(p.player)} takes the next two turns`;
  if (p.swap) return `: swaps ${p.swap[0]} and ${p.swap[1]}`;
  if (p.square && p.minion) {
    const was = at(before, p.square);
    return `: ${aType(p.minion)} takes the place of ${was ? `the ${was.minion}` : "the minion"} on ${p.square}`;
  }
  if (p.square) {
    const was = at(before, p.square);
    const it = was ? `${colourName(was.owner)}'s ${was.minion} on ${p.square}` : p.square;
    if (mage === "force_mage") return `: wards ${it}`;
    if (mage === "enchanter") return `: replaces ${it}`;
    return `: sends ${it} to its reserve`;
  }
  if (mage === "oracle") return ": takes the Orb";
  if (mage === "rune_master") return ": knight leaps until the round ends";
  return ": uses its power";
}

/** One log entry ({player, action, automatic}) in words; `before` may be null. */
export function describe(before, entry) {
  const who = colourName(entry.player);
  const a = entry.action || {};
  switch (a.type) {
    case "join": return `${who} joins the match.`;
    case "setup": return `${who} sets up: ${a.backrow.join(", ")}.`;
    case "place": return `${who} places ${aType(a.minion)} on the ${mageName(a.mage)}.`;
    case "pass": return entry.automatic ? `${who} passes (nothing left to place).` : `${who} passes.`;
    case "remove": {
      const removed = occupantOf(before, a.mage);
      const what = removed ? `${aType(removed.minion)} ` : "";
      return `${who} removes ${what}from the ${mageName(a.mage)}${power(a.mage, a.power, before, entry.player, removed)}.`;
    }
    case "draw_offer": return `${who} offers a draw.`;
    case "draw_decline": return `${who} declines the draw.`;
    case "draw_withdraw": return `${who} withdraws the draw offer.`;
    case "draw_accept": return `${who} accepts the draw.`;
    case "resign": return `${who} resigns.`;
    case "timeout": return entry.player ? `${who} runs out of time.` : "Time runs out.";
    case "abort":
      if (a.by === "admin") return `A server admin aborts the match: ${a.note}`;
      return a.late ? `The match is aborted: ${colourName(a.late)} did not set up in time.` : "The match is aborted.";
    case "adjudicate": {
      const verdict = a.winner ? `${colourName(a.winner)} wins` : "a draw";
      return `A server admin ends the match (${verdict}): ${a.note}`;
    }
    case "claim":
      return a.result === "win"
        ? `${who} claims the win: ${colourName(otherColour(entry.player))} left the match.`
        : `${who} claims a draw: ${colourName(otherColour(entry.player))} left the match.`;
    case "rematch_offer": return `${who} offers a rematch.`;
    case "rematch_withdraw": return `${who} withdraws the rematch offer.`;
    case "rematch_decline": return `${who} declines the rematch.`;
    case "rematch": return `${who} accepts the rematch.`;
    default: return `${who || "The server"}: ${a.type}.`;
  }
}

const REASONS = {
  eliminated: "no minion of the loser is left in the arena",
  five_greater: "five greater minions of the loser are dead",
  three_of_a_kind: "three greater minions of one type of the loser are dead",
  resigned: "resignation",
  timeout: "time",
  agreement: "a draw agreed",
  no_progress: "rounds without a capture (the no-progress rule)",
  aborted: "the match was aborted",
  adjudicated: "a server admin's decision",
};

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
