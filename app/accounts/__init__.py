"""Accounts: players and admins, their sign-ins, API tokens and ratings.

A layer of its own between app.db and app.matches (app/layers.py): the match
service calls down into it to apply a rated match's change of ratings in the
very transaction that ends the match (rated.py), which it could not do if
this sat above it; and the wings above (the pages, the API, the admin) call
the account service. It never calls the match service: a match's seats name
accounts by id, and the match service alone changes matches.

An admin is an account with the admin role: the one sign-in, lock-out,
password pool and session store serve the players' pages and the dashboard.

    names.py, passwords.py   the rules of a name and of a password (everyone's)
    limits.py                failed sign-ins locked out, sign-ups per address
    sessions.py, tokens.py   signed-in browsers (a player's, an admin's); API tokens
    oauth.py                 an app's OAuth code (PKCE) traded for an API token
    admins.py                the admin role: made, listed, unmade (the command line)
    computers.py             the computer levels' accounts (rated players)
    rated.py                 the change of ratings a rated ending makes
    service.py               Accounts: sign up, sign in, close, reopen, reset
"""

from . import admins
from .computers import LEVELS as COMPUTER_LEVELS
from .computers import computer_account
from .errors import AccountClosed, AccountError, NameTaken, NoSuchAccount, SignInFailed, TooMany
from .rated import Change, rate_ending, ratings_of
from .service import Account, Accounts

__all__ = ["COMPUTER_LEVELS", "admins", "Account", "AccountClosed", "AccountError", "Accounts", "Change", "NameTaken",
           "NoSuchAccount", "SignInFailed", "TooMany", "computer_account", "rate_ending", "ratings_of"]
