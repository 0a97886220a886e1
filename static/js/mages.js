// Names and powers of the mages and minion types, in the words of docs/rules.md.
// The page shows these; it never decides with them (the server does).

export const MAGES = {
  necromancer: ["Necromancer", "Move one of your undead, or summon one."],
  sorcerer: ["Sorcerer", "Move one of your beasts, or summon one."],
  wizard: ["Wizard", "Move one of your myrmidons, or summon one."],
  warlock: ["Warlock", "Move one of your spirits, or summon one."],
  druid: ["Druid", "Move one of your fey, or summon one."],
  artificer: ["Artificer", "Move one of your constructs, or summon one."],
  elemental_master: ["Elemental Master", "Move one of your elementals, or summon one."],
  dragon_lord: ["Dragon Lord", "Move one of your dragons, or summon one."],
  animist: ["Animist", "Move any one of your minions."],
  mystic: ["Mystic", "Move one of your minions to any empty square, without capturing."],
  oracle: ["Oracle", "Take the Orb: you start each phase from the next one on."],
  magician: ["Magician", "Send the minion on another chamber back to its owner's reserve, its power unused."],
  seer: ["Seer", "Choose a player: they take the next two turns of this action phase."],
  magus: ["Magus", "Your minion goes on to another empty chamber instead of your reserve."],
  alchemist: ["Alchemist", "Swap one of your arena minions for one of another type from your reserve."],
  mentalist: ["Mentalist", "Move one of your opponent's minions onto an empty square, by its own movement."],
  enchanter: ["Enchanter", "Replace an opponent's minion with one of the same type from your reserve."],
  dream_lord: ["Dream Lord", "Use the power of a chaos mage that is not in play."],
  force_mage: ["Force Mage", "Ward a minion: nothing can move, capture or remove it until the round ends."],
  illusionist: ["Illusionist", "Swap the squares of two arena minions that differ in owner or type."],
  shadow_mage: ["Shadow Mage", "Send a minion next to one of yours (not diagonally) to its owner's reserve."],
  rune_master: ["Rune Master", "Until the round ends your minions may also leap like a knight."],
  conjurer: ["Conjurer", "Your minion is summoned onto the arena instead of going to your reserve."],
};

export const MAGE_TYPE = {
  necromancer: "undead", sorcerer: "beast", wizard: "myrmidon", warlock: "spirit",
  druid: "fey", artificer: "construct", elemental_master: "elemental", dragon_lord: "dragon",
};

export const TYPES = ["dragon", "elemental", "construct", "fey", "spirit", "myrmidon", "undead", "beast"];

export const TYPE_INFO = {
  dragon: ["Dragon", "greater", "moves like a queen"],
  elemental: ["Elemental", "greater", "moves like a bishop"],
  construct: ["Construct", "greater", "moves like a rook"],
  fey: ["Fey", "minor", "leaps like a knight (1, 2)"],
  spirit: ["Spirit", "minor", "leaps (3, 1)"],
  myrmidon: ["Myrmidon", "minor", "leaps exactly 2 squares in any of the 8 directions"],
  undead: ["Undead", "pawn", "steps 1 square orthogonally"],
  beast: ["Beast", "pawn", "steps 1 square diagonally"],
};

export const mageName = (mage) => (MAGES[mage] ? MAGES[mage][0] : mage);
export const magePower = (mage) => (MAGES[mage] ? MAGES[mage][1] : "");
export const typeName = (type) => (TYPE_INFO[type] ? TYPE_INFO[type][0] : type);
export const colourName = (colour) => (colour ? colour[0].toUpperCase() + colour.slice(1) : "");
export const otherColour = (colour) => (colour === "white" ? "black" : "white");
/** "a dragon", "an elemental", "an undead". */
export const aType = (type) => `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
