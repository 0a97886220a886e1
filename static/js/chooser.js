// The action chooser: a pure function from the legal actions (GET /legal) and
// the clicks made so far to what may be clicked next, or the finished action.
//
// Every legal action is spelled as one or more paths of tokens, each token one
// click: {kind, value, role}. kind is what is clicked ("square", "chamber",
// "reserve", "player", "mage", "use", "none", "pass"), value which one, role
// what the click means (for prompts and highlights only). A click sequence
// leads to the actions whose path starts with it; the page can offer nothing
// the server did not list. Paths of one list never make one a strict prefix of
// another (a summon's square is empty, a move's first square is not), so a
// finished path is unambiguous.

const token = (kind, value, role) => ({ kind, value, role });
const sq = (value, role) => token("square", value, role);

const SQUARE_ROLE = { enchanter: "enchant", force_mage: "ward", shadow_mage: "banish" };

/** The click paths that spell the power `power` of `mage` (each a list of tokens). */
export function powerPaths(mage, power) {
  if (power === null || power === undefined) return [[token("none", "none", "none")]];
  if (power.mage !== undefined) {
    return powerPaths(power.mage, power.power).map((p) => [token("mage", power.mage, "borrow"), ...p]);
  }
  if (power.move) return [[sq(power.move[0], "from"), sq(power.move[1], "to")]];
  if (power.summon) return [[sq(power.summon, "summon")]];
  if (power.target) return [[token("chamber", power.target, mage === "magus" ? "goto" : "clear")]];
  if (power.player) return [[token("player", power.player, "player")]];
  if (power.swap) {
    const [a, b] = power.swap;
    return [[sq(a, "swap"), sq(b, "swap")], [sq(b, "swap"), sq(a, "swap")]];
  }
  if (power.square && power.minion) return [[sq(power.square, "alchemy"), token("reserve", power.minion, "alchemy")]];
  if (power.square) return [[sq(power.square, SQUARE_ROLE[mage] || "target")]];
  return [[token("use", mage, "use")]]; // {}: the Oracle, the Rune Master
}

/** Every click path of one legal action. */
export function actionPaths(action) {
  switch (action.type) {
    case "pass":
      return [[token("pass", "pass", "pass")]];
    case "place":
      return [
        [token("reserve", action.minion, "place"), token("chamber", action.mage, "place")],
        [token("chamber", action.mage, "place"), token("reserve", action.minion, "place")],
      ];
    case "remove":
      return powerPaths(action.mage, action.power).map((p) => [token("chamber", action.mage, "remove"), ...p]);
    default:
      return [];
  }
}

const same = (a, b) => a.kind === b.kind && a.value === b.value;

/**
 * What is left to choose after `picks` (a list of {kind, value}), given the
 * `legal` action list: `{action}` when the picks spell a whole legal action,
 * else `{options}` (the tokens that may be clicked next, each once, with the
 * roles it plays) — empty when the picks lead nowhere.
 */
export function choose(legal, picks = []) {
  const options = [];
  for (const action of legal) {
    for (const path of actionPaths(action)) {
      if (path.length < picks.length || !picks.every((p, i) => same(p, path[i]))) continue;
      if (path.length === picks.length) return { action };
      const next = path[picks.length];
      const known = options.find((o) => same(o, next));
      if (!known) options.push({ ...next, roles: [next.role] });
      else if (!known.roles.includes(next.role)) known.roles.push(next.role);
    }
  }
  return { options };
}

/** Whether clicking {kind, value} now is one of `options`. */
export function offered(options, kind, value) {
  return options.some((o) => o.kind === kind && o.value === value);
}

const PROMPTS = [
  ["place", "square", ""],
  ["from", "", "Choose the minion to move."],
  ["to", "", "Choose where it goes."],
  ["summon", "", "Choose the square to summon onto."],
  ["swap", "", "Choose two minions to swap."],
  ["alchemy", "square", "Choose your minion to swap for one from your reserve."],
  ["alchemy", "reserve", "Choose the type from your reserve that takes its square."],
  ["enchant", "", "Choose the opponent's minion to replace."],
  ["ward", "", "Choose the minion to ward."],
  ["banish", "", "Choose the minion to send to its reserve."],
  ["clear", "", "Choose the chamber to clear."],
  ["goto", "", "Choose the chamber your minion goes to."],
  ["player", "", "Choose who takes the next two turns."],
  ["borrow", "", "Choose the chaos mage whose power you borrow."],
  ["use", "", "Use the power, or remove the minion without it."],
];

/** A sentence saying what to choose next (for the page's prompt). */
export function prompt(options, picks = []) {
  if (!options.length) return "";
  const roles = new Set(options.flatMap((o) => o.roles));
  const kinds = new Set(options.map((o) => o.kind));
  if (roles.has("remove")) return "Choose one of your minions in the tower to remove.";
  if (roles.has("place")) {
    if (kinds.has("reserve") && kinds.has("chamber")) return "Choose a type from your reserve and an empty chamber, or pass.";
    if (kinds.has("chamber")) return "Choose the empty chamber to place it on.";
    return "Choose the type from your reserve to place there.";
  }
  if (roles.has("from") && roles.has("summon")) {
    return "Choose a minion to move, or an empty square to summon onto. Or remove it without using the power.";
  }
  for (const [role, kind, words] of PROMPTS) {
    if (roles.has(role) && (!kind || kinds.has(kind)) && words) {
      // The "use" prompt already offers removing without the power: say it once.
      return roles.has("none") && picks.length === 1 && role !== "use" ? `${words} Or remove it without using the power.` : words;
    }
  }
  return roles.has("none") ? "This power has no target now: remove the minion without it." : "Choose.";
}
