"""Why the account service refuses: each names the rule, and carries the HTTP
status a wing answers it with (the pages and the API are built on these)."""

from __future__ import annotations


class AccountError(Exception):
    """Input that breaks a rule; the message names the rule."""

    status = 400
    code = "bad_request"

    def __init__(self, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field  # "name", "password", ...: what the form should point at


class NameTaken(AccountError):
    status, code = 409, "name_taken"


class SignInFailed(AccountError):
    """The same answer for a name nobody has and for a wrong password."""

    status, code = 401, "sign_in_failed"

    def __init__(self) -> None:
        super().__init__("wrong name or password")


class WrongPassword(AccountError):
    """The old password, asked again before a change, is not the account's."""

    status, code = 403, "wrong_password"


class AccountClosed(AccountError):
    """Told only to whoever gave the account's right password."""

    status, code = 403, "account_closed"


class NoSuchAccount(AccountError):
    status, code = 404, "not_found"


class TooMany(AccountError):
    """A limit is reached: sign-ups from an address, or failed sign-ins."""

    status, code = 429, "rate_limited"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after
