"""Admin accounts from the command line, on the server's database (DATABASE_URL):

    python -m app.admin add-user NAME      # the password from standard input,
                                           # or from MAGERY_ADMIN_PASSWORD
    python -m app.admin remove-user NAME   # also ends that admin's sessions
    python -m app.admin list-users
    python -m app.admin unlock NAME        # forget the failed sign-ins for NAME
    python -m app.admin rebuild-figures    # count every finished match again

The database is migrated first, as the server does at start.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from datetime import UTC, datetime

from app.auth import use_password_costs
from app.config import get_settings
from app.db import make_engine, upgrade

from . import accounts, audit, figures, throttle

ENV_PASSWORD = "MAGERY_ADMIN_PASSWORD"


def _password() -> str:
    given = os.environ.get(ENV_PASSWORD)
    if given:
        return given
    if sys.stdin.isatty():
        first = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != first:
            raise accounts.AccountError("the two passwords differ")
        return first
    return sys.stdin.readline().rstrip("\r\n")


async def _run(args: argparse.Namespace) -> int:
    use_password_costs(*get_settings().password_costs)  # as the server hashes
    engine = make_engine(get_settings().database_url, pool_size=1, max_overflow=0)
    try:
        await upgrade(engine)
        now = datetime.now(UTC)
        if args.command == "add-user":
            account = await accounts.add(engine, accounts.check_name(args.name), _password(), now)
            await audit.record(engine, "user_added", now, "command line", account=account.name)
            print(f"added admin {account.name}")
        elif args.command == "remove-user":
            if not await accounts.remove(engine, args.name):
                print(f"there is no admin named {args.name!r}", file=sys.stderr)
                return 1
            await audit.record(engine, "user_removed", now, "command line", account=args.name)
            print(f"removed admin {args.name}")
        elif args.command == "unlock":
            found = await throttle.unlock(engine, args.name)
            print(f"unlocked {args.name}" if found else f"no failed sign-ins were counted for {args.name!r}")
        elif args.command == "list-users":
            for account in await accounts.listing(engine):
                print(f"{account.name}\t{account.created_at.isoformat()}")
        else:
            print(f"counted {await figures.rebuild(engine)} finished matches")
        return 0
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.admin", description="Admin accounts of Magery Online.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("add-user", "add an admin; the password comes from standard input or "
                                    f"{ENV_PASSWORD}"), ("remove-user", "remove an admin and end its sessions")):
        commands.add_parser(name, help=text).add_argument("name")
    commands.add_parser("list-users", help="list the admins")
    commands.add_parser("unlock", help="forget the failed sign-ins counted for a name").add_argument("name")
    commands.add_parser("rebuild-figures", help="count every finished match again for the figures")
    args = parser.parse_args(argv)
    try:
        return asyncio.run(_run(args))
    except accounts.AccountError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
