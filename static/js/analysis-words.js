// The computer analysis's pieces that both pages draw alike (the match page and
// the admin replay): a judgement's mark and words, an action in words, and the
// engine's best action on the board (its squares and chamber highlighted, an
// arrow over the arena for a move or a swap).

import { aType, colourName, mageName } from "./mages.js";

// Marks as chess annotates them: a dubious move ?!, a mistake ?, a blunder ??.
export const JUDGEMENTS = {
  inaccuracy: { mark: "?!", words: "an inaccuracy" },
  mistake: { mark: "?", words: "a mistake" },
  blunder: { mark: "??", words: "a blunder" },
};

/** The innermost power of a removal (a Dream Lord's borrowed mage's own payload). */
function innermost(action) {
  let p = action.power;
  let mage = action.mage;
  while (p && p.power !== undefined && p.mage) {
    mage = p.mage;
    p = p.power;
  }
  return { power: p, mage };
}

function powerWords(mage, p) {
  if (!p) return "";
  if (p.move) return `move ${p.move[0]}→${p.move[1]}`;
  if (p.summon) return `summon onto ${p.summon}`;
  if (p.swap) return `swap ${p.swap[0]} and ${p.swap[1]}`;
  if (p.square && p.minion) return `${aType(p.minion)} onto ${p.square}`;
  if (p.square) return `aim at ${p.square}`;
  if (p.target) return `aim at the ${mageName(p.target)}`;
  if (p.player) return `aim at ${colourName(p.player)}`;
  return `the ${mageName(mage)}'s power`;
}

/** An action (the action JSON of docs/notation.md) in a few words. */
export function actionWords(action) {
  if (!action || typeof action !== "object") return "";
  if (action.type === "pass") return "pass";
  if (action.type === "setup") return "set up the backrow";
  if (action.type === "place") return `place ${aType(action.minion)} on the ${mageName(action.mage)}`;
  if (action.type === "remove") {
    if (action.power === null || action.power === undefined) return `remove from the ${mageName(action.mage)} without its power`;
    const { power, mage } = innermost(action);
    const borrowed = mage !== action.mage ? ` (as the ${mageName(mage)})` : "";
    return `remove from the ${mageName(action.mage)}${borrowed}: ${powerWords(mage, power)}`;
  }
  return action.type || "";
}

/** The highlights that show `action` as the engine's choice: its chamber (for a
 * placement or a removal: the tower action), the squares it moves, summons onto
 * or aims at, and a chamber it aims at. Classes board.css draws. */
export function bestHighlights(action) {
  const hl = { squares: {}, chambers: {} };
  if (!action || typeof action !== "object") return hl;
  if (action.mage) hl.chambers[action.mage] = "best";
  if (action.type !== "remove") return hl;
  const { power: p } = innermost(action);
  if (!p) return hl;
  if (p.move) { hl.squares[p.move[0]] = "best-from"; hl.squares[p.move[1]] = "best-to"; }
  if (p.summon) hl.squares[p.summon] = "best-to";
  if (p.square) hl.squares[p.square] = "best-to";
  if (p.swap) for (const s of p.swap) hl.squares[s] = "best-to";
  if (p.target) hl.chambers[p.target] = "best";
  return hl;
}

/** Two sets of highlights in one: a square or chamber both mark keeps both classes. */
export function mergeHighlights(a, b) {
  const out = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    out[key] = [a[key], b[key]].filter(Boolean).join(" ");
  }
  return out;
}

const SVG = "http://www.w3.org/2000/svg";

function svg(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Draws (or clears, for null) the arrow of the engine's move over an arena drawn by
 * board.js. The arena is 8×8 squares in the order drawn, whatever its side, so the
 * square's place among them is its place on screen. */
export function drawBestArrow(arena, action) {
  if (!arena) return;
  let layer = arena.querySelector(":scope > svg.best-arrow");
  const { power: p } = action && action.type === "remove" ? innermost(action) : { power: null };
  const ends = p && (p.move || p.swap);
  const squares = [...arena.querySelectorAll(":scope > .sq")];
  const at = (name) => {
    const i = squares.findIndex((b) => b.dataset.square === name);
    return i < 0 ? null : { x: (i % 8) + 0.5, y: Math.floor(i / 8) + 0.5 };
  };
  const from = ends ? at(ends[0]) : null;
  const to = ends ? at(ends[1]) : null;
  if (!from || !to) {
    if (layer) layer.hidden = true;
    return;
  }
  const key = `${ends[0]}${ends[1]}${squares[0].dataset.square}${p.swap ? "swap" : ""}`;
  if (layer && layer.dataset.key === key) {
    layer.hidden = false;
    return;
  }
  if (!layer) {
    layer = svg("svg", { viewBox: "0 0 8 8", class: "best-arrow", "aria-hidden": "true", focusable: "false" });
    const defs = svg("defs", {});
    const head = svg("marker", { id: `best-head-${Math.random().toString(36).slice(2, 8)}`, viewBox: "0 0 4 4", refX: 2.2, refY: 2,
      markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" });
    head.append(svg("path", { d: "M0,0 L4,2 L0,4 Z", class: "best-arrow-head" }));
    defs.append(head);
    layer.append(defs);
    arena.append(layer);
  }
  layer.dataset.key = key;
  layer.hidden = false;
  layer.querySelector("line")?.remove();
  // Short of the centres, so the pieces at either end stay visible.
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const cut = 0.28;
  const headId = layer.querySelector("marker").id;
  const line = svg("line", {
    x1: from.x + (dx / len) * cut, y1: from.y + (dy / len) * cut,
    x2: to.x - (dx / len) * cut, y2: to.y - (dy / len) * cut,
    class: "best-arrow-line", "marker-end": `url(#${headId})`,
  });
  if (p.swap) line.setAttribute("marker-start", `url(#${headId})`);
  layer.append(line);
}
