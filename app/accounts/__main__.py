"""Accounts, players' and admins', from the command line, on the server's
database (DATABASE_URL). There is no e-mail: a forgotten password is reset here.

    python -m app.accounts reset-password NAME   # the new password from standard
                                                 # input, or MAGERY_ACCOUNT_PASSWORD
    python -m app.accounts close NAME REASON     # sessions end, tokens are revoked
    python -m app.accounts reopen NAME REASON
    python -m app.accounts unlock NAME           # forget the failed sign-ins for NAME
    python -m app.accounts add-admin NAME        # a new account with the admin role
                                                 # (the password as for reset-password)
    python -m app.accounts make-admin NAME       # an existing account gets the role
    python -m app.accounts remove-admin NAME     # the role goes, its dashboard sessions end
    python -m app.accounts list-admins

Closing, reopening and the admin role's changes go to the admin audit log as
done by "command line". The database is migrated first, as the server does at start.
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

from . import admins
from .errors import AccountError
from .service import Accounts

ENV_PASSWORD = "MAGERY_ACCOUNT_PASSWORD"
ADMIN_ENV_PASSWORD = "MAGERY_ADMIN_PASSWORD"  # what `python -m app.admin add-user` read, still read
OPERATOR = "command line"


def _password() -> str:
    given = os.environ.get(ENV_PASSWORD) or os.environ.get(ADMIN_ENV_PASSWORD)
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
    engine = make_engine(settings.database_url, pool_size=1, max_overflow=0, pooler=settings.database_pooler)
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
        elif args.command == "unlock":
            found = await accounts.unlock(args.name)
            print(f"unlocked {args.name}" if found else f"no failed sign-ins were counted for {args.name!r}")
        else:
            return await _admins(accounts, args)
        return 0
    finally:
        await engine.dispose()


async def _admins(accounts: Accounts, args: argparse.Namespace) -> int:
    if args.command == "add-admin":
        account = await admins.add(accounts, args.name, _password(), OPERATOR)
        print(f"added admin {account.name}")
    elif args.command == "make-admin":
        account = await admins.grant(accounts, args.name, OPERATOR)
        print(f"{account.name} is an admin")
    elif args.command == "remove-admin":
        removed = await admins.revoke(accounts, args.name, OPERATOR)
        if removed is None:
            print(f"there is no admin named {args.name!r}", file=sys.stderr)
            return 1
        print(f"removed admin {removed.name}; the account stays, a player's")
    else:
        for account in await admins.listing(accounts):
            print(f"{account.name}\t{account.created_at.isoformat()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.accounts", description="Accounts of Magery Online, players' and admins'.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("reset-password", help=f"a new password, from standard input or {ENV_PASSWORD}; "
                                               "the account's sessions end").add_argument("name")
    for name, text in (("close", "close an account: its sessions end, its tokens are revoked"),
                       ("reopen", "reopen a closed account")):
        command = commands.add_parser(name, help=text)
        command.add_argument("name")
        command.add_argument("reason", help="why, for the audit log")
    commands.add_parser("unlock", help="forget the failed sign-ins counted for a name").add_argument("name")
    for name, text in (("add-admin", "a new account with the admin role; its password as for reset-password"),
                       ("make-admin", "give an existing account the admin role"),
                       ("remove-admin", "take the admin role away; its dashboard sessions end")):
        commands.add_parser(name, help=text).add_argument("name")
    commands.add_parser("list-admins", help="list the admins")
    args = parser.parse_args(argv)
    try:
        return asyncio.run(_run(args))
    except AccountError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
