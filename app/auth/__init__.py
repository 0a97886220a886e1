"""What both wings that sign people in share (the admins' dashboard and the
players' accounts): argon2id hashing with its dummy hash, the small pool the
checks run in, and the digest of a secret token. Neither the database nor a
framework: the wings and app.accounts store and serve; this only computes.
"""

from .checks import Busy, PasswordChecks
from .hashing import DUMMY_HASH, hash_password, matches
from .hashing import use as use_password_costs
from .tokens import digest, new_token, same

__all__ = ["DUMMY_HASH", "Busy", "PasswordChecks", "digest", "hash_password", "matches", "new_token", "same",
           "use_password_costs"]
