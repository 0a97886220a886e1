// An arena's page, live (docs/api.md, "An arena, live"): the arena's websocket
// sends the standings' page, the pairings and the podium as they change, the
// signed-in player's own line (`me`), and `yourGame` when they are paired,
// which opens the game. The clock counts down here, set by the server's time.

import { call } from "./api.js";
import { accountName } from "./session.js";

const root = document.getElementById("arena");
const arena = JSON.parse(root.dataset.arena);
const id = encodeURIComponent(arena.id);
let status = arena.status;
let page = 1;
let pages = 1;
let myPage = null;
let offset = 0; // the server's clock less ours, in ms
let socket = null;
let retry = 500;
let lastMe = null; // the player's own line, drawn again when the arena's status changes

const $ = (name) => document.getElementById(name);

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

const SVG = "http://www.w3.org/2000/svg";

// The flame of a streak (two wins in a row or more): drawn, not an emoji, which
// a computer without a colour emoji font shows as an empty box.
function flameIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "flame");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "on fire");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "16");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M8 0c1 3 5 5 5 9a5 5 0 0 1-10 0c0-2 1-3 2-4 0 2 1 3 2 3C7 5 6 3 8 0z");
  svg.append(path);
  return svg;
}

function standingRow(s) {
  const tr = document.createElement("tr");
  tr.append(cell(String(s.rank)));
  const who = document.createElement("td");
  const link = document.createElement("a");
  link.href = `/@/${encodeURIComponent(s.name)}`;
  link.textContent = s.name;
  who.append(link);
  if (s.fire) {
    who.append(" ", flameIcon());
  }
  if (s.name === accountName()) tr.className = "mine";
  tr.append(who, cell(String(s.score)), cell(String(s.games)), cell(s.performance === null ? "–" : String(s.performance)));
  return tr;
}

const RESULTS = { white: "1–0", black: "0–1", draw: "½–½", aborted: "aborted" };

function pairingItem(g) {
  const li = document.createElement("li");
  const link = document.createElement("a");
  link.href = `/matches/${encodeURIComponent(g.match)}`;
  link.textContent = `${g.white || "…"} v ${g.black || "…"}`;
  const result = document.createElement("span");
  result.className = "result";
  result.textContent = g.status === "playing" ? "playing" : RESULTS[g.result] || "";
  li.append(link, " ", result);
  return li;
}

function showArena(m) {
  const t = m.tournament;
  const changed = t.status !== status;
  status = t.status;
  arena.starts_at = t.starts_at;
  arena.ends_at = t.ends_at;
  page = m.page;
  pages = m.pages;
  $("players").textContent = String(t.players);
  const body = $("standings");
  if (m.standings.length) {
    body.replaceChildren(...m.standings.map(standingRow));
  } else {
    const tr = document.createElement("tr");
    const td = cell("Nobody has joined yet.");
    td.colSpan = 5;
    td.className = "hint";
    tr.append(td);
    body.replaceChildren(tr);
  }
  $("page-words").textContent = `Page ${page} of ${pages}`;
  $("page-back").disabled = page <= 1;
  $("page-on").disabled = page >= pages;
  const list = $("pairings");
  if (m.pairings.length) {
    list.replaceChildren(...m.pairings.map(pairingItem));
  }
  if (m.podium.length) {
    $("podium").replaceChildren(...m.podium.map((s) => {
      const li = document.createElement("li");
      li.className = `place-${s.rank}`;
      const medal = document.createElement("span");
      medal.className = "medal";
      medal.textContent = String(s.rank);
      const link = document.createElement("a");
      link.href = `/@/${encodeURIComponent(s.name)}`;
      link.textContent = s.name;
      const points = document.createElement("span");
      points.className = "points";
      points.textContent = `${s.score} points`;
      li.append(medal, " ", link, " ", points);
      return li;
    }));
    $("podium-panel").hidden = false;
  }
  if (status === "finished") {
    const form = $("join-form");
    if (form) form.hidden = true;
    const out = $("withdraw");
    if (out) out.hidden = true;
    const guest = $("guest-line");
    if (guest) guest.textContent = "This arena is over.";
  }
  if (changed && lastMe) showMe(lastMe);
  tick();
  root.dataset.version = String(Number(root.dataset.version || 0) + 1);
}

function showMe(m) {
  lastMe = m;
  const line = $("you-line");
  if (!line) return;
  const form = $("join-form");
  const out = $("withdraw");
  myPage = m.page;
  const mine = $("page-mine");
  if (mine) mine.hidden = m.page === null;
  if (status === "finished") {
    line.textContent = m.joined ? `This arena is over: you finished #${m.standing.rank} with ${m.standing.score} points.` : "This arena is over.";
  } else if (!m.joined) {
    line.textContent = "You have not joined this arena.";
  } else {
    const s = m.standing;
    const where = `You are #${s.rank} with ${s.score} points.`;
    line.textContent = m.active ? `${where} ${status === "created" ? "You will be paired when it starts." : "You are paired as soon as a game of yours ends."}`
      : `${where} You withdrew: join again to be paired.`;
  }
  if (form) form.hidden = status === "finished" || (m.joined && m.active);
  if (out) out.hidden = status === "finished" || !(m.joined && m.active);
  const game = $("your-game");
  if (m.game) {
    $("your-game-link").href = `/matches/${encodeURIComponent(m.game)}`;
    game.hidden = false;
  } else {
    game.hidden = true;
  }
  root.dataset.joined = m.joined && m.active ? "1" : "0";
}

function two(n) {
  return String(n).padStart(2, "0");
}

function tick() {
  const words = $("clock-words");
  const clock = $("clock");
  if (status === "finished") {
    words.textContent = "Finished";
    clock.textContent = "";
    return;
  }
  const target = Date.parse(status === "created" ? arena.starts_at : arena.ends_at);
  words.textContent = status === "created" ? "Starts in" : "Ends in";
  clock.setAttribute("datetime", status === "created" ? arena.starts_at : arena.ends_at);
  const left = Math.max(0, Math.round((target - (Date.now() + offset)) / 1000));
  const h = Math.floor(left / 3600);
  clock.textContent = `${h ? `${h}:` : ""}${two(Math.floor((left % 3600) / 60))}:${two(left % 60)}`;
}

function ask(n) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "page", page: n }));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/v1/tournaments/${id}/ws?page=${page}`);
  socket.addEventListener("open", () => {
    retry = 500;
    root.dataset.live = "1";
  });
  socket.addEventListener("message", (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "hello") offset = Date.parse(m.server_time) - Date.now();
    else if (m.type === "arena") showArena(m);
    else if (m.type === "me") showMe(m);
    else if (m.type === "yourGame") location.assign(m.url);
  });
  socket.addEventListener("close", () => {
    root.dataset.live = "0";
    if (status === "finished") return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  });
}

async function change(what) {
  const error = $("you-error");
  error.textContent = "";
  const field = $("arena-password");
  try {
    const body = what === "join" && field ? { password: field.value } : undefined;
    await call("POST", `/tournaments/${id}/${what}`, { body });
    $("live-note").textContent = what === "join" ? "You joined the arena." : "You withdrew from the arena.";
  } catch (e) {
    error.textContent = e.message;
  }
}

const form = $("join-form");
if (form) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    change("join");
  });
  $("withdraw").addEventListener("click", () => change("withdraw"));
}
$("page-back").addEventListener("click", () => ask(Math.max(1, page - 1)));
$("page-on").addEventListener("click", () => ask(Math.min(pages, page + 1)));
const mine = $("page-mine");
if (mine) mine.addEventListener("click", () => myPage && ask(myPage));
tick();
setInterval(tick, 1000);
connect();
