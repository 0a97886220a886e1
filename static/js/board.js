// The board: the arena, the Mage Tower (with the private chambers of the
// archmage variants), the reserves and the dead piles, drawn from a public
// match state (the contract's JSON). One module for every page that shows a
// match: the game page and the admin replay viewer.
//
//   draw(container, state, {orientation, me, highlights, onSquare, onChamber,
//                           onReserve, draggable, onDrop})
//
// The first call builds the elements; later calls change only what differs,
// so an update costs little. Squares, chambers and your reserve's types are
// buttons whose accessible names begin with the coordinate, the mage's name
// and the type's name; the arena is one tab stop, walked with the arrow keys.

import { CHAOS, TYPES, TYPE_INFO, colourName, mageName, magePower, typeName } from "./mages.js";
import { minionPicture } from "./pieces.js";

const FILES = "abcdefgh";
const views = new WeakMap();

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const squaresInOrder = (orientation) => {
  const out = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const rank = orientation === "black" ? row + 1 : 8 - row;
      const file = orientation === "black" ? FILES[7 - col] : FILES[col];
      out.push({ name: `${file}${rank}`, row, col });
    }
  }
  return out;
};

const occupantWords = (o) => (o ? `${colourName(o.owner)}'s ${o.minion}` : "empty");

function buildArena(view) {
  const arena = el("div", "arena");
  arena.setAttribute("role", "group");
  arena.setAttribute("aria-label", "Arena");
  view.squares = new Map();
  for (const { name, row, col } of squaresInOrder(view.orientation)) {
    const b = el("button", `sq ${(FILES.indexOf(name[0]) + Number(name[1])) % 2 === 0 ? "light" : "dark"}`);
    b.type = "button";
    b.dataset.square = name;
    b.tabIndex = -1;
    arena.append(b);
    view.squares.set(name, { button: b, key: "", row, col });
  }
  // Coordinates on the edge squares, drawn over the arena: not inside the
  // buttons, whose names already begin with the whole coordinate.
  for (const { name, row, col } of squaresInOrder(view.orientation)) {
    const light = (FILES.indexOf(name[0]) + Number(name[1])) % 2 === 0;
    for (const [show, cls, text] of [[col === 0, "rank", name[1]], [row === 7, "file", name[0]]]) {
      if (!show) continue;
      const label = el("span", `coord ${cls} ${light ? "on-light" : "on-dark"}`, text);
      label.setAttribute("aria-hidden", "true");
      label.dataset.row = String(row);
      label.dataset.col = String(col);
      arena.append(label);
    }
  }
  const first = view.squares.get(view.orientation === "black" ? "h1" : "a8");
  first.button.tabIndex = 0;
  view.focusSquare = first.button.dataset.square;
  arena.addEventListener("keydown", (e) => onArenaKey(view, e));
  arena.addEventListener("click", (e) => {
    const b = e.target.closest(".sq");
    if (b) {
      setRoving(view, b.dataset.square);
      view.opts.onSquare?.(b.dataset.square, e);
    }
  });
  arena.addEventListener("dragstart", (e) => {
    const b = e.target.closest(".sq");
    if (!b || !view.opts.draggable?.has(b.dataset.square)) return e.preventDefault();
    e.dataTransfer.setData("text/plain", b.dataset.square);
    e.dataTransfer.effectAllowed = "move";
    b.classList.add("dragging");
  });
  arena.addEventListener("dragend", (e) => e.target.closest?.(".sq")?.classList.remove("dragging"));
  arena.addEventListener("dragover", (e) => {
    const b = e.target.closest(".sq");
    if (b && view.opts.draggable?.has(b.dataset.square)) e.preventDefault();
  });
  arena.addEventListener("drop", (e) => {
    const b = e.target.closest(".sq");
    const from = e.dataTransfer.getData("text/plain");
    if (b && from && view.opts.draggable?.has(b.dataset.square)) {
      e.preventDefault();
      view.opts.onDrop?.(from, b.dataset.square);
    }
  });
  return arena;
}

function setRoving(view, name) {
  const old = view.squares.get(view.focusSquare);
  if (old) old.button.tabIndex = -1;
  view.squares.get(name).button.tabIndex = 0;
  view.focusSquare = name;
}

function onArenaKey(view, e) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const cur = view.squares.get(view.focusSquare);
  let target = null;
  if (moves[e.key]) {
    const [dr, dc] = moves[e.key];
    const row = Math.min(7, Math.max(0, cur.row + dr));
    const col = Math.min(7, Math.max(0, cur.col + dc));
    target = [...view.squares.values()].find((s) => s.row === row && s.col === col);
  } else if (e.key === "Home" || e.key === "End") {
    const col = e.key === "Home" ? 0 : 7;
    target = [...view.squares.values()].find((s) => s.row === cur.row && s.col === col);
  }
  if (target) {
    e.preventDefault();
    e.stopPropagation();
    setRoving(view, target.button.dataset.square);
    target.button.focus();
  }
}

/** Moves keyboard focus to `square` (the page calls it when a choice wants a square). */
export function focusSquare(container, square) {
  const view = views.get(container);
  if (!view || !view.squares.has(square)) return;
  setRoving(view, square);
  view.squares.get(square).button.focus();
}

function updateArena(view, state, hl) {
  const arena = state.arena || {};
  const wards = new Set((state.effects || []).filter((f) => f.mage === "force_mage").map((f) => f.square));
  for (const [name, s] of view.squares) {
    const o = arena[name];
    const cls = (hl[name] || "") + (wards.has(name) ? " warded" : "") + (o ? " occupied" : "");
    const draggable = view.opts.draggable?.has(name) ? "1" : "";
    const key = `${o ? o.owner + o.minion : ""}|${cls}|${draggable}`;
    if (key === s.key) continue;
    s.key = key;
    const b = s.button;
    b.className = `sq ${b.classList.contains("dark") ? "dark" : "light"} ${cls}`.trim();
    b.querySelector("svg")?.remove();
    if (o) b.append(minionPicture(o.owner, o.minion));
    const extra = [wards.has(name) ? "warded" : "", /\bpicked\b/.test(cls) ? "chosen" : "",
      /\bchoice\b/.test(cls) ? "can be chosen" : "", /\blast-to\b/.test(cls) ? "last action" : "",
      /\bpremove\b/.test(cls) ? "your premove" : "", /\bbest-(from|to)\b/.test(cls) ? "the computer's choice" : ""].filter(Boolean);
    b.setAttribute("aria-label", [`${name}, ${occupantWords(o)}`, ...extra].join(", "));
    // A minion's explanation is explain.js's tooltip (hover, focus, long press), not a title.
    b.draggable = Boolean(draggable);
  }
}

// A chamber: one cell of the tower, a button named by the mage, where it is and
// who is on it ("Seer, floor 13, holds Black's beast"), showing the floor number,
// the mage's name and the occupant's picture; the power in words is the button's
// description (shown by explain.js on hover, focus and a long press). The button
// fills its cell, so the whole cell is the tap target.
function chamberRow(view, mage, label, where) {
  const row = el("div", `chamber-row${CHAOS.has(mage) ? " chaos" : ""}`);
  row.dataset.mage = mage;
  const b = el("button", "chamber");
  b.type = "button";
  b.dataset.mage = mage;
  b.dataset.where = where;
  b.tabIndex = -1; // the tower is one tab stop: see rove()
  const floor = el("span", "floor", label);
  const name = el("span", "mage-name", mageName(mage));
  const seat = el("span", "seat");
  for (const part of [floor, seat]) part.setAttribute("aria-hidden", "true");
  // The floor is drawn over the cell, not inside the button: a button's visible
  // text must begin its name ("Seer, floor 13, …"), and "13Seer" would not.
  b.append(name, seat);
  const power = el("span", "power", magePower(mage));
  power.id = `power-${view.uid}-${mage}`;
  b.setAttribute("aria-describedby", power.id);
  row.append(b, floor, power);
  return { row, button: b };
}

// The tower's chambers are one tab stop: the arrow keys walk them in the order
// drawn (left and right along a row of the grid, up and down a column), Home and
// End go to the first and the last. The chamber focused last keeps the stop.
function chamberButtons(view) {
  return [...view.towerCol.querySelectorAll("button.chamber")];
}

function rove(view) {
  const all = chamberButtons(view);
  if (!all.length) return;
  const keep = all.find((b) => b.dataset.mage === view.focusMage) || all[0];
  view.focusMage = keep.dataset.mage;
  for (const b of all) {
    const want = b === keep ? 0 : -1;
    if (b.tabIndex !== want) b.tabIndex = want;
  }
}

function onTowerKey(view, e) {
  const all = chamberButtons(view);
  const at = all.indexOf(e.target);
  if (at < 0) return;
  const columns = getComputedStyle(view.list).gridTemplateColumns.split(" ").filter(Boolean).length || 1;
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns }[e.key];
  let to = null;
  if (step !== undefined) to = Math.min(all.length - 1, Math.max(0, at + step));
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = all.length - 1;
  if (to === null) return;
  e.preventDefault();
  e.stopPropagation();
  view.focusMage = all[to].dataset.mage;
  rove(view);
  all[to].focus();
}

function updateChamber(view, b, chamber, hl) {
  const o = chamber.occupant;
  const cls = hl || "";
  const key = `${o ? o.owner + o.minion : ""}|${cls}`;
  if (b.dataset.key === key) return;
  b.dataset.key = key;
  const row = b.parentElement;
  row.className = `chamber-row${CHAOS.has(chamber.mage) ? " chaos" : ""} ${cls}`.trim();
  const extra = [/\bpicked\b/.test(cls) ? "chosen" : "", /\bchoice\b/.test(cls) ? "can be chosen" : "",
    /\bpremove\b/.test(cls) ? "your premove" : "", /\bbest\b/.test(cls) ? "the computer's choice" : ""].filter(Boolean);
  b.setAttribute("aria-label", [mageName(chamber.mage), b.dataset.where, o ? `holds ${occupantWords(o)}` : "empty", ...extra].join(", "));
  const seat = row.querySelector(".seat");
  seat.replaceChildren();
  if (o) seat.append(minionPicture(o.owner, o.minion));
}

function buildTower(view) {
  const col = el("div", "tower-col");
  const h = el("h2", "", "Mage Tower");
  const list = el("ol", "tower");
  list.setAttribute("aria-label", "Mage Tower, floor 16 first");
  view.floors = new Map();
  for (let floor = 16; floor >= 1; floor--) {
    const li = el("li");
    list.append(li);
    view.floors.set(floor, { li, mage: undefined, button: null });
  }
  const priv = el("div", "private");
  view.privateBox = priv;
  view.privateKey = "";
  view.towerCol = col;
  view.list = list;
  col.append(h, list, priv);
  col.addEventListener("click", (e) => {
    const row = e.target.closest(".chamber-row");
    if (row) view.opts.onChamber?.(row.dataset.mage, e);
  });
  col.addEventListener("keydown", (e) => onTowerKey(view, e));
  col.addEventListener("focusin", (e) => {
    const b = e.target.closest?.("button.chamber");
    if (b && b.dataset.mage !== view.focusMage) { view.focusMage = b.dataset.mage; rove(view); }
  });
  return col;
}

function updateTower(view, state, hl) {
  const byFloor = new Map((state.tower || []).map((c) => [c.floor, c]));
  for (const [floor, f] of view.floors) {
    const chamber = byFloor.get(floor);
    const mage = chamber ? chamber.mage : null;
    if (mage !== f.mage) {
      f.mage = mage;
      f.li.replaceChildren();
      if (mage) {
        const made = chamberRow(view, mage, String(floor), `floor ${floor}`);
        f.button = made.button;
        f.li.append(made.row);
      } else {
        f.button = null;
        const unused = el("div", "unused", String(floor));
        unused.setAttribute("aria-label", `Floor ${floor}: not used in this variant`);
        unused.setAttribute("role", "img");
        f.li.append(unused);
      }
    }
    if (chamber) updateChamber(view, f.button, chamber, hl[mage]);
  }
  const priv = state.private || { white: [], black: [] };
  const pkey = ["white", "black"].map((c) => (priv[c] || []).map((x) => x.mage).join(",")).join("/");
  if (pkey !== view.privateKey) {
    view.privateKey = pkey;
    view.privateBox.replaceChildren();
    view.privateButtons = new Map();
    for (const colour of ["white", "black"]) {
      if (!(priv[colour] || []).length) continue;
      view.privateBox.append(el("h3", "", `${colourName(colour)}'s private chambers`));
      const list = el("ul", "tower");
      for (const c of priv[colour]) {
        const li = el("li");
        const made = chamberRow(view, c.mage, "✦", `${colourName(colour)}'s private chamber`);
        li.append(made.row);
        list.append(li);
        view.privateButtons.set(c.mage, made.button);
      }
      view.privateBox.append(list);
    }
  }
  for (const colour of ["white", "black"]) {
    for (const c of priv[colour] || []) {
      updateChamber(view, view.privateButtons.get(c.mage), c, hl[c.mage]);
    }
  }
  rove(view);
}

function buildPools(view) {
  const box = el("div", "pools");
  view.pools = {};
  for (const colour of ["white", "black"]) {
    const pool = el("section", "pool");
    pool.setAttribute("aria-label", `${colourName(colour)}'s reserve and dead pile`);
    const h = el("h3");
    const reserve = el("ul", "reserve");
    const deadCaption = el("p", "caption");
    const dead = el("ul", "dead");
    pool.append(h, reserve, deadCaption, dead);
    box.append(pool);
    view.pools[colour] = { box: pool, h, reserve, deadCaption, dead, key: "" };
  }
  box.addEventListener("click", (e) => {
    const b = e.target.closest("button.type");
    if (b) view.opts.onReserve?.(b.dataset.type, e);
  });
  return box;
}

function typeItem(colour, type, count, asButton, where, cls) {
  const item = el(asButton ? "button" : "div", `type${count ? "" : " none"} ${cls || ""}`.trim());
  if (asButton) {
    item.type = "button";
    item.dataset.type = type;
    item.setAttribute("aria-label", `${typeName(type)}: ${count} in your reserve${/choice/.test(cls) ? ", can be chosen" : ""}${/picked/.test(cls) ? ", chosen" : ""}${/\bpremove\b/.test(cls) ? ", your premove" : ""}`);
  } else {
    item.setAttribute("role", "img");
    item.setAttribute("aria-label", `${typeName(type)}: ${count} ${where}`);
  }
  item.title = `${colourName(colour)} ${type}: ${count} ${where}`;
  item.append(minionPicture(colour, type), el("span", "count", String(count)));
  return item;
}

function updatePools(view, state, hl) {
  for (const colour of ["white", "black"]) {
    const p = view.pools[colour];
    const reserve = (state.reserve || {})[colour] || {};
    const dead = (state.dead || {})[colour] || {};
    const mine = view.opts.me === colour;
    const key = JSON.stringify([reserve, dead, mine, mine ? hl : null]);
    if (key === p.key) continue;
    p.key = key;
    p.box.classList.toggle("mine", mine); // the page shows the seat's own reserve first
    const total = (counts) => TYPES.reduce((n, t) => n + (counts[t] || 0), 0);
    p.h.textContent = `${colourName(colour)}${mine ? " (you)" : ""}: reserve ${total(reserve)}`;
    p.reserve.replaceChildren(...TYPES.map((t) => {
      const li = el("li");
      li.append(typeItem(colour, t, reserve[t] || 0, mine, "in reserve", mine ? hl[t] : ""));
      return li;
    }));
    p.deadCaption.textContent = `Dead pile: ${total(dead)}`;
    p.dead.replaceChildren(...TYPES.filter((t) => dead[t]).map((t) => {
      const li = el("li");
      li.append(typeItem(colour, t, dead[t], false, "dead", ""));
      return li;
    }));
  }
}

function buildLegend() {
  const d = el("details", "legend");
  d.append(el("summary", "", "The minions and how they move"));
  // Its sixteen pictures are made when it is first opened, not on every page load.
  d.addEventListener("toggle", () => {
    if (!d.open || d.querySelector("ul")) return;
    const list = el("ul");
    for (const t of TYPES) {
      const li = el("li");
      const [name, rank, moves] = TYPE_INFO[t];
      li.append(minionPicture("white", t), minionPicture("black", t), el("span", "", `${name} (${rank}): ${moves}`));
      list.append(li);
    }
    d.append(list);
  });
  return d;
}

let uid = 0;

function build(container, orientation) {
  const view = { orientation, uid: ++uid, opts: {} };
  const root = el("div", "board");
  const arenaCol = el("div", "arena-col");
  arenaCol.append(buildArena(view), buildLegend());
  const side = el("div", "side-col");
  side.append(buildTower(view), buildPools(view));
  const frame = container.querySelector(":scope > .board");
  if (frame && frame.querySelector(":scope > .arena-col") && frame.querySelector(":scope > .side-col")) {
    // The page's own frame: what it puts between the columns (the players, the turn
    // panel, in the order a phone draws them) stays where it is, focus and all.
    frame.querySelector(":scope > .arena-col").replaceWith(arenaCol);
    frame.querySelector(":scope > .side-col").replaceWith(side);
  } else {
    root.append(arenaCol, side);
    container.replaceChildren(root);
  }
  views.set(container, view);
  return view;
}

/** Draws `state` into `container` (see the top of this file for the options). */
export function draw(container, state, opts = {}) {
  const orientation = opts.orientation === "black" ? "black" : "white";
  let view = views.get(container);
  if (!view || view.orientation !== orientation) view = build(container, orientation);
  view.opts = opts;
  const hl = opts.highlights || {};
  updateArena(view, state, hl.squares || {});
  updateTower(view, state, hl.chambers || {});
  updatePools(view, state, hl.reserve || {});
}

/** The highlights that mark `action` (a logged action, as the contract writes it) on the
 * board: its chamber, and the squares it moved from and to. The game page and the
 * admin replay both mark the last action with it, so they mark it alike. */
export function lastActionHighlights(action) {
  const hl = { squares: {}, chambers: {} };
  if (!action) return hl;
  if (action.mage) hl.chambers[action.mage] = "last";
  let p = action.power;
  while (p && p.power !== undefined && p.mage) p = p.power;
  if (p) {
    if (p.move) { hl.squares[p.move[0]] = "last-from"; hl.squares[p.move[1]] = "last-to"; }
    if (p.summon) hl.squares[p.summon] = "last-to";
    if (p.square) hl.squares[p.square] = "last-to";
    if (p.swap) for (const s of p.swap) hl.squares[s] = "last-to";
    if (p.target) hl.chambers[p.target] = "last";
  }
  return hl;
}
