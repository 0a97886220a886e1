"""The security headers of every answer: the one place the content security
policy and the headers sent with it are written. The browser's wing sends them
on every answer (app/web/headers.py) and the admin on each of its routes
(app/admin/routing.py), so neither wing's safety rests on the other's.

The policy allows scripts, styles, images and connections from this origin
only, no inline script or style, and no framing. A page that needs more (the
API's /docs and /redoc, for Swagger UI and ReDoc) names the sources it adds,
directive by directive; the admin adds that nothing it answers is cached.
"""

from __future__ import annotations

# The policy every page starts from; `content_security_policy` only ever adds to it.
_POLICY: dict[str, tuple[str, ...]] = {
    "default-src": ("'self'",),
    "script-src": ("'self'",),
    "style-src": ("'self'",),
    "img-src": ("'self'", "data:"),
    "connect-src": ("'self'",),
    "font-src": ("'self'",),
    "object-src": ("'none'",),
    "base-uri": ("'none'",),
    "form-action": ("'self'",),
    "frame-ancestors": ("'none'",),
}
# Directives a page may add sources to that the base policy leaves to default-src.
_ALSO_KNOWN = ("worker-src", "media-src", "manifest-src", "frame-src", "child-src")


def content_security_policy(**more: str) -> str:
    """The policy, with sources added to named directives: `style_src="'unsafe-inline'"`
    adds to style-src. A directive the base leaves out starts from default-src's
    sources, so `worker_src="blob:"` allows 'self' and blob: workers. A name that is
    no directive is refused, so a typo cannot leave a page without its restriction."""
    directives = dict(_POLICY)
    for key, sources in more.items():
        name = key.replace("_", "-")
        if name not in _POLICY and name not in _ALSO_KNOWN:
            raise ValueError(f"{key!r} names no content security policy directive")
        start = directives.get(name, _POLICY["default-src"])
        directives[name] = (*start, *sources.split())
    return "; ".join(" ".join((name, *sources)) for name, sources in directives.items())


def security_headers(*, no_store: bool = False, **more_sources: str) -> dict[str, str]:
    """Every security header of an answer: the policy (with `more_sources`, as in
    `content_security_policy`), no sniffing, no framing, no referrer beyond this
    origin, a browsing context of its own, and with `no_store` no caching at all
    (the admin's pages show accounts and moderation that must not linger)."""
    headers = {
        "Content-Security-Policy": content_security_policy(**more_sources),
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
        "Cross-Origin-Opener-Policy": "same-origin",
    }
    if no_store:
        headers["Cache-Control"] = "no-store"
    return headers
