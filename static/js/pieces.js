// The pictures of the eight minion types, drawn for Magery Online.
// Each is a small SVG, made once and cloned for every minion shown. Colours
// come from CSS: the body takes `fill` (inherited from the <svg>), outlines and
// details `currentColor`, and `.acc` parts the accent colour, so one drawing
// serves both players.

const SYMBOLS = {
  // A horned dragon's head in profile, with a spiked neck.
  dragon: `
    <path d="M10 52 L36 38 L44 28 L80 6 L64 34 C76 42 82 58 82 92 H50 C53 80 50 70 42 67 L28 66 L12 61 Z"/>
    <path d="M70 48 L88 44 L76 57 Z M74 64 L92 64 L78 73 Z"/>
    <path class="acc" d="M46 30 L80 6 L60 33 Z"/>
    <circle cx="40" cy="46" r="4.5" fill="currentColor" stroke="none"/>
    <path d="M14 57 L40 59" fill="none"/>
    <circle cx="17" cy="51" r="1.8" fill="currentColor" stroke="none"/>`,
  // A living flame.
  elemental: `
    <path d="M50 5 C58 22 78 32 78 58 C78 78 65 92 50 92 C35 92 22 78 22 59 C22 45 30 36 37 27 C37 39 41 46 47 48 C45 33 44 19 50 5 Z"/>
    <path class="acc" d="M50 50 C57 60 65 65 65 75 C65 84 58 89 50 89 C42 89 35 84 35 75 C35 66 44 62 50 50 Z"/>`,
  // A stone golem: block head, broad shoulders, a rune on its chest.
  construct: `
    <rect x="33" y="8" width="34" height="26" rx="3"/>
    <path d="M16 38 H84 L79 72 H21 Z"/>
    <rect x="26" y="72" width="18" height="20" rx="2"/>
    <rect x="56" y="72" width="18" height="20" rx="2"/>
    <rect x="39" y="18" width="8" height="5" fill="currentColor" stroke="none"/>
    <rect x="53" y="18" width="8" height="5" fill="currentColor" stroke="none"/>
    <path class="acc" d="M50 44 L58 55 L50 66 L42 55 Z"/>`,
  // A winged fairy.
  fey: `
    <path d="M47 46 C30 16 8 18 10 37 C12 52 30 56 47 52 Z"/>
    <path d="M53 46 C70 16 92 18 90 37 C88 52 70 56 53 52 Z"/>
    <path d="M47 56 C33 60 18 72 25 84 C32 93 44 80 47 64 Z"/>
    <path d="M53 56 C67 60 82 72 75 84 C68 93 56 80 53 64 Z"/>
    <path class="acc" d="M47 52 C47 40 53 40 53 52 L52 84 C51 88 49 88 48 84 Z"/>
    <circle cx="50" cy="31" r="7"/>
    <path d="M47 25 C44 16 40 12 35 11 M53 25 C56 16 60 12 65 11" fill="none"/>`,
  // A wisp of a ghost.
  spirit: `
    <path d="M50 8 C28 8 18 27 18 48 V90 L29 81 L39 91 L50 81 L61 91 L71 81 L82 90 V48 C82 27 72 8 50 8 Z"/>
    <ellipse cx="39" cy="43" rx="6" ry="8" fill="currentColor" stroke="none"/>
    <ellipse cx="61" cy="43" rx="6" ry="8" fill="currentColor" stroke="none"/>
    <ellipse class="acc" cx="50" cy="63" rx="5" ry="6"/>`,
  // A crested warrior's helmet.
  myrmidon: `
    <path d="M50 16 C30 16 19 32 19 54 V90 H40 V70 L44 64 H56 L60 70 V90 H81 V54 C81 32 70 16 50 16 Z"/>
    <path d="M27 44 H73 V53 H56 V64 H44 V53 H27 Z" fill="currentColor" stroke="none"/>
    <path class="acc" d="M40 18 C38 8 44 3 50 3 C56 3 62 8 60 18 C56 15 44 15 40 18 Z"/>`,
  // A skull.
  undead: `
    <path d="M50 9 C27 9 15 27 15 46 C15 59 21 66 29 70 V83 C29 88 32 91 37 91 H63 C68 91 71 88 71 83 V70 C79 66 85 59 85 46 C85 27 73 9 50 9 Z"/>
    <circle cx="37" cy="46" r="9.5" fill="currentColor" stroke="none"/>
    <circle cx="63" cy="46" r="9.5" fill="currentColor" stroke="none"/>
    <circle class="acc" cx="37" cy="46" r="3" stroke="none"/>
    <circle class="acc" cx="63" cy="46" r="3" stroke="none"/>
    <path d="M50 58 L44 68 H56 Z" fill="currentColor" stroke="none"/>
    <path d="M42 78 V90 M50 78 V90 M58 78 V90" fill="none"/>`,
  // A wolf's head.
  beast: `
    <path d="M50 90 L34 74 L23 60 L19 36 L14 8 L37 25 C45 21 55 21 63 25 L86 8 L81 36 L77 60 L66 74 Z"/>
    <path class="acc" d="M21 17 L34 28 L24 38 Z M79 17 L66 28 L76 38 Z"/>
    <path d="M31 44 L45 49 L34 53 Z M69 44 L55 49 L66 53 Z" fill="currentColor" stroke="none"/>
    <path d="M43 70 H57 L50 78 Z" fill="currentColor" stroke="none"/>
    <path d="M50 56 V70" fill="none"/>`,
};

// The Orb, for whoever holds it.
const ORB = `
    <circle cx="50" cy="50" r="40"/>
    <circle class="acc" cx="38" cy="36" r="12" stroke="none"/>`;

const SVG = "http://www.w3.org/2000/svg";
const made = new Map();

function template(owner, type) {
  const key = `${owner} ${type}`;
  let svg = made.get(key);
  if (!svg) {
    // Parsed once per picture from our own markup (never a player's text), then cloned.
    const doc = new DOMParser().parseFromString(
      `<svg xmlns="${SVG}" viewBox="0 0 100 100" aria-hidden="true" focusable="false">${type === "orb" ? ORB : SYMBOLS[type]}</svg>`,
      "image/svg+xml");
    svg = document.importNode(doc.documentElement, true);
    svg.setAttribute("class", `minion ${owner} ${type}`);
    made.set(key, svg);
  }
  return svg;
}

/** An <svg> showing one minion (`owner` "white" or "black", `type` e.g. "dragon"). */
export function minionPicture(owner, type) {
  return template(owner, type).cloneNode(true);
}

/** The Orb's picture. */
export function orbPicture() {
  return template("orb", "orb").cloneNode(true);
}
