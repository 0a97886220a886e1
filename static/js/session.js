// Who is signed in, as the page says it (templates/base.html): the account's
// name and the session's CSRF token in meta tags, present only when signed in.
// The session itself is an HttpOnly cookie no script can read; a script's
// change sent with it carries the token in X-CSRF-Token (docs/web.md).

function meta(name) {
  const found = document.querySelector(`meta[name="${name}"]`);
  return found ? found.getAttribute("content") : null;
}

/** The signed-in account's name, or null for a guest. */
export function accountName() {
  return meta("magery-account");
}

/** The session's CSRF token, or null for a guest. */
export function csrfToken() {
  return meta("csrf-token");
}
