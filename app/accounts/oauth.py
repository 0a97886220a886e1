"""OAuth 2.0's authorization code with PKCE (RFC 6749 §4.1, RFC 7636; S256
only), the way lichess lets third-party apps in: no registration, an app names
itself by a `client_id` of its choosing, sends the person to `/oauth`, and
trades the code it is handed back for an account token (tokens.py) with the
scopes the person approved, listed and revoked on /account like any other.

Why our own code and no library: the whole protocol here is one grant of one
kind for public clients: check a request's fields, keep a code, compare one
SHA-256 and spend the code. authlib's server side is built around clients
registered in a store and the frameworks it integrates with (Flask, Django),
and would need a client model, a request wrapper and grant subclasses to say
exactly this; the checks below are each one line and read as the RFC's words.

A code lives CODE_SECONDS, is kept only as its sha256, bound to the app, the
redirect and the challenge, and is tried once: any exchange that names it
spends it, right or wrong, and a second exchange of a spent code revokes the
token the first one made (RFC 6749 §4.1.2: a code used twice may be stolen).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.auth import digest, new_token
from app.db.account_models import account_tokens, accounts, oauth_codes
from app.kernel.errors import RateLimited
from app.kernel.limits import Limiter

from . import tokens
from .errors import AccountError

CODE_SECONDS = 120  # enough for an app to make one request; a stolen code goes stale fast
CLIENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._~-]{0,39}")  # URL-safe, and fits a token's name
CHALLENGE = re.compile(r"[A-Za-z0-9_-]{43}")  # BASE64URL(SHA256(verifier)), unpadded
VERIFIER = re.compile(r"[A-Za-z0-9._~-]{43,128}")  # RFC 7636 §4.1
MAX_STATE = 500
MAX_REDIRECT = 2000
# Plain http is for an app on the person's own machine only: elsewhere the
# code would cross the network in clear.
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
# What each scope lets an app do, in the words the consent page shows.
SCOPE_WORDS = {"play": "create, join and play matches as you, and accept or decline your challenges",
               "read": "read what your account may read: your matches, challenges and notifications"}


class OAuthError(Exception):
    """A refusal in RFC 6749's terms: `error` is the RFC's code, `description` the sentence."""

    def __init__(self, error: str, description: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.error, self.description, self.status, self.retry_after = error, description, status, retry_after


@dataclass(frozen=True, slots=True)
class Ask:
    """An app's request for a person's approval, checked (`check_ask`)."""

    client_id: str
    redirect_uri: str
    scopes: tuple[str, ...]
    challenge: str
    state: str | None

    @property
    def host(self) -> str:
        """Where the answer goes, as the person should read it: host[:port]."""
        return urlsplit(self.redirect_uri).netloc

    @property
    def origin(self) -> str:
        """The redirect's scheme://host[:port], for the consent page's form-action."""
        parts = urlsplit(self.redirect_uri)
        return f"{parts.scheme}://{parts.netloc}"

    def fields(self) -> dict[str, str]:
        """The request again, as the consent form carries it to its post."""
        out = {"response_type": "code", "client_id": self.client_id, "redirect_uri": self.redirect_uri,
               "scope": " ".join(self.scopes), "code_challenge": self.challenge, "code_challenge_method": "S256"}
        if self.state is not None:
            out["state"] = self.state
        return out


def check_redirect(uri: object) -> str:
    """An absolute http(s) address with a host, no fragment and no user:password;
    http only to this machine. Anything else (`javascript:`, `data:`, a relative
    path) is refused: the person's browser is sent there."""
    if not isinstance(uri, str) or not uri or len(uri) > MAX_REDIRECT or any(c.isspace() or ord(c) < 0x20 for c in uri):
        raise OAuthError("invalid_request", f"redirect_uri is an absolute http(s) address of at most {MAX_REDIRECT} "
                         "characters")
    try:
        parts = urlsplit(uri)
        host = parts.hostname
        _ = parts.port  # a port that is no number raises here
    except ValueError:
        raise OAuthError("invalid_request", "redirect_uri is no address") from None
    if parts.scheme not in ("http", "https") or not host:
        raise OAuthError("invalid_request", "redirect_uri is an http or https address with a host")
    if parts.fragment or "#" in uri:
        raise OAuthError("invalid_request", "redirect_uri has no fragment (#...)")
    if parts.username is not None or parts.password is not None:
        raise OAuthError("invalid_request", "redirect_uri names no user or password")
    if parts.scheme == "http" and host not in LOOPBACK:
        raise OAuthError("invalid_request", "redirect_uri is https, or http only to localhost or 127.0.0.1")
    return uri


def check_scope(scope: object) -> tuple[str, ...]:
    """`scope` as sent: scope names separated by spaces, each known, each once."""
    names = scope.split(" ") if isinstance(scope, str) else []
    try:
        return tokens.check_scopes(names)
    except AccountError:
        raise OAuthError("invalid_scope", f"scope is one or more of {', '.join(tokens.SCOPES)}, "
                         "separated by spaces, each once") from None


def check_ask(query: Mapping[str, str]) -> Ask:
    """An app's request to `/oauth`, or OAuthError naming the first thing wrong."""
    client_id = query.get("client_id")
    if not isinstance(client_id, str) or not CLIENT_ID.fullmatch(client_id):
        raise OAuthError("invalid_request", "client_id is your app's name: 1 to 40 letters, digits, '.', '_', '~' "
                         "or '-', starting with a letter or digit")
    redirect = check_redirect(query.get("redirect_uri"))
    if query.get("response_type") != "code":
        raise OAuthError("unsupported_response_type", "response_type is code (the authorization code grant)")
    if query.get("code_challenge_method") != "S256":
        raise OAuthError("invalid_request", "code_challenge_method is S256 (PKCE; plain is not taken)")
    challenge = query.get("code_challenge")
    if not isinstance(challenge, str) or not CHALLENGE.fullmatch(challenge):
        raise OAuthError("invalid_request", "code_challenge is BASE64URL(SHA256(code_verifier)) without padding: "
                         "43 characters")
    scopes = check_scope(query.get("scope"))
    state = query.get("state")
    if state is not None and (len(state) > MAX_STATE or any(ord(c) < 0x20 or ord(c) == 0x7f for c in state)):
        raise OAuthError("invalid_request", f"state is at most {MAX_STATE} characters, none of them control ones")
    return Ask(client_id, redirect, scopes, challenge, state)


def challenge_of(verifier: str) -> str:
    """S256 (RFC 7636 §4.2): BASE64URL(SHA256(ASCII(verifier))), unpadded."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).rstrip(b"=").decode("ascii")


def redirect_to(uri: str, **params: str | None) -> str:
    """`uri` with `params` added to its own query (a redirect may carry one already)."""
    parts = urlsplit(uri)
    query = [*parse_qsl(parts.query, keep_blank_values=True),
             *((k, v) for k, v in params.items() if v is not None)]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


@dataclass(frozen=True, slots=True)
class Granted:
    """A code exchanged: the token's text (shown this once) and what it may do."""

    access_token: str
    scopes: tuple[str, ...]


class OAuth:
    """Codes given on the person's approval, and traded for tokens; `now` is the
    accounts' clock (tests move it), `limiter` counts every exchange per address."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], datetime], limiter: Limiter) -> None:
        self.engine, self.now, self.limiter = engine, now, limiter

    async def approve(self, account_id: int, ask: Ask) -> str:
        """A new code for the approved request (its text; only its hash is kept)."""
        now = self.now()
        plain = new_token()
        async with self.engine.begin() as conn:
            # The long-dead ones go: a day after its end a code is no evidence of a reuse worth keeping.
            await conn.execute(delete(oauth_codes).where(oauth_codes.c.expires_at < now - timedelta(days=1)))
            await conn.execute(oauth_codes.insert().values(
                code_hash=digest(plain), account_id=account_id, client_id=ask.client_id,
                redirect_uri=ask.redirect_uri, challenge=ask.challenge, scopes=" ".join(ask.scopes),
                expires_at=now + timedelta(seconds=CODE_SECONDS)))
        return plain

    async def exchange(self, address: str | None, form: Mapping[str, object]) -> Granted:
        """The token request (RFC 6749 §4.1.3 with RFC 7636 §4.5), or OAuthError."""
        try:
            await self.limiter.hit(f"oauth:{address or '-'}")
        except RateLimited as over:
            raise OAuthError("rate_limited", f"too many token requests; try again in {over.retry_after} s",
                             429, over.retry_after) from None
        if form.get("grant_type") != "authorization_code":
            raise OAuthError("unsupported_grant_type", "grant_type is authorization_code")
        code, verifier = form.get("code"), form.get("code_verifier")
        client_id, redirect = form.get("client_id"), form.get("redirect_uri")
        for name, value in (("code", code), ("code_verifier", verifier), ("redirect_uri", redirect),
                            ("client_id", client_id)):
            if not isinstance(value, str) or not value:
                raise OAuthError("invalid_request", f"{name} is missing")
        assert isinstance(code, str) and isinstance(verifier, str)
        if not VERIFIER.fullmatch(verifier):
            raise OAuthError("invalid_request", "code_verifier is 43 to 128 letters, digits, '-', '.', '_' or '~'")
        asked = form.get("scope")
        now = self.now()
        refusal: OAuthError | None = None
        granted: Granted | None = None
        async with self.engine.begin() as conn:
            # Spent first, whatever follows: one try per code. Two exchanges at
            # once: the second waits on the row, then finds it spent.
            spent = await conn.execute(oauth_codes.update().where(
                oauth_codes.c.code_hash == digest(code), oauth_codes.c.used_at.is_(None)).values(used_at=now))
            row = (await conn.execute(select(oauth_codes).where(oauth_codes.c.code_hash == digest(code)))).first()
            if row is None:
                raise OAuthError("invalid_grant", "no such code")
            if not spent.rowcount:
                if row.token_id is not None:
                    await conn.execute(account_tokens.update().where(
                        account_tokens.c.id == row.token_id, account_tokens.c.revoked_at.is_(None))
                        .values(revoked_at=now))
                refusal = OAuthError("invalid_grant", "this code was used already: the token it gave is revoked")
            elif row.expires_at <= now:
                refusal = OAuthError("invalid_grant", f"this code is expired (a code lives {CODE_SECONDS} s)")
            elif row.client_id != client_id or row.redirect_uri != redirect:
                refusal = OAuthError("invalid_grant", "client_id or redirect_uri is not the one the code was given to")
            elif not hmac.compare_digest(challenge_of(verifier), row.challenge):
                refusal = OAuthError("invalid_grant", "code_verifier does not match the code_challenge")
            elif asked is not None and not set(check_scope(asked)) <= set(row.scopes.split()):
                refusal = OAuthError("invalid_scope", "a token gets no scope beyond the ones approved: "
                                     + row.scopes.replace(" ", ", "))
            elif (await conn.execute(select(accounts.c.closed_at).where(accounts.c.id == row.account_id))
                  ).scalar_one() is not None:
                refusal = OAuthError("invalid_grant", "the account that approved this code is closed")
            else:
                try:
                    plain, token = await tokens.create_in(conn, row.account_id, row.client_id,
                                                          row.scopes.split(), now, app=row.client_id)
                except AccountError as full:
                    refusal = OAuthError("invalid_grant", full.detail)
                else:
                    await conn.execute(oauth_codes.update().where(oauth_codes.c.code_hash == row.code_hash)
                                       .values(token_id=token.id))
                    granted = Granted(plain, token.scopes)
        if granted is None:  # raised after the commit: the code stays spent
            raise refusal or OAuthError("invalid_grant", "no token was given")
        return granted
