"""The dashboard's command line, on the server's database (DATABASE_URL):

    python -m app.admin rebuild-figures    # count every finished match again

Admins are accounts with the admin role, made by `python -m app.accounts`
(add-admin, make-admin, remove-admin, list-admins, unlock, reset-password).
The names this command had for those before are kept, as the same commands:

    python -m app.admin add-user NAME      # = python -m app.accounts add-admin NAME
    python -m app.admin remove-user NAME   # = remove-admin
    python -m app.admin list-users         # = list-admins
    python -m app.admin unlock NAME        # = unlock
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from app.accounts.__main__ import ADMIN_ENV_PASSWORD
from app.accounts.__main__ import main as accounts_main
from app.config import get_settings
from app.db import make_engine, upgrade

from . import figures

ENV_PASSWORD = ADMIN_ENV_PASSWORD
SAME_AS = {"add-user": "add-admin", "remove-user": "remove-admin", "list-users": "list-admins", "unlock": "unlock"}


async def _rebuild() -> int:
    settings = get_settings()
    engine = make_engine(settings.database_url, pool_size=1, max_overflow=0, pooler=settings.database_pooler)
    try:
        await upgrade(engine)
        print(f"counted {await figures.rebuild(engine)} finished matches")
        return 0
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SAME_AS:
        return accounts_main([SAME_AS[args[0]], *args[1:]])
    parser = argparse.ArgumentParser(
        prog="python -m app.admin", description="The admin dashboard's figures; admins are made by "
        "`python -m app.accounts` (add-admin, remove-admin, list-admins, unlock), or here by their old names "
        f"({', '.join(SAME_AS)}).")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("rebuild-figures", help="count every finished match again for the figures")
    parser.parse_args(args)
    return asyncio.run(_rebuild())


if __name__ == "__main__":
    sys.exit(main())
