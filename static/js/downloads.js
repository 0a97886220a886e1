// The match taken away from its page: the game record (GET /record: the
// headers and the whole log as text, which GameRecord reads back) and the
// position text of the state the page shows now (docs/notation.md).

function link(text) {
  const a = document.createElement("a");
  a.className = "download";
  a.textContent = text;
  return a;
}

/** Draws the two downloads into `host`; `shown()` answers the match state shown. */
export function startDownloads(host, matchId, shown) {
  const record = link("Download record");
  record.href = `/api/v1/matches/${encodeURIComponent(matchId)}/record`;
  record.download = `magery-${matchId}.txt`;
  const position = link("Download position");
  position.href = "#";
  position.addEventListener("click", (event) => {
    // Made at the click: the position moves on with the match (or the replay).
    event.preventDefault();
    const file = new Blob([`${shown().position}\n`], { type: "text/plain" });
    const a = link("");
    a.href = URL.createObjectURL(file);
    a.download = `magery-${matchId}-v${shown().version}.position.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 0);
  });
  host.append(record, position);
}
