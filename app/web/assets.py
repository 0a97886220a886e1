"""Where a page finds its scripts, styles and pictures: `/static/v/<version>/<path>`,
`<version>` a hash of every file under static/.

A URL that names the content can be cached for good (static.py answers it
`immutable`), so a returning visitor's page opens with no request for its dozen
modules. The hash is of the whole tree, not of each file, because the modules
import each other by relative paths ("./api.js"): a module loaded from
`/static/v/H/js/home.js` imports `/static/v/H/js/api.js`, and that is the same
URL the page preloaded only if every file shares one prefix. A release that
changes any file changes every URL, which costs a returning visitor one full
load per release, never a stale module beside a new one.

The old URLs (`/static/js/home.js`) still answer, revalidated on each use.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path

PREFIX = "v/"  # /static/v/<version>/<path>
RECHECK_SECONDS = 1.0  # how stale the version may be after a file changes (while developing)


class Assets:
    def __init__(self, root: Path, clock: Callable[[], float] | None = None) -> None:
        self.root = root.resolve()
        self.clock = clock or time.monotonic
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._version = ""
        self._checked = float("-inf")

    def _listing(self) -> tuple[tuple[str, int, int], ...]:
        found = []
        for folder, _, names in os.walk(self.root):
            for name in names:
                path = os.path.join(folder, name)
                st = os.stat(path)
                found.append((os.path.relpath(path, self.root), st.st_size, st.st_mtime_ns))
        return tuple(sorted(found))

    @property
    def version(self) -> str:
        """The hash of every file's path and bytes (read again only when a file's size or mtime moved)."""
        now = self.clock()
        if now - self._checked >= RECHECK_SECONDS:
            self._checked = now
            listing = self._listing()
            if listing != self._signature:
                digest = hashlib.sha256()
                for name, _, _ in listing:
                    digest.update(name.encode() + b"\0" + (self.root / name).read_bytes() + b"\0")
                self._signature, self._version = listing, digest.hexdigest()[:16]
        return self._version

    def url(self, path: str) -> str:
        """The URL of static/<path> that may be cached for good."""
        return f"/static/{PREFIX}{self.version}/{path.lstrip('/')}"

    def split(self, path: str) -> tuple[str | None, str]:
        """A requested path below /static/ as (the version it names, or None for an
        old unversioned URL; the file's own path)."""
        if not path.startswith(PREFIX):
            return None, path
        version, _, rest = path[len(PREFIX):].partition("/")
        return version, rest
