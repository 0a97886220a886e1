"""Players' accounts from the command line, on the server's database
(DATABASE_URL). There is no e-mail: a forgotten password is reset here.

    python -m app.accounts reset-password NAME   # the new password from standard
                                                 # input, or MAGERY_ACCOUNT_PASSWORD
    python -m app.accounts close NAME REASON     # sessions end, tokens are revoked
    python -m app.accounts reopen NAME REASON
    python -m app.accounts unlock NAME           # forget the failed sign-ins for NAME

Closing and reopening go to the admin audit log as done by "command line".
The database is migrated first, as the server does at start.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys

from app.auth import PasswordChecks, use_password_costs
from app.config import get_settings
from app.db import make_engine, upgrade

from .errors import AccountError
from .service import Accounts

ENV_PASSWORD = "MAGERY_ACCOUNT_PASSWORD"
OPERATOR = "command line"


def _password() -> str:
    given = os.environ.get(ENV_PASSWORD)
    if given:
        return given
    if sys.stdin.isatty():
        first = getpass.getpass("New password: ")
        if getpass.getpass("Again: ") != first:
            raise AccountError("the two passwords differ")
        return first
    return sys.stdin.readline().rstrip("\r\n")


async def _run(args: argparse.Namespace) -> int:
    settings = get_settings()
    use_password_costs(*settings.password_costs)  # as the server hashes
    engine = make_engine(settings.database_url, pool_size=1, max_overflow=0)
    try:
        await upgrade(engine)
        accounts = Accounts(engine, settings, PasswordChecks(1, 0))
        if args.command == "reset-password":
            account = await accounts.reset_password(args.name, _password())
            print(f"reset the password of {account.name}; its sessions are ended")
        elif args.command == "close":
            account = await accounts.close(args.name, args.reason, admin=OPERATOR)
            print(f"closed {account.name}")
        elif args.command == "reopen":
            account = await accounts.reopen(args.name, args.reason, admin=OPERATOR)
            print(f"reopened {account.name}")
        else:
            found = await accounts.unlock(args.name)
            print(f"unlocked {args.name}" if found else f"no failed sign-ins were counted for {args.name!r}")
        return 0
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.accounts", description="Players' accounts of Magery Online.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("reset-password", help=f"a new password, from standard input or {ENV_PASSWORD}; "
                                               "the account's sessions end").add_argument("name")
    for name, text in (("close", "close an account: its sessions end, its tokens are revoked"),
                       ("reopen", "reopen a closed account")):
        command = commands.add_parser(name, help=text)
        command.add_argument("name")
        command.add_argument("reason", help="why, for the audit log")
    commands.add_parser("unlock", help="forget the failed sign-ins counted for a name").add_argument("name")
    args = parser.parse_args(argv)
    try:
        return asyncio.run(_run(args))
    except AccountError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
