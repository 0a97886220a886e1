// The "Play a guided first match" buttons of the home and Learn pages.

import { startGuided } from "./guide.js";

for (const b of document.querySelectorAll(".guided-start")) {
  b.addEventListener("click", () => startGuided(b));
  b.dataset.ready = "1"; // for the tests: the click now starts a match
}
