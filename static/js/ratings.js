// Players as every page shows them (issue 19): an account's name links to its
// profile and carries its rating in the match's variant ("1500?" while
// provisional); a guest's name stays plain text, marked as a guest's. And a rated match's change,
// "+12" or "−12" (a true minus sign).

/** "1612", or "1500?" while provisional. */
export function ratingText(rating) {
  return rating ? `${rating.rating}${rating.provisional ? "?" : ""}` : "";
}

/** "+12", "−12", "±0"; "" when there is none. */
export function changeText(change) {
  if (change === null || change === undefined) return "";
  if (change > 0) return `+${change}`;
  return change < 0 ? `\u2212${-change}` : "\u00b10";
}

/** The profile's address of an account's name. */
export function profileHref(account) {
  return `/@/${encodeURIComponent(account)}`;
}

/** Nodes for a seat's player: a link to the profile and the rating for an
 * account, the name as text for a guest (`fallback` for an empty seat). */
export function playerNodes(p, fallback = "…") {
  if (!p || !p.name) return [document.createTextNode(fallback)];
  if (!p.account) {
    if (p.bot) return [document.createTextNode(p.name)];
    // A guest's name is marked as one (site.css draws "guest" after it), so that
    // no guest passes for the account whose name it resembles.
    const guest = document.createElement("span");
    guest.className = "guest-name";
    guest.title = "a guest: no account plays this seat";
    guest.textContent = p.name;
    return [guest];
  }
  const link = document.createElement("a");
  link.href = profileHref(p.account);
  link.className = "player-link";
  link.textContent = p.name;
  const nodes = [link];
  if (p.title) { // "BOT": a bot account, which a program plays
    const title = document.createElement("span");
    title.className = "badge";
    title.textContent = ` ${p.title}`;
    title.title = "a bot account: a program plays it";
    nodes.push(title);
  }
  if (p.rating) {
    const rating = document.createElement("span");
    rating.className = "player-rating";
    rating.textContent = ` (${ratingText(p.rating)})`;
    rating.title = p.rating.provisional ? "rating, provisional" : "rating";
    nodes.push(rating);
  }
  return nodes;
}
