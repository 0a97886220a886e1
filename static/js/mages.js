// Names and powers of the mages and minion types, and every other word about
// the game, as the engine says them: the vocabulary document
// (GET /api/v1/vocabulary, app/rules/vocabulary.py) that every page carries in
// <body data-vocabulary>. This module holds no copy of its own, so the page
// cannot say anything the engine does not. The page shows these words; it
// never decides with them (the server does).

function load() {
  const carried = document.body && document.body.dataset.vocabulary;
  if (!carried) throw new Error("the page carries no vocabulary (data-vocabulary on <body>)");
  return JSON.parse(carried);
}

export const VOCABULARY = load();

export const MAGES = Object.fromEntries(
  Object.entries(VOCABULARY.mages).map(([mage, m]) => [mage, [m.name, m.power]]));

export const MAGE_TYPE = Object.fromEntries(
  Object.entries(VOCABULARY.mages).filter(([, m]) => m.minion).map(([mage, m]) => [mage, m.minion]));

export const TYPES = VOCABULARY.types;

export const TYPE_INFO = Object.fromEntries(
  Object.entries(VOCABULARY.minions).map(([type, t]) => [type, [t.name, t.rank, t.moves]]));

export const CHAOS = new Set(VOCABULARY.chaos);

export const mageName = (mage) => (MAGES[mage] ? MAGES[mage][0] : mage);
export const magePower = (mage) => (MAGES[mage] ? MAGES[mage][1] : "");
/** The words of the button that uses `mage`'s power when it takes no choice (the engine's). */
export const mageUse = (mage) => (VOCABULARY.mages[mage] && VOCABULARY.mages[mage].use) || "";
export const typeName = (type) => (TYPE_INFO[type] ? TYPE_INFO[type][0] : type);
/** A ruling ("R9") in one sentence, as the engine words it. */
export const rulingWords = (rule) => VOCABULARY.rulings[rule] || "";
export const colourName = (colour) => (colour ? colour[0].toUpperCase() + colour.slice(1) : "");
export const otherColour = (colour) => (colour === "white" ? "black" : "white");
/** "a dragon", "an elemental", "an undead". */
export const aType = (type) => `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
