// The advantage graph under the replay of a finished match: every position
// judged by the strong bot's evaluation (GET /advantage), White's advantage
// up, Black's down. Only for a finished match: the server refuses a running
// one, and the page never asks. A click on the graph shows that version.

import { matches } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 300; // the viewBox: the graph scales to its box
const H = 80;
const MID = H / 2;

function el(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Words for a value in [-1, 1], from White's view. */
export function advantageWords(white) {
  const side = white > 0 ? "White" : "Black";
  const size = Math.abs(white);
  if (size >= 0.999) return `${side} has won`;
  if (size < 0.1) return "even";
  const how = size < 0.35 ? "slightly better" : size < 0.7 ? "better" : "winning";
  return `${side} ${how} (${white > 0 ? "+" : "−"}${size.toFixed(2)})`;
}

export class AdvantageGraph {
  /** `movesUpTo(version)`: how many moves were made up to a version (null when not
   * known): the graph is read in moves, as the move list counts them. */
  constructor({ host, matchId, onPick, movesUpTo = () => null }) {
    this.host = host;
    this.movesUpTo = movesUpTo;
    this.matchId = matchId;
    this.onPick = onPick;
    this.points = null; // drawn: the judge's points, with the analysis's evaluations over them
    this.base = null; // GET /advantage's points
    this.evals = new Map(); // version -> White's advantage, from the computer analysis
    this.marks = []; // [{version, judgement}]: the analysis's misjudged actions, dotted on the line
    this.asked = false;
    this.marker = null;
    this.readout = null;
  }

  /** Fetches and draws the graph once the match is finished (once only). */
  async load(match) {
    if (this.asked || match.status !== "finished") return;
    this.asked = true;
    try {
      this.base = (await matches.advantage(this.matchId)).points;
    } catch {
      this.asked = false; // a later refresh may try again
      return;
    }
    this.compose();
  }

  /** The computer analysis's evaluations (deeper than the judge's) and its judged
   * actions: drawn over the judge's line, version by version, as they come in. */
  analysed(evals, marks) {
    const key = JSON.stringify([evals.length, evals[evals.length - 1], marks.length]);
    if (key === this.analysedKey) return;
    this.analysedKey = key;
    this.evals = new Map(evals.map((p) => [p.version, Math.max(-1, Math.min(1, p.white))]));
    this.marks = marks;
    this.compose();
  }

  compose() {
    if (!this.base) return;
    this.points = this.base.map((p) => (this.evals.has(p.version) ? { ...p, white: this.evals.get(p.version) } : p));
    const shown = this.shown;
    this.draw();
    if (shown !== undefined) this.mark(shown);
  }

  x(version) {
    const last = this.points[this.points.length - 1].version || 1;
    return (version / last) * W;
  }

  y(white) {
    return MID - white * (MID - 2);
  }

  draw() {
    const pts = this.points;
    if (!pts || pts.length < 2) return;
    const line = pts.map((p) => `${this.x(p.version).toFixed(1)},${this.y(p.white).toFixed(1)}`).join(" L");
    const area = `M0,${MID} L${line} L${W},${MID} Z`;
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", class: "advantage-plot" });
    svg.append(
      el("rect", { x: 0, y: 0, width: W, height: MID, class: "adv-white-half" }),
      el("rect", { x: 0, y: MID, width: W, height: MID, class: "adv-black-half" }),
    );
    // The area above the midline is White's, below it Black's: clip one shape twice.
    const id = `adv-${this.matchId}`;
    const defs = el("defs", {});
    const up = el("clipPath", { id: `${id}-up` });
    up.append(el("rect", { x: 0, y: 0, width: W, height: MID }));
    const down = el("clipPath", { id: `${id}-down` });
    down.append(el("rect", { x: 0, y: MID, width: W, height: MID }));
    defs.append(up, down);
    svg.append(defs,
      el("path", { d: area, class: "adv-area-white", "clip-path": `url(#${id}-up)` }),
      el("path", { d: area, class: "adv-area-black", "clip-path": `url(#${id}-down)` }),
      el("line", { x1: 0, y1: MID, x2: W, y2: MID, class: "adv-mid" }),
      // Gridlines at half an advantage either way, and at each quarter of the match.
      ...[0.5, -0.5].map((v) => el("line", { x1: 0, y1: this.y(v), x2: W, y2: this.y(v), class: "adv-grid" })),
      ...[0.25, 0.5, 0.75].map((f) => el("line", { x1: f * W, y1: 0, x2: f * W, y2: H, class: "adv-grid" })),
      el("path", { d: `M${line}`, class: "adv-line", fill: "none" }),
      // A round-capped line of no length is a dot that the stretched viewBox keeps round.
      ...this.marks.filter((m) => pts[m.version]).map((m) => el("line", {
        x1: this.x(m.version), y1: this.y(pts[m.version].white), x2: this.x(m.version), y2: this.y(pts[m.version].white),
        class: `adv-judgement ${m.judgement}`,
      })),
    );
    svg.classList.toggle("analysed", this.evals.size > 0);
    this.marker = el("line", { x1: 0, y1: 0, x2: 0, y2: H, class: "adv-marker" });
    svg.append(this.marker);
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const last = pts[pts.length - 1].version;
      const version = Math.round(((e.clientX - box.left) / box.width) * last);
      this.onPick(Math.max(1, Math.min(last, version)));
    });
    const best = pts.reduce((a, p) => (Math.abs(p.white) > Math.abs(a.white) && Math.abs(p.white) < 0.999 ? p : a), pts[0]);
    svg.setAttribute("role", "img");
    const total = this.movesUpTo(pts[pts.length - 1].version);
    svg.setAttribute("aria-label", total === null
      ? `Advantage over ${pts.length - 1} versions; the largest before the end: ${advantageWords(best.white)} at version ${best.version}`
      : `Advantage over ${total} moves; the largest before the end: ${advantageWords(best.white)} after move ${this.movesUpTo(best.version)}`);
    if (this.evals.size) svg.setAttribute("aria-label", `${svg.getAttribute("aria-label")}; with the computer analysis's evaluations`);
    this.readout = document.createElement("p");
    this.readout.className = "adv-readout";
    this.host.replaceChildren(this.axes(svg, pts[pts.length - 1].version), this.readout);
    this.host.hidden = false;
  }

  /** The plot with its axes: who is ahead up the side, the versions along the foot.
   * Drawn in HTML beside the SVG, whose stretched viewBox would distort text. */
  axes(svg, last) {
    const div = (cls, words) => {
      const box = document.createElement("div");
      box.className = cls;
      box.setAttribute("aria-hidden", "true"); // the plot's own name says it all
      for (const word of words) {
        const span = document.createElement("span");
        span.textContent = word;
        box.append(span);
      }
      return box;
    };
    const frame = document.createElement("div");
    frame.className = "adv-frame";
    const inMoves = this.movesUpTo(last) !== null;
    const tick = (v) => String(inMoves ? this.movesUpTo(v) : v);
    frame.append(
      div("adv-y", ["White ahead", "even", "Black ahead"]),
      svg,
      div("adv-x", ["0", tick(Math.round(last / 4)), tick(Math.round(last / 2)), tick(Math.round((3 * last) / 4)), tick(last)]),
      div("adv-x-title", [inMoves ? "move" : "version"]),
    );
    return frame;
  }

  /** Marks the version on the board and says how it stands. */
  mark(version) {
    this.shown = version;
    if (!this.marker || !this.points) return;
    // One point per version from 0, so a version is its own index.
    const p = this.points[version] || this.points[this.points.length - 1];
    const x = this.x(p.version).toFixed(1);
    this.marker.setAttribute("x1", x);
    this.marker.setAttribute("x2", x);
    const done = this.movesUpTo(p.version);
    const text = `${done === null ? `Version ${p.version}` : `Move ${done}`}: ${advantageWords(p.white)}`;
    if (this.readout.textContent !== text) this.readout.textContent = text;
  }
}
