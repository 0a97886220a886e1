// The public REST API (docs/api.md), as the page calls it. A seat is proved by
// its token in an Authorization header. A signed-in player's browser also sends
// the session cookie (same origin); a change made with the cookie alone counts
// only with the session's CSRF token in X-CSRF-Token, which another site cannot
// read, so no request of this page can be forged by another site.

import { csrfToken } from "./session.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `the server answered ${status}`);
    this.status = status;
    this.code = body && body.error ? body.error : "error";
    this.version = body && typeof body.version === "number" ? body.version : null;
  }
}

const BASE = "/api/v1";

export async function call(method, path, { token = null, body = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const csrf = csrfToken();
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { error: "offline", detail: "the server could not be reached; check the connection and try again" });
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** A fresh id for an action, so a resend never plays it twice. */
export function actionId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export const matches = {
  create: (body) => call("POST", "/matches", { body }),
  list: (query) => call("GET", `/matches?${new URLSearchParams(query)}`),
  get: (id) => call("GET", `/matches/${encodeURIComponent(id)}`),
  join: (id, name) => call("POST", `/matches/${encodeURIComponent(id)}/join`, { body: { name } }),
  legal: (id, token) => call("GET", `/matches/${encodeURIComponent(id)}/legal`, { token }),
  act: (id, token, action, version) =>
    call("POST", `/matches/${encodeURIComponent(id)}/actions`, { token, body: { action, version, id: actionId() } }),
  log: (id, since = 0) => call("GET", `/matches/${encodeURIComponent(id)}/actions?since=${since}`),
  states: (id, from, to) => call("GET", `/matches/${encodeURIComponent(id)}/states?from=${from}&to=${to}`),
  advantage: (id) => call("GET", `/matches/${encodeURIComponent(id)}/advantage`),
  resign: (id, token) => call("POST", `/matches/${encodeURIComponent(id)}/resign`, { token }),
  draw: (id, token, offer) => call("POST", `/matches/${encodeURIComponent(id)}/draw`, { token, body: { offer } }),
  claim: (id, token, result) => call("POST", `/matches/${encodeURIComponent(id)}/claim`, { token, body: { result } }),
  abort: (id, token) => call("POST", `/matches/${encodeURIComponent(id)}/abort`, { token }),
};
