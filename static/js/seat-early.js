// Read before the match page is first painted (a classic script, placed just
// inside the match's element): whether this browser holds a seat in the match,
// by a seat link's fragment, a kept seat or the signed-in account. The page
// offers a free seat's Join box to everyone else from its first paint, so
// neither the friend's page (the box appearing) nor the creator's (the box
// going) jumps when match.js decides the same thing a moment later.
(function () {
  const app = document.getElementById("app");
  if (!app) return;
  const id = app.dataset.matchId;
  let holds = /^#seat=/.test(location.hash);
  try {
    holds = holds || Boolean(localStorage.getItem(`magery.seat.${id}`));
  } catch {
    /* no storage: no kept seat */
  }
  const account = document.querySelector('meta[name="magery-account"]');
  if (!holds && account) {
    const players = JSON.parse(app.dataset.initial).players;
    holds = ["white", "black"].some((c) => players[c] && players[c].account === account.content);
  }
  if (holds) document.documentElement.classList.add("holds-seat");
})();
