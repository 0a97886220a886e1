// The match chat (issue 20; docs/api.md, "Chat"), on the match's own socket
// (live.js): at each connection it asks to follow its room (`chat_follow`),
// then draws the lines it is sent. A line is always put in as text, never as
// markup. Guests get the stock phrases as buttons; a refusal (flood, repeat,
// mute, a guest's own words) is shown under the lines. "Turn chat off" is kept
// by this browser (localStorage) and stops the lines coming at all: the socket
// unfollows the room (`chat_unfollow`) and follows it again when turned on.

import { reportControl } from "./chat-report.js";

const OFF = "magery.chat.off";
const $ = (id) => document.getElementById(id);
const ROOM_NAMES = { players: "Players' chat: only you and your opponent read it.", spectators: "Spectators' chat: the players do not see it." };

let sent = 0;

function chatOff() {
  try {
    return localStorage.getItem(OFF) === "1";
  } catch {
    return false;
  }
}

export function startChat(live, matchId, seatOf) {
  const root = $("chat");
  if (!root) return;
  const lines = $("chat-lines");
  const refusal = $("chat-refusal");
  const input = $("chat-text");
  const shown = new Set();
  let room = null;
  const pending = new Map(); // id of a line sent → its text, until acknowledged or refused

  function paintOff() {
    const off = chatOff();
    $("chat-off").setAttribute("aria-pressed", off ? "true" : "false");
    $("chat-off").textContent = off ? "Turn chat on" : "Turn chat off";
    $("chat-body").hidden = off;
    $("chat-off-note").hidden = !off;
  }

  function say(text) {
    refusal.textContent = "";
    sent += 1;
    const id = `chat-${Date.now().toString(36)}-${sent}`;
    if (!live.send({ type: "chat", text, id })) {
      refusal.textContent = "Not connected: the line was not sent.";
      return;
    }
    pending.set(id, text);
  }

  function lineItem(line) {
    const li = document.createElement("li");
    li.dataset.id = String(line.id);
    const author = document.createElement("span");
    author.className = `chat-author${line.seat ? ` ${line.seat}` : ""}`;
    author.textContent = line.author;
    const said = document.createElement("span");
    said.className = "chat-text";
    said.textContent = line.text; // text, never markup
    const report = reportControl(line, `/matches/${encodeURIComponent(matchId)}/chat/${line.id}/report`,
      () => seatOf() && seatOf().token, refusal);
    li.append(author, ": ", said, " ", report);
    return li;
  }

  function paintRoom(m) {
    if (room !== m.room) {
      room = m.room;
      shown.clear();
      lines.replaceChildren();
    }
    $("chat-title").textContent = m.room === "players" ? "Chat with your opponent" : "Spectators' chat";
    $("chat-room").textContent = m.muted_until
      ? `You are muted in chat until ${m.muted_until.slice(0, 16).replace("T", " ")} UTC.`
      : ROOM_NAMES[m.room];
    const phrases = $("chat-phrases");
    phrases.replaceChildren(...m.phrases.map((p) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "quiet";
      b.textContent = p;
      b.addEventListener("click", () => say(p));
      return b;
    }));
    phrases.hidden = !m.guest;
    $("chat-guest-note").hidden = !m.guest;
    $("chat-form").hidden = m.guest;
  }

  live.addEventListener("open", () => {
    if (!chatOff()) live.send({ type: "chat_follow" });
  });
  live.addEventListener("message", (event) => {
    const m = event.detail;
    if (m.type === "chat_room") paintRoom(m);
    else if (m.type === "chat" && m.room === room) {
      const atEnd = lines.scrollTop + lines.clientHeight >= lines.scrollHeight - 4;
      for (const line of m.lines) {
        if (shown.has(line.id)) continue;
        shown.add(line.id);
        lines.append(lineItem(line));
      }
      if (atEnd) lines.scrollTop = lines.scrollHeight;
    } else if (m.type === "chat_hidden" && m.room === room) {
      for (const id of m.ids) lines.querySelector(`li[data-id="${Number(id)}"]`)?.remove();
    } else if (m.type === "chat_ack" && pending.has(m.id)) {
      if (input.value === pending.get(m.id)) input.value = "";
      pending.delete(m.id);
    } else if (m.type === "error" && pending.has(m.id)) {
      pending.delete(m.id);
      refusal.textContent = `Not sent: ${m.detail}`;
    }
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) say(text);
  });
  $("chat-off").addEventListener("click", () => {
    try {
      localStorage.setItem(OFF, chatOff() ? "0" : "1");
    } catch {
      // storage refused (private mode): the switch holds for this page only
    }
    paintOff();
    live.send({ type: chatOff() ? "chat_unfollow" : "chat_follow" }); // not connected: the next open asks
  });
  paintOff();
}
