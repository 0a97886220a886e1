"""The rules of a player's password: at least 8 characters (at most 256, so a
hash never has a megabyte to chew), not the player's name, not one character
over and over, and none of the passwords people choose most often."""

from __future__ import annotations

from .errors import AccountError

MIN_PASSWORD = 8
MAX_PASSWORD = 256

# The commonest passwords of 8 characters or more, as the public lists of
# leaked passwords rank them, with a few that a site about a game of mages
# invites. Compared without regard to case.
_COMMON_LIST = """
password password1 password12 password123 password! passw0rd p@ssw0rd p@ssword
12345678 123456789 1234567890 0123456789 987654321 87654321 12341234 11223344 12121212
123123123 147258369 11111111 00000000 22222222 55555555 66666666 88888888 99999999 12344321
qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 1q2w3e4r 1q2w3e4r5t q1w2e3r4 q1w2e3r4t5
1qaz2wsx zaq12wsx zaq1zaq1 qazwsxedc 123qweasd qweasdzxc asdfghjk asdfghjkl zxcvbnm1 zxcvbnm123
abc12345 abcd1234 abcdefgh abc123456 a1b2c3d4 aa123456 aaaaaaaa
iloveyou iloveyou1 sunshine sunshine1 princess princess1 football football1 baseball basketball
superman batman123 trustno1 welcome1 welcome123 letmein1 letmein123 changeme changeme1
whatever computer internet starwars jennifer michelle jessica1 michael1 jordan23 charlie1
freedom1 mustang1 shadow12 master12 monkey12 dragon12 secret12 secret123 chocolate butterfly
liverpool chelsea1 arsenal1 samsung1 google123 pokemon1 minecraft fortnite
admin123 admin1234 administrator
magery12 magery123 mageryonline wizard12 wizard123 chess123 chessmaster
"""
COMMON = frozenset(_COMMON_LIST.split())


def check_password(password: object, name: str) -> str:
    """`password` if it may be `name`'s password; AccountError naming the rule if not."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise AccountError(f"a password has at least {MIN_PASSWORD} characters", "password")
    if len(password) > MAX_PASSWORD:
        raise AccountError(f"a password has at most {MAX_PASSWORD} characters", "password")
    if password.lower() == name.lower():
        raise AccountError("a password is not the name it signs in", "password")
    if len(set(password)) == 1:
        raise AccountError("a password is more than one character over and over", "password")
    if password.lower() in COMMON:
        raise AccountError("that password is one of the most common: anyone would guess it", "password")
    return password
