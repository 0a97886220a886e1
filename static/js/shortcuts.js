// Keyboard shortcuts on the match page, as lichess's where they fit: f flips
// the board, z enters or leaves zen mode (only the board, the tower, the
// clocks and the turn panel), ? lists them; ← → step through the moves (the
// replay's own keys). A key typed into a field is the field's, never a shortcut.

const KEYS = [
  ["f", "Flip the board"],
  ["z", "Zen mode: only the board, the tower, the clocks and your turn"],
  ["← →", "Step through the moves"],
  ["?", "Show these shortcuts"],
  ["Esc", "Close this list, or leave zen mode"],
];

function typing(target) {
  return target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

function overlay() {
  const dialog = document.createElement("dialog");
  dialog.className = "shortcuts";
  dialog.setAttribute("aria-labelledby", "shortcuts-title");
  const title = document.createElement("h2");
  title.id = "shortcuts-title";
  title.textContent = "Keyboard shortcuts";
  const list = document.createElement("dl");
  for (const [key, what] of KEYS) {
    const dt = document.createElement("dt");
    const kbd = document.createElement("kbd");
    kbd.textContent = key;
    dt.append(kbd);
    const dd = document.createElement("dd");
    dd.textContent = what;
    list.append(dt, dd);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Close";
  close.addEventListener("click", () => dialog.close());
  dialog.append(title, list, close);
  document.body.append(dialog);
  return dialog;
}

/** `flip()` turns the board; `host` gets the Zen button (also the way out of zen by pointer). */
export function startShortcuts({ host, flip }) {
  const dialog = overlay();
  const zenButton = document.createElement("button");
  zenButton.type = "button";
  zenButton.className = "quiet zen-toggle";
  zenButton.textContent = "Zen";
  zenButton.setAttribute("aria-pressed", "false");
  const zen = (on) => {
    document.documentElement.classList.toggle("zen", on);
    zenButton.setAttribute("aria-pressed", String(on));
  };
  zenButton.addEventListener("click", () => zen(!document.documentElement.classList.contains("zen")));
  const help = document.createElement("button");
  help.type = "button";
  help.className = "quiet";
  help.textContent = "Shortcuts (?)";
  help.addEventListener("click", () => dialog.showModal());
  host.append(zenButton, help);
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || dialog.open) return;
    if (event.key === "f") flip();
    else if (event.key === "z") zen(!document.documentElement.classList.contains("zen"));
    else if (event.key === "?") dialog.showModal();
    else if (event.key === "Escape") zen(false);
    else return;
    event.preventDefault();
  });
}
