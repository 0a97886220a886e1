// Themes: light or dark (by default the system's choice, prefers-color-scheme;
// the switch overrides it), and the board's colouring (wood or slate). Both
// remembered in localStorage; set on <html> as data-theme and data-board, which
// static/css/comforts.css reads. Colours only: nothing moves when they change.

const THEME_KEY = "magery.theme";
const BOARD_KEY = "magery.board";
const BOARDS = ["wood", "slate"];

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage refused (a private window's policy): the defaults
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not remembered; still applied to this page
  }
}

export function startThemes(host) {
  const root = document.documentElement;
  const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
  const dark = () => (root.dataset.theme ? root.dataset.theme === "dark" : systemDark.matches);
  const theme = document.createElement("button");
  theme.type = "button";
  theme.className = "quiet";
  theme.textContent = "Dark theme";
  const paint = () => theme.setAttribute("aria-pressed", String(dark()));
  theme.addEventListener("click", () => {
    root.dataset.theme = dark() ? "light" : "dark";
    store(THEME_KEY, root.dataset.theme);
    paint();
  });
  systemDark.addEventListener("change", paint);
  const saved = stored(THEME_KEY);
  if (saved === "dark" || saved === "light") root.dataset.theme = saved;
  paint();

  const board = document.createElement("button");
  board.type = "button";
  board.className = "quiet";
  const paintBoard = () => { board.textContent = `Board: ${root.dataset.board}`; };
  board.addEventListener("click", () => {
    root.dataset.board = BOARDS[(BOARDS.indexOf(root.dataset.board) + 1) % BOARDS.length];
    store(BOARD_KEY, root.dataset.board);
    paintBoard();
  });
  const savedBoard = stored(BOARD_KEY);
  root.dataset.board = BOARDS.includes(savedBoard) ? savedBoard : BOARDS[0];
  paintBoard();
  host.append(theme, board);
}
