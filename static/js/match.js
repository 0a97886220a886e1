// The match page: draws the state the server sends (board.js), keeps it live
// over the websocket (live.js), offers the seat to move only what is legal
// (controls.js): what the seat's socket carried with the state of its turn, or
// GET /legal when that did not come, and keeps the log and the replay (timeline.js).

import { AdvantageGraph } from "./advantage.js";
import { Analysis } from "./analysis.js";
import { bestHighlights, drawBestArrow, mergeHighlights } from "./analysis-words.js";
import { alertControls, Announcer } from "./alerts.js";
import { ApiError, matches } from "./api.js";
import { startChat } from "./chat.js";
import { draw, focusSquare, lastActionHighlights } from "./board.js";
import { Controls } from "./controls.js";
import { FocusKeeper } from "./focus.js";
import { Explainer, withRulings } from "./explain.js";
import { Guide } from "./guide.js";
import { Live } from "./live.js";
import { Offers } from "./offers.js";
import { startDownloads } from "./downloads.js";
import { startShortcuts } from "./shortcuts.js";
import { startThemes } from "./themes.js";
import { myTurn, paintClaim, paintClocks, paintEnd, paintPlayers, paintSeatPanel, paintTools, statusWords } from "./panels.js";
import { Premove } from "./premove.js";
import { Rematch } from "./rematch.js";
import { forgetSeat, loadSeat, saveName, savedName, saveSeat, seatLink, takeSeatFromFragment } from "./seat.js";
import { accountName } from "./session.js";
import { Timeline } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const COLOURS = ["white", "black"];
// How long a seat waits for its socket's state of a version it holds already (the
// action's own answer came first) before it asks GET /legal instead.
const LEGAL_WAIT_MS = 2000;

const page = {
  id: $("app").dataset.matchId,
  match: JSON.parse($("app").dataset.initial),
  seat: null,
  spectators: null,
  lastAction: null, // {version, action}: the action that made `version`, as this page heard it
  review: null, // {match, action} while an older version is shown
  clockAt: performance.now(),
  awaySince: null,
  legalFor: -1,
  told: null, // the legal actions the seat's socket carried last ({version, actions, setup})
  heard: -1, // the newest version the socket delivered
  legalTimer: null, // waiting for the socket's state of the seat's turn (LEGAL_WAIT_MS)
  online: true,
  flipped: false, // "Flip board": the arena seen from the other side
};
page.seat = takeSeatFromFragment(page.id) || loadSeat(page.id) || accountSeat(page.match);

/** A signed-in player holding no seat token here acts with the session cookie
 * in a seat the state says is their account's ({seat, token: null}: api.js then
 * sends no Authorization header, and the cookie with its CSRF header speaks). */
function accountSeat(match) {
  const me = accountName();
  if (!me) return null;
  const mine = COLOURS.find((c) => match.players[c] && match.players[c].account === me);
  return mine ? { seat: mine, token: null } : null;
}

const boardHost = $("board");
const controls = new Controls({
  panel: $("turn"), title: $("turn-title"), promptEl: $("prompt"), choicesEl: $("choices"), onAct: act,
});
// A premove: the seat's next action chosen during the opponent's turn (premove.js).
const premove = new Premove();
const timeline = new Timeline({
  matchId: page.id, list: $("log"), position: $("position"),
  buttons: { first: $("first"), prev: $("prev"), next: $("next"), last: $("last"), live: $("live") },
  onShow: (found) => { page.review = found && found.match.version !== page.match.version ? found : null; refresh(); },
});

// The guided first match's sentences, and the chambers' and minions' explanations.
const guide = new Guide(page, $("turn"));
const explainer = new Explainer(boardHost, () => (page.review ? page.review.match : page.match));

// Under the replay of a finished match: how the strong bot judged each position.
const graph = new AdvantageGraph({
  host: $("advantage"), matchId: page.id, onPick: (v) => timeline.show(v), movesUpTo: (v) => timeline.movesUpTo(v),
});
const focus = new FocusKeeper([boardHost, $("turn")]);

// The computer analysis of a finished match (analysis.js): asked for at the end by
// a player (an account signed in, or a seat of this match), pushed as it fills in.
const analysis = new Analysis({
  matchId: page.id,
  els: {
    section: $("analysis"), state: $("analysis-state"), progress: $("analysis-progress"), accuracy: $("accuracy"),
    counts: $("judgement-counts"), prev: $("prev-judgement"), next: $("next-judgement"), best: $("best-line"),
    showBest: $("show-best"), request: $("request-analysis"), signIn: $("analysis-sign-in"), note: $("analysis-note"),
  },
  onPick: (v) => timeline.show(v),
  onChange: () => refresh(),
  isLive: () => Boolean(live.socket && live.socket.readyState === WebSocket.OPEN),
  requester: () => {
    if (page.seat && page.seat.token) return { token: page.seat.token };
    if (accountName()) return { token: null }; // the session's cookie speaks
    return null; // a link to sign in stands instead
  },
  movesUpTo: (v) => timeline.movesUpTo(v),
  marksIn: $("log"),
});

// Sounds, a notification and toasts for what changed (alerts.js); playing again (rematch.js).
const announcer = new Announcer(() => (page.seat ? page.seat.seat : null));
const rematch = new Rematch({ matchId: page.id, getPage: () => page, onMatch: (m) => applyMatch(m), onError: refuse });
startDownloads($("comforts"), page.id, () => (page.review ? page.review.match : page.match));
startShortcuts({ host: $("comforts"), flip: () => $("flip").click() });
startThemes($("comforts"));
const offers = new Offers({ host: $("offers"), matchId: page.id, onMatch: (m) => applyMatch(m), onError: refuse });

// ---- what the server says ----------------------------------------------------------

function applyMatch(match, action, player) {
  if (match.version < page.match.version) return;
  if (!page.seat) page.seat = accountSeat(match); // joined as the account elsewhere (another tab, a client)
  announcer.changed(page.match, match, action, player);
  // Told to the page's other parts that follow the match (arena-game.js's Berserk button).
  document.dispatchEvent(new CustomEvent("magery:match", { detail: { match, action, player } }));
  rematch.follow(match);
  const changed = match.version !== page.match.version;
  if (typeof match.spectators === "number") page.spectators = match.spectators;
  page.match = match;
  page.clockAt = performance.now();
  if (action !== undefined) page.lastAction = { version: match.version, action };
  if (changed) controls.clear();
  if (changed && page.seat && match.to_move !== page.seat.seat) premove.note = ""; // said until the seat acted
  refresh();
  // Asked whatever moved: the seat may have changed at the same version (a join
  // whose update came over the socket before the join's answer gave the seat).
  refreshLegal();
}

/** What the seat's socket said of a version: its state came (`legal` with it or not). */
function heard(version, legal) {
  page.heard = Math.max(page.heard, version);
  if (legal && (!page.told || legal.version >= page.told.version)) page.told = legal;
}

/** The seat's legal actions at the version shown, when it is its turn: those its
 * socket carried with that state, or, when that state came without them (or has
 * not come within LEGAL_WAIT_MS, or `ask`), GET /legal's. */
async function refreshLegal(ask = false) {
  const m = page.match;
  const seat = page.seat;
  if (!seat || m.status !== "active" || m.to_move !== seat.seat) return;
  if (page.legalFor === m.version) return;
  clearTimeout(page.legalTimer);
  page.legalTimer = null;
  if (!ask && page.told && page.told.version === m.version) {
    page.legalFor = m.version;
    offer(page.told, seat);
    return;
  }
  if (!ask && page.heard < m.version && live.carriesLegal()) {
    page.legalTimer = setTimeout(() => refreshLegal(true), LEGAL_WAIT_MS);
    return;
  }
  page.legalFor = m.version;
  try {
    const legal = await matches.legal(page.id, seat.token);
    if (legal.version !== page.match.version) {
      page.legalFor = -1;
      if (legal.version > page.match.version) await reload();
      return;
    }
    offer(legal, seat);
  } catch (error) {
    page.legalFor = -1;
    refuse(error);
  }
}

/** The turn has come: offer `legal`; a premove still legal is played now, else it is dropped, with a word. */
function offer(legal, seat) {
  controls.setLegal(legal, seat.seat);
  const planned = premove.take(legal);
  if (planned && planned.picks) controls.picks = planned.picks;
  if (planned && planned.action) {
    controls.submit(planned.action);
    return;
  }
  refresh();
  if (focus.free) focusChoice();
  if (!performance.getEntriesByName("magery-playable").length) performance.mark("magery-playable");
}

async function reload() {
  try {
    applyMatch(await matches.get(page.id));
  } catch (error) {
    refuse(error);
  }
}

async function act(action) {
  $("refusal").textContent = "";
  refresh();
  try {
    const answer = await matches.act(page.id, page.seat.token, action, controls.legal.version);
    if (answer.match.version >= page.match.version) page.lastAction = { version: answer.match.version, action };
    applyMatch(answer.match);
  } catch (error) {
    refuse(error);
    controls.busy = false;
    controls.cancel();
    page.legalFor = -1;
    if (error.code === "stale_version" || error.code === "not_your_turn") await reload();
    refreshLegal(true); // refused: asked afresh, whatever the socket carried
    refresh();
  }
}

function refuse(error) {
  const detail = error instanceof ApiError ? error.message : String(error);
  $("refusal").replaceChildren(...withRulings(`Refused: ${detail}`)); // "R9" links to its ruling
}

const live = new Live(page.id, page.seat && page.seat.token, {
  onSnapshot(match, spectators, legal) {
    if (match.version > timeline.latest) timeline.resync(match);
    heard(match.version, legal);
    applyMatch(match); // its legal actions again if the version moved on
  },
  onUpdate(m) {
    timeline.add(m);
    heard(m.version, m.legal);
    applyMatch(m.match, m.action, m.player);
  },
  onLegal(m) {
    heard(m.version, m);
    refreshLegal();
  },
  onPresence(m) {
    // A seat the message does not describe (null) keeps what the page knew of it.
    const players = { ...page.match.players };
    for (const c of COLOURS) if (m.players && m.players[c] && m.players[c].name) players[c] = m.players[c];
    page.match = { ...page.match, players };
    page.spectators = m.spectators;
    refresh();
  },
  onLine(up, detail, retrying) {
    if (!up && !retrying && page.seat && page.seat.token && /^unauthorized/.test(detail)) {
      // The token this browser kept holds no seat here (any more): watch instead.
      forgetSeat(page.id);
      page.seat = null;
      live.restart(null);
      refresh();
      return;
    }
    page.online = up;
    const banner = $("banner");
    banner.hidden = up;
    if (!up) banner.textContent = retrying ? detail : `Disconnected: ${detail}. Reload the page to try again.`;
    if (up) $("banner").textContent = "";
  },
});

// ---- drawing -----------------------------------------------------------------------

/** The action that made the version on show: from the log (so a reload or a
 * finished match opened fresh marks it too), else as this page heard it. */
function lastAction() {
  const v = page.match.version;
  const logged = timeline.actionAt(v);
  if (logged) return logged;
  return page.lastAction && page.lastAction.version === v ? page.lastAction.action : null;
}

/** The side seen at the bottom: the seat's own (White for a spectator), or the other once flipped. */
function orientation() {
  const own = page.seat ? page.seat.seat : "white";
  return page.flipped ? (own === "white" ? "black" : "white") : own;
}

function drawBoard() {
  const showing = page.review ? page.review.match : controls.boardState(page.match);
  const lastOnly = lastActionHighlights(page.review ? page.review.action : lastAction());
  // The analysis's best action at the version shown, beside the last action's marks.
  const bestAction = analysis.bestAt(showing.version);
  const best = bestHighlights(bestAction);
  const last = { squares: mergeHighlights(lastOnly.squares, best.squares), chambers: mergeHighlights(lastOnly.chambers, best.chambers) };
  const none = { squares: {}, chambers: {}, reserve: {} };
  const mine = page.review ? none : controls.highlights();
  const planned = page.review ? none : premove.highlights();
  draw(boardHost, showing, {
    orientation: orientation(),
    me: page.seat ? page.seat.seat : null,
    highlights: {
      squares: { ...last.squares, ...planned.squares, ...mine.squares },
      chambers: { ...last.chambers, ...planned.chambers, ...mine.chambers },
      reserve: { ...planned.reserve, ...mine.reserve },
    },
    draggable: page.review ? null : controls.draggable(),
    onSquare: (sq, e) => choice("square", sq, e),
    onChamber: (mage, e) => choice("chamber", mage, e),
    onReserve: (type, e) => choice("reserve", type, e),
    onDrop: (from, to) => { controls.swap(from, to); controls.setupPick = null; refresh(); },
  });
  drawBestArrow(boardHost.querySelector(".arena"), bestAction);
}

function choice(kind, value, event) {
  if (page.review) return;
  if (!controls.click(kind, value)) {
    if (premove.click(kind, value)) refresh(); // the opponent's turn: a premove
    return;
  }
  $("refusal").textContent = "";
  refresh();
  // Keyboard players are taken to the next choice (a click from a key has detail 0).
  if (event && event.detail === 0 && !controls.setupRow) focusChoice();
}

/** Focus to where the next choice is: the first square, chamber or reserve type on
 * offer, else the turn panel's first button; with nothing to choose, the arena. */
function focusChoice() {
  if (page.review || controls.busy) return;
  if (controls.active) {
    const next = controls.setupRow ? null : controls.firstChoice();
    if (next && next.kind === "square") return focusSquare(boardHost, next.value);
    if (next && next.kind === "chamber" && focus.move(boardHost.querySelector(`.chamber[data-mage="${next.value}"]`))) return;
    if (next && next.kind === "reserve" && focus.move(boardHost.querySelector(`button.type[data-type="${next.value}"]`))) return;
    if (focus.move($("choices").querySelector("button:not(:disabled)"))) return;
  }
  focus.move(boardHost.querySelector('.arena [tabindex="0"]'), true);
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function refresh() {
  const m = page.match;
  premove.follow(m, page.seat ? page.seat.seat : null, Boolean(page.review));
  drawBoard();
  controls.render(refresh);
  if (page.review) $("turn").hidden = true;
  premove.render($("premove"), refresh);
  setText($("live"), m.status === "finished" ? "Back to the final position" : "Back to the live position");
  if (focus.lost) focusChoice(); // its button left the page (a choice made, an action sent)
  explainer.refresh();
  guide.show(controls);
  setText($("status"), statusWords(page)); // a live region: said again only when it changes
  setText($("watchers"), page.spectators === null ? "" : `${page.spectators} watching`);
  paintPlayers(page);
  paintClocks(page);
  // Before the seat's panel, which hides itself when every part of it is hidden:
  // the offers' part too, at the end, in the same frame as the end's panel appears.
  offers.paint(m, page.seat);
  paintSeatPanel(page);
  paintEnd(page);
  paintTools(page);
  rematch.paint();
  // Once the log is read, so the graph is read in moves as the move list is.
  if (m.status === "finished" && timeline.loaded) {
    analysis.start();
    analysis.follow(page.review ? page.review.match.version : m.version);
    graph.analysed(analysis.evals(), analysis.judged.map((j) => ({ version: j.entry, judgement: j.judgement })));
    graph.load(m).then(() => graph.mark(timeline.shown ?? m.version));
  }
  analysis.paint();
  const nameOf = (c) => (m.players[c] && m.players[c].name) || "…";
  const names = `${nameOf("white")} v ${nameOf("black")}`;
  document.title = myTurn(page) ? `Your turn · ${names} · Magery Online` : `${names} · Magery Online`;
  markState();
}

/** What the page holds, as attributes of <html> that tests and the benchmark wait
 * on: data-version (the match's version shown live), data-seat (this browser's
 * colour; absent for a spectator), data-legal-version (the version whose legal
 * actions the turn panel offers; absent when it offers none) and data-sending
 * (present while an action is on its way), data-premove (present while a
 * premove waits for the turn) and data-analysis (the computer analysis's status, "none" once read and absent). */
function markState() {
  const marks = document.documentElement.dataset;
  const set = (name, value) => {
    if (value === null) delete marks[name];
    else if (marks[name] !== String(value)) marks[name] = String(value);
  };
  set("version", page.match.version);
  set("seat", page.seat ? page.seat.seat : null);
  set("legalVersion", controls.legal ? controls.legal.version : null);
  set("sending", controls.busy ? "1" : null);
  set("premove", premove.planned ? "1" : null);
  // The computer analysis: queued, running or done; none once the server said it has none.
  set("analysis", analysis.data && analysis.data.status ? analysis.data.status : analysis.known ? "none" : null);
}

// ---- the seat's buttons -------------------------------------------------------------

async function seatCall(call) {
  $("refusal").textContent = "";
  try {
    const answer = await call();
    if (answer && answer.match) applyMatch(answer.match);
  } catch (error) {
    refuse(error);
  }
}

$("resign").addEventListener("click", () => {
  $("resign-confirm").hidden = false;
  $("resign-yes").focus();
});
$("resign-no").addEventListener("click", () => { $("resign-confirm").hidden = true; $("resign").focus(); });
$("resign-yes").addEventListener("click", () => {
  $("resign-confirm").hidden = true;
  seatCall(() => matches.resign(page.id, page.seat.token));
});
$("offer-draw").addEventListener("click", () => seatCall(() => matches.draw(page.id, page.seat.token, true)));
$("accept-draw").addEventListener("click", () => seatCall(() => matches.draw(page.id, page.seat.token, true)));
$("decline-draw").addEventListener("click", () => seatCall(() => matches.draw(page.id, page.seat.token, false)));
$("withdraw-draw").addEventListener("click", () => seatCall(() => matches.draw(page.id, page.seat.token, false)));
$("abort").addEventListener("click", () => seatCall(() => matches.abort(page.id, page.seat.token)));
$("claim").addEventListener("click", () => seatCall(() => matches.claim(page.id, page.seat.token, "win")));
// A right-click on the board cancels a premove (as lichess's does); with none, the menu opens as ever.
boardHost.addEventListener("contextmenu", (e) => {
  if (!premove.cancel()) return;
  e.preventDefault();
  refresh();
});
$("flip").addEventListener("click", () => {
  page.flipped = !page.flipped;
  $("flip").setAttribute("aria-pressed", String(page.flipped));
  refresh();
});
alertControls($("mute"), $("notify"));
$("copy-invite").addEventListener("click", () => copy($("invite-link").value, $("copy-invite")));
$("copy-seat").addEventListener("click", () => {
  const field = $("seat-link");
  field.value = seatLink(page.id, page.seat);
  copy(field.value, $("copy-seat"));
});
$("join-name").value = accountName() || savedName();
$("watch-instead").addEventListener("click", () => { page.onlyWatching = true; refresh(); });
$("join").addEventListener("click", async () => {
  const name = $("join-name").value.trim() || "Anonymous";
  $("refusal").textContent = "";
  // The box goes at the press, not when the answer comes: the page moves while
  // the player is still acting, not a moment later under their finger.
  page.joining = true;
  refresh();
  try {
    const joined = await matches.join(page.id, name);
    if (!accountName()) saveName(name);
    if (joined.token) saveSeat(page.id, joined.seat, joined.token); // an account's seat may come without one
    page.seat = { seat: joined.seat, token: joined.token || null };
    live.restart(joined.token || null);
    applyMatch(joined.match);
  } catch (error) {
    refuse(error);
  } finally {
    page.joining = false;
    refresh();
  }
});

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select and copy the text";
  }
  setTimeout(() => { button.textContent = button.id === "copy-seat" ? "Copy seat link" : "Copy"; }, 2000);
}

document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target.closest("input, select, textarea, .arena")) return;
  if (e.key === "ArrowLeft") { timeline.step(-1); e.preventDefault(); }
  if (e.key === "ArrowRight") { timeline.step(1); e.preventDefault(); }
});

setInterval(() => {
  if (page.match.clock && page.match.status === "active") {
    paintClocks(page);
    const me = page.seat && page.seat.seat;
    const clock = page.match.clock;
    if (me) announcer.clock(page.match, clock[me] - (clock.running === me ? performance.now() - page.clockAt : 0));
  }
  if (!$("claim-box").hidden || page.awaySince !== null) paintClaim(page);
}, 250);

// ---- start ----------------------------------------------------------------------------

refresh();
startChat(live, page.id, () => page.seat); // the chat rides the same socket (issue 20)
live.addEventListener("message", (e) => analysis.heard(e.detail)); // the analysis's progress, pushed
live.addEventListener("open", () => analysis.reconnected());
live.start();
refreshLegal(); // after the socket is opening: its snapshot carries a seat's legal actions
timeline.load(page.match).then(() => refresh()); // the log knows the last action: mark it
performance.mark("magery-interactive");
document.documentElement.dataset.ready = "1";
