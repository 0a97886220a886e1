// Reporting a chat line (docs/api.md, "Chat", Report): Report opens a small
// choice of why (abuse, spam, cheating talk, other) beside the line; once sent,
// "Reported" comes with Undo for the minute the server allows a report to be
// withdrawn (a press by mistake), then the report stands.

import { call } from "./api.js";

const REASONS = [["abuse", "Abuse"], ["spam", "Spam"], ["cheating", "Cheating talk"], ["other", "Other"]];
const UNDO_MS = 60000; // as the server's window (UNDO_SECONDS)

function button(text, className, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.textContent = text;
  if (label) b.setAttribute("aria-label", label);
  return b;
}

/** The report control of one line: `path` its report URL, `token()` the seat's token
 * (or null) as it is when pressed, `refusal` where a refusal is said. */
export function reportControl(line, path, token, refusal) {
  const box = document.createElement("span");
  box.className = "chat-report-box";
  const who = `${line.author}'s line`;

  function idle() {
    const open = button("Report", "chat-report link", `Report ${who}`);
    open.addEventListener("click", choose);
    box.replaceChildren(open);
  }

  function choose() {
    const group = document.createElement("span");
    group.className = "chat-report-choice";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", `Why report ${who}?`);
    const select = document.createElement("select");
    select.setAttribute("aria-label", "Reason");
    for (const [value, text] of REASONS) select.append(Object.assign(document.createElement("option"), { value, textContent: text }));
    const send = button("Send report", "chat-report link");
    const cancel = button("Cancel", "chat-report link", "Cancel the report");
    send.addEventListener("click", () => sendReport(select.value, send));
    cancel.addEventListener("click", idle);
    group.append(select, " ", send, " ", cancel);
    box.replaceChildren(group);
    select.focus();
  }

  async function sendReport(reason, send) {
    send.disabled = true;
    refusal.textContent = "";
    try {
      await call("POST", path, { token: token(), body: { reason } });
    } catch (error) {
      send.disabled = false;
      refusal.textContent = `Not reported: ${error.message}`;
      return;
    }
    const done = Object.assign(document.createElement("span"), { className: "chat-reported", textContent: "Reported" });
    const undo = button("Undo", "chat-report link", `Undo the report of ${who}`);
    const lapse = setTimeout(() => undo.remove(), UNDO_MS);
    undo.addEventListener("click", async () => {
      undo.disabled = true;
      try {
        await call("DELETE", path, { token: token() });
        clearTimeout(lapse);
        idle();
        box.querySelector("button").focus();
      } catch (error) {
        undo.remove();
        refusal.textContent = `Not undone: ${error.message}`;
      }
    });
    box.replaceChildren(done, " ", undo);
    undo.focus();
  }

  idle();
  return box;
}
