// A finished match's computer analysis (docs/api.md, "Computer analysis"), as the
// match page and the admin replay show it: asked for with "Request analysis",
// its place in the queue and its progress while it runs (pushed on the match's
// socket; read again every few seconds only while the socket is down), then the
// judgement marks in the move list, the engine's evaluation in the advantage
// graph, its best action drawn on the board at any version shown, each player's
// accuracy, and buttons that step from one misjudged action to the next.

import { ApiError, call } from "./api.js";
import { JUDGEMENTS, actionWords } from "./analysis-words.js";
import { colourName } from "./mages.js";

const POLL_MS = 3000; // at most this often, and only while the socket is down
const PENDING = new Set(["queued", "running"]);

const path = (id) => `/matches/${encodeURIComponent(id)}/analysis`;
export const analysisApi = {
  get: (id) => call("GET", path(id)),
  request: (id, token) => call("POST", path(id), { token, body: undefined }),
};

const ordinal = (n) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
};

/** The share done, 0–1, however the server counts it (a fraction or a percentage). */
export function doneShare(analysis) {
  const p = Number(analysis && analysis.progress);
  if (!Number.isFinite(p) || p <= 0) return 0;
  return Math.min(1, p > 1 ? p / 100 : p);
}

/** The analysis's state in words ("Queued: 2nd in line", "Analysing: 40%", …). */
export function stateWords(analysis) {
  if (!analysis) return "";
  if (analysis.status === "queued") {
    return typeof analysis.position === "number" && analysis.position > 0
      ? `Computer analysis queued: ${ordinal(analysis.position)} in line.` : "Computer analysis queued.";
  }
  if (analysis.status === "running") return `Computer analysis running: ${Math.round(doneShare(analysis) * 100)}% done.`;
  if (analysis.status === "done") return "Computer analysis done.";
  if (analysis.status === "failed") return "The computer analysis could not be finished. It may be tried again.";
  return "";
}

export class Analysis {
  /**
   * matchId; els: {section, state, progress, accuracy, counts, prev, next, best, showBest,
   *   request?, signIn?, note?}; onPick(version): show that version; onChange(): the page redraws
   * (the board's best action, the graph); isLive(): whether the socket is open;
   * requester(): {token} for who may ask (null: the session's cookie), or null (then
   * els.signIn, a link to sign in, stands instead); no button on a page that never
   * offers one; movesUpTo(version): the move's number, or null.
   */
  constructor({ matchId, els, onPick, onChange = () => {}, isLive = () => false, requester = null,
    movesUpTo = () => null, marksIn = null }) {
    Object.assign(this, { matchId, els, onPick, onChange, isLive, requester, movesUpTo, marksIn });
    this.asked = false; // Request analysis pressed on this page
    this.known = false; // whether the server has said if there is one
    this.data = null; // the server's last answer (null: none asked for, or not read yet)
    this.read = false; // whether the page has asked the server once
    this.byVersion = new Map();
    this.judged = []; // [{at, entry, judgement, player?}], oldest first
    this.timer = null;
    this.asking = false;
    this.busy = false;
    els.prev.addEventListener("click", () => this.step(-1));
    els.next.addEventListener("click", () => this.step(1));
    els.showBest?.addEventListener("change", () => this.onChange());
    els.request?.addEventListener("click", () => this.request());
    // The move list's entries are made as the page reads them: each gets its mark when it comes.
    if (marksIn) new MutationObserver(() => this.mark()).observe(marksIn, { childList: true });
  }

  /** Reads the analysis once the match is finished (once only). */
  async start() {
    if (this.read) return;
    this.read = true;
    await this.fetch();
  }

  async fetch() {
    if (this.asking) return;
    this.asking = true;
    try {
      this.apply(await analysisApi.get(this.matchId));
    } catch (error) {
      // None yet (404): the button offers one. Anything else: tried again by the poll.
      if (error instanceof ApiError && error.status === 404) this.known = true;
      else this.schedule();
      this.paint();
      this.onChange();
    } finally {
      this.asking = false;
    }
  }

  async request() {
    const who = this.requester && this.requester();
    if (!who || !("token" in who) || this.busy) return;
    this.busy = true;
    this.asked = true; // the panel's rows are shown at the press, so they never move anything later
    this.paint();
    try {
      // The analysis as it stands (202 while it waits or runs, 200 once done): the whole body.
      this.apply(await analysisApi.request(this.matchId, who.token));
    } catch (error) {
      this.refusal = error instanceof ApiError ? error.message : String(error);
    } finally {
      this.busy = false;
      this.paint();
    }
  }

  /** A message on the match's socket: the analysis's own ({"type": "analysis"}, with the
   * plies written since the last one) are added to what the page holds. */
  heard(message) {
    if (!message || message.type !== "analysis") return;
    if (message.match_id && message.match_id !== this.matchId) return;
    const had = (this.data && this.data.plies) || [];
    const byVersion = new Map(had.map((p) => [p.version, p]));
    for (const p of Array.isArray(message.plies) ? message.plies : []) byVersion.set(p.version, p);
    const merged = { ...(this.data || {}), ...message, plies: [...byVersion.values()].sort((a, b) => a.version - b.version) };
    delete merged.type;
    delete merged.match_id;
    if (merged.status !== "queued") delete merged.position;
    this.apply(merged);
    // Done: the whole is read once, so a message missed (a socket that came back) leaves no gap.
    if (merged.status === "done") this.fetch();
  }

  /** The socket came back: what it missed meanwhile is read. */
  reconnected() {
    if (this.data && PENDING.has(this.data.status)) this.fetch();
  }

  apply(data) {
    this.data = data;
    this.known = true; // the page knows whether there is one
    this.refusal = "";
    this.index();
    this.paint();
    this.mark();
    this.onChange();
    this.schedule();
  }

  /** The plies by version, and the judged ones in order. A ply is a version: the
   * evaluation after it, the engine's best action from it, and the judgement of the
   * action that made it (played from the version before, where the engine's choice
   * was that version's `best`). */
  index() {
    this.byVersion = new Map();
    this.judged = [];
    for (const ply of (this.data && this.data.plies) || []) {
      if (!ply || typeof ply.version !== "number") continue;
      this.byVersion.set(ply.version, ply);
      if (ply.judgement && JUDGEMENTS[ply.judgement] && ply.version >= 1) {
        this.judged.push({ at: ply.version - 1, entry: ply.version, judgement: ply.judgement, player: ply.mover || null });
      }
    }
    this.judged.sort((a, b) => a.at - b.at);
  }

  /** While the analysis is under way and the socket is down: read again in a few seconds. */
  schedule() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.data || !PENDING.has(this.data.status)) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.isLive()) this.schedule(); // pushed: nothing to read, but watch the socket
      else this.fetch();
    }, POLL_MS);
  }

  get done() {
    return Boolean(this.data && this.data.status === "done");
  }

  /** The evaluations known so far, as the advantage graph reads them (White's view, -1…1). */
  evals() {
    return [...this.byVersion.values()].filter((p) => typeof p.eval === "number").map((p) => ({ version: p.version, white: p.eval }));
  }

  /** The engine's best action from the position at `version` (null when not known, or hidden). */
  bestAt(version) {
    if (this.els.showBest && !this.els.showBest.checked) return null;
    const ply = this.byVersion.get(version);
    return ply && ply.best ? ply.best : null;
  }

  /** The marks in the move list (an entry made later gets its own when it comes). */
  mark() {
    const list = this.marksIn;
    if (!list) return;
    const want = new Map(this.judged.map((j) => [String(j.entry), j.judgement]));
    for (const li of list.querySelectorAll("li[data-judgement]")) {
      const at = li.dataset.version || li.querySelector("[data-version]")?.dataset.version;
      if (!want.has(at)) {
        li.removeAttribute("data-judgement");
        li.querySelector(".judgement-mark")?.remove();
      }
    }
    for (const [version, judgement] of want) {
      // The entry of that version (the admin's timeline marks its button, the move list its item).
      const li = list.querySelector(`[data-version="${version}"]`)?.closest("li");
      if (!li || li.dataset.judgement === judgement) continue;
      li.dataset.judgement = judgement;
      li.querySelector(".judgement-mark")?.remove();
      const mark = document.createElement("span");
      mark.className = `judgement-mark ${judgement}`;
      const seen = document.createElement("span");
      seen.setAttribute("aria-hidden", "true");
      seen.textContent = JUDGEMENTS[judgement].mark;
      const said = document.createElement("span");
      said.className = "visually-hidden";
      said.textContent = `, ${JUDGEMENTS[judgement].words}`;
      mark.append(seen, said);
      const words = li.querySelector(".t") || li.querySelector("span:last-child") || li;
      words.append(mark);
    }
  }

  /** The next (+1) or previous (-1) misjudged action from the version shown: the
   * position it was played from is shown, with the engine's choice drawn on it. */
  step(delta, shown = this.shown) {
    const list = delta > 0 ? this.judged : [...this.judged].reverse();
    // Past the last one (from the final position, say) it goes round to the first.
    const target = list.find((j) => (delta > 0 ? j.at > shown : j.at < shown)) || list[0];
    if (target) this.onPick(target.at);
  }

  /** The version on the board, told by the page (the judgement buttons step from it). */
  follow(version) {
    this.shown = version;
    this.paintHere();
  }

  paint() {
    const { els } = this;
    const a = this.data;
    if (els.request) {
      // Offered at once (a request of a match analysed already answers that analysis);
      // withdrawn once the page knows of one, and offered again if that one failed
      // (a new request gives it fresh tries).
      const who = this.requester ? this.requester() : null;
      const can = Boolean(who && "token" in who);
      const offer = !a || a.status === "failed";
      els.request.hidden = !offer || !can;
      els.request.disabled = this.busy;
      const label = a && a.status === "failed" ? "Try the analysis again" : "Request analysis";
      if (els.request.textContent !== label) els.request.textContent = label;
      if (els.signIn) els.signIn.hidden = !offer || can;
    }
    if (els.note) {
      const text = this.refusal ? `Refused: ${this.refusal}`
        : a ? stateWords(a) : this.busy ? "Requesting a computer analysis…" : "";
      if (els.note.textContent !== text) els.note.textContent = text;
      els.note.hidden = !text && !this.asked;
    }
    if (els.state) {
      const text = a ? stateWords(a) : "";
      if (els.state.textContent !== text) els.state.textContent = text;
    }
    els.section.hidden = !a && !this.asked;
    if (!a) return;
    // Kept in its place once done (hidden from sight, not from the layout): nothing below it moves.
    els.progress.classList.toggle("spent", !PENDING.has(a.status));
    els.progress.value = Math.round(doneShare(a) * 100);
    const acc = a.accuracy || {};
    const accText = ["white", "black"].filter((c) => typeof acc[c] === "number")
      .map((c) => `${colourName(c)} ${Math.round(acc[c])}%`).join(" · ");
    els.accuracy.textContent = accText ? `Accuracy: ${accText}.` : "";
    // Short to the eye ("15 ?! · 22 ? · 12 ??", one line however many), in words to a screen reader.
    const counts = Object.keys(JUDGEMENTS).map((j) => [j, this.judged.filter((x) => x.judgement === j).length]);
    const key = this.byVersion.size ? counts.map(([, n]) => n).join(",") : "";
    if (els.counts.dataset.key !== key) {
      els.counts.dataset.key = key;
      els.counts.replaceChildren(...(key ? counts.flatMap(([j, n], i) => {
        const seen = document.createElement("span");
        seen.setAttribute("aria-hidden", "true");
        seen.textContent = `${i ? " · " : ""}${n} ${JUDGEMENTS[j].mark}`;
        const said = document.createElement("span");
        said.className = "visually-hidden";
        said.textContent = `${i ? ", " : ""}${n} ${j === "inaccuracy" ? (n === 1 ? "inaccuracy" : "inaccuracies") : n === 1 ? j : `${j}s`}`;
        return [seen, said];
      }) : []));
    }
    this.paintHere();
  }

  /** What belongs to the version shown: the engine's choice there, the step buttons. */
  paintHere() {
    const { els } = this;
    if (!this.data || this.shown === undefined) return;
    const v = this.shown;
    els.prev.disabled = els.next.disabled = this.judged.length === 0;
    const ply = this.byVersion.get(v);
    const played = this.judged.find((j) => j.at === v);
    const parts = [];
    if (played) {
      const n = this.movesUpTo(played.entry);
      const whose = played.player ? `${colourName(played.player)}'s ` : "the ";
      const what = n === null ? `${whose}action (version ${played.entry})` : `${whose}move ${n}`;
      parts.push(`Next, ${what} was ${JUDGEMENTS[played.judgement].words} (${JUDGEMENTS[played.judgement].mark}).`);
    }
    if (ply && ply.best) parts.push(`The computer's choice here: ${actionWords(ply.best)}.`);
    else if (this.byVersion.size && this.done) parts.push("No choice to judge at this version.");
    const text = parts.join(" ");
    if (els.best.textContent !== text) els.best.textContent = text;
  }
}
