// The match page's replay viewer: steps through the versions of a match by
// buttons, arrow keys and a slider, fetching each version's public state from
// /admin/api/matches/{id}/versions/{n} and drawing it with the player pages'
// board module (/static/js/board.js: draw(container, state, options)), with the
// last action highlighted by the same rule as on the game page.

const root = document.getElementById("replay");

function describe(frame) {
  const m = frame.match;
  let text = `Version ${frame.version} of ${frame.last}: round ${m.round}, ${m.phase} phase`;
  if (m.result) text += `, over (${m.result.winner || "no winner"}, ${m.result.reason})`;
  else if (m.to_move) text += `, ${m.to_move} to move`;
  if (frame.entry) text += `. Last: ${frame.entry.player || "server"} ${frame.entry.action.type}`;
  return text + ".";
}

async function start() {
  const id = root.dataset.match;
  const last = Number(root.dataset.last);
  const board = document.getElementById("replay-board");
  const status = document.getElementById("replay-status");
  const slider = document.getElementById("replay-version");
  const frames = new Map();
  let current = last;
  let orientation = "white"; // "Flip board" turns the arena round
  let boardModule = null;
  try {
    boardModule = await import("/static/js/board.js");
  } catch {
    board.textContent = "The board could not be loaded; the steps are described below it.";
  }

  async function frame(version) {
    if (!frames.has(version)) {
      const url = `/admin/api/matches/${encodeURIComponent(id)}/versions/${version}`;
      frames.set(version, fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`version ${version}: ${r.status}`)))));
    }
    return frames.get(version);
  }

  async function show(version) {
    current = Math.max(0, Math.min(last, version));
    slider.value = String(current);
    let shown;
    try {
      shown = await frame(current);
    } catch (error) {
      frames.delete(current);
      status.textContent = `Version ${current} could not be loaded (${error.message}).`;
      return;
    }
    if (shown.version !== current) return; // a later step overtook this one
    if (boardModule) {
      // The last action's chamber and squares, marked as the game page marks them, and
      // the computer analysis's choice at this version, drawn as the game page draws it.
      const last = boardModule.lastActionHighlights(shown.entry && shown.entry.action);
      const best = analysis ? analysis.bestAt(current) : null;
      const highlights = last;
      if (best && words) {
        const more = words.bestHighlights(best);
        highlights.squares = words.mergeHighlights(last.squares, more.squares);
        highlights.chambers = words.mergeHighlights(last.chambers, more.chambers);
      }
      boardModule.draw(board, shown.match, { orientation, highlights });
      words?.drawBestArrow(board.querySelector(".arena"), best);
    }
    status.textContent = describe(shown);
    if (analysis) analysis.follow(current);
    if (graph) graph.mark(current);
    for (const near of [current - 1, current + 1]) if (near >= 0 && near <= last) frame(near).catch(() => {});
  }

  // A finished match: the advantage graph of the game's page, under the replay.
  let graph = null;
  if (root.dataset.finished) {
    try {
      const { AdvantageGraph } = await import("/static/js/advantage.js");
      graph = new AdvantageGraph({ host: document.getElementById("replay-advantage"), matchId: id, onPick: (v) => show(v) });
      await graph.load({ status: "finished" });
      graph.mark(current);
    } catch {
      graph = null; // the replay works without it
    }
  }

  // The computer analysis, when a player asked for one: read here, never asked for.
  let analysis = null;
  let words = null;
  if (root.dataset.finished) {
    try {
      words = await import("/static/js/analysis-words.js");
      const { Analysis } = await import("/static/js/analysis.js");
      const $ = (name) => document.getElementById(name);
      analysis = new Analysis({
        matchId: id,
        els: {
          section: $("analysis"), state: $("analysis-state"), progress: $("analysis-progress"), accuracy: $("accuracy"),
          counts: $("judgement-counts"), prev: $("prev-judgement"), next: $("next-judgement"), best: $("best-line"),
          showBest: $("show-best"),
        },
        onPick: (v) => show(v),
        onChange: () => {
          $("analysis-none").hidden = Boolean(analysis.data);
          if (graph) graph.analysed(analysis.evals(), analysis.judged.map((j) => ({ version: j.entry, judgement: j.judgement })));
          show(current);
        },
        marksIn: document.querySelector("ol.timeline"),
      });
      analysis.follow(current);
      await analysis.start();
      $("analysis-none").hidden = Boolean(analysis.data);
    } catch {
      analysis = null; // the replay works without it
    }
  }

  const steps = { first: () => 0, back: () => current - 1, forward: () => current + 1, last: () => last };
  root.querySelectorAll("button[data-step]").forEach((button) => {
    button.addEventListener("click", () => show(steps[button.dataset.step]()));
  });
  slider.addEventListener("input", () => show(Number(slider.value)));
  const flip = document.getElementById("replay-flip");
  flip.addEventListener("click", () => {
    orientation = orientation === "white" ? "black" : "white";
    flip.setAttribute("aria-pressed", String(orientation === "black"));
    show(current);
  });
  document.querySelectorAll("button[data-version]").forEach((button) => {
    button.addEventListener("click", () => {
      show(Number(button.dataset.version));
      root.scrollIntoView({ block: "start" });
    });
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest && event.target.closest("input, textarea, select");
    if (typing && event.target !== slider) return;
    const keys = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    if (event.key in keys && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      show(keys[event.key]);
    }
  });
  show(last);
}

if (root) start();
