"""Email for the players: an address per account, verified by a signed link
before anything else goes to it; preferences per kind; one-click unsubscribe;
and the channel's `deliver`, which the outbox calls with each notification.

Every mail is counted in `mail_sends`: verification mails per address (whichever
accounts named it) and per account, notification mails per account, each in the
last 24 hours, so neither a player nor anyone naming a stranger's address can
make the server a mail cannon. The counts are read then written, not locked:
two processes racing may each send one more than the bound, never more.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.mail_models import mail_addresses, mail_sends

from . import signing, switches, texts
from .addresses import KINDS, SWITCH, checked, masked
from .compose import Words, message
from .errors import MailError
from .outcomes import Delivered, Gone, Outcome, RetryLater
from .sender import send
from .smtp_url import parse

log = logging.getLogger(__name__)
DAY_MS = 86_400_000
VERIFY, UNSUBSCRIBE = "verify", "unsubscribe"
NOTHING = "no-digest"  # a day's digest claimed with nothing to say: counted against no bound


class Notice(Protocol):
    """What the outbox hands a channel: whose, what kind, and its words' facts
    (a match's id and the opponent's name, a challenger's name...)."""

    account_id: int
    kind: str
    payload: Mapping[str, Any]


Send = Callable[..., Awaitable[Outcome]]  # (target, message, timeout[, accepted]): app/mail/sender.py `send`


class Mailer:
    name = "email"  # the channel's name, as the outbox knows it

    def __init__(self, engine: AsyncEngine, settings: Settings, clock: Callable[[], float] = time.time,
                 sending: Send = send) -> None:
        self.engine, self.settings, self.clock, self.sending = engine, settings, clock, sending
        self.target = parse(settings.smtp_url.get_secret_value()) if settings.smtp_url is not None else None
        self.keys = signing.Keys(engine)
        self.site = settings.public_url

    @property
    def enabled(self) -> bool:
        return self.target is not None

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ---- the owner's view and changes ----

    async def view(self, account_id: int) -> dict[str, Any]:
        """What the owner (and only the owner) is shown of their email."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(mail_addresses).where(
                mail_addresses.c.account_id == account_id))).first()
        shared = await switches.read(self.engine, account_id)  # the notifications' preferences: the truth
        prefs: dict[str, Any] = {kind: shared[kind] if kind in switches.SHARED
                                 else bool(row is not None and getattr(row, kind)) for kind in KINDS}
        prefs["digest_hour"] = row.digest_hour if row is not None else 8
        return {"enabled": self.enabled, "address": row.address if row is not None else None,
                "verified": row is not None and row.verified_ms is not None,
                "bounced": row is not None and row.bounced_ms is not None, "preferences": prefs}

    async def set_address(self, account_id: int, account_name: str, given: object) -> dict[str, Any]:
        """Keep `given` as the account's address, unverified, and send it a
        verification link; the same address already verified is left as it is."""
        address = checked(given)
        if self.target is None:
            raise MailError(409, "email_off", "email is off on this server (no SMTP_URL)")
        key = await self.keys.key()
        address_key = signing.address_key(key, address)
        now = self.now_ms()
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(mail_addresses).where(
                mail_addresses.c.account_id == account_id))).first()
        if row is not None and row.address == address and row.verified_ms is not None and row.bounced_ms is None:
            return await self.view(account_id)
        await self._within_verify_bounds(account_id, address_key, now)
        async with self.engine.begin() as conn:
            values = {"address": address, "address_key": address_key, "added_ms": now, "verified_ms": None,
                      "bounced_ms": None}
            if row is None:
                await conn.execute(mail_addresses.insert().values(account_id=account_id, **values))
            else:
                await conn.execute(mail_addresses.update().where(
                    mail_addresses.c.account_id == account_id).values(**values))
            await conn.execute(mail_sends.insert().values(account_id=account_id, address_key=address_key,
                                                          kind=VERIFY, sent_ms=now))
        expires = (now + int(self.settings.mail_verify_hours * 3600_000)) // 1000
        token = signing.sign(key, VERIFY, str(account_id), str(expires), address_key[:16])
        words = texts.verify(account_name, f"{self.site}/mail/verify/{token}", self.settings.mail_verify_hours)
        outcome = await self._send(address, words, None, "You get this mail because this address was given "
                                   "on Magery Online; nothing more comes unless you confirm it.")
        if isinstance(outcome, Gone) and outcome.reason == "bounced":
            await self._bounced(account_id, address_key)
            raise MailError(422, "address_refused", "the mail server of this address refuses it", "address")
        if not isinstance(outcome, Delivered):
            unavailable = MailError(503, "mail_unavailable", "the verification mail could not be sent now: "
                                    "give the address again later")
            unavailable.headers = {"Retry-After": "60"}
            raise unavailable
        return await self.view(account_id)

    async def _within_verify_bounds(self, account_id: int, address_key: str, now: int) -> None:
        since = now - DAY_MS
        async with self.engine.connect() as conn:
            to_address = (await conn.execute(select(func.count()).select_from(mail_sends).where(
                mail_sends.c.address_key == address_key, mail_sends.c.kind == VERIFY,
                mail_sends.c.sent_ms > since))).scalar_one()
            by_account = (await conn.execute(select(func.count()).select_from(mail_sends).where(
                mail_sends.c.account_id == account_id, mail_sends.c.kind == VERIFY,
                mail_sends.c.sent_ms > since))).scalar_one()
        if to_address >= self.settings.mail_verify_per_address:
            raise MailError(429, "too_many_mails", "this address was sent its verification mails for today: "
                            "try again tomorrow", "address")
        if by_account >= self.settings.mail_verify_per_account:
            raise MailError(429, "too_many_mails", "this account asked for its verification mails for today: "
                            "try again tomorrow", "address")

    async def verify(self, token: str) -> bool:
        """Mark the address the link was sent to verified; False for a link forged,
        expired, or sent to an address the account no longer has."""
        fields = signing.read(await self.keys.key(), VERIFY, token, 3)
        if fields is None or not fields[0].isdigit() or not fields[1].isdigit():
            return False
        account_id, expires, address_hash = int(fields[0]), int(fields[1]), fields[2]
        if expires * 1000 < self.now_ms():
            return False
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(mail_addresses).where(
                mail_addresses.c.account_id == account_id))).first()
            if row is None or row.address_key[:16] != address_hash:
                return False
            if row.verified_ms is None or row.bounced_ms is not None:
                await conn.execute(mail_addresses.update().where(mail_addresses.c.account_id == account_id)
                                   .values(verified_ms=self.now_ms(), bounced_ms=None))
        return True

    async def set_preferences(self, account_id: int, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Turn kinds on or off and choose the digest's hour (UTC); what is not named stays."""
        values: dict[str, Any] = {}
        for name, value in changes.items():
            if name in KINDS:
                if not isinstance(value, bool):
                    raise MailError(400, "bad_request", f"{name} is true or false", name)
                values[name] = value
            elif name == "digest_hour":
                if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 23:
                    raise MailError(400, "bad_request", "digest_hour is a whole hour of the day, 0 to 23, in UTC",
                                    name)
                values[name] = value
            else:
                raise MailError(400, "bad_request", f"{name} is no preference: {', '.join(KINDS)}, digest_hour",
                                name)
        own = {name: value for name, value in values.items() if name not in switches.SHARED}
        async with self.engine.begin() as conn:
            if values and not (await conn.execute(select(mail_addresses.c.account_id).where(
                    mail_addresses.c.account_id == account_id))).first():
                raise MailError(409, "no_address", "add an email address first")
            if own:
                await conn.execute(mail_addresses.update().where(mail_addresses.c.account_id == account_id)
                                   .values(**own))
        await switches.write(self.engine, account_id,
                             {name: value for name, value in values.items() if name in switches.SHARED})
        return await self.view(account_id)

    async def remove(self, account_id: int) -> None:
        """Forget the address and its preferences (the counts of mails sent stay, to bound them)."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(mail_addresses).where(mail_addresses.c.account_id == account_id))

    # ---- one-click unsubscribe (RFC 8058) ----

    async def unsubscribe_url(self, account_id: int, kind: str) -> str:
        token = signing.sign(await self.keys.key(), UNSUBSCRIBE, str(account_id), SWITCH[kind])
        return f"{self.site}/mail/unsubscribe/{token}"

    async def unsubscribe(self, token: str) -> str | None:
        """Turn off the kind the token names; the kind, or None for a token not ours."""
        fields = signing.read(await self.keys.key(), UNSUBSCRIBE, token, 2)
        if fields is None or not fields[0].isdigit() or fields[1] not in KINDS:
            return None
        if fields[1] in switches.SHARED:
            await switches.write(self.engine, int(fields[0]), {fields[1]: False})
            return fields[1]
        async with self.engine.begin() as conn:
            await conn.execute(mail_addresses.update().where(mail_addresses.c.account_id == int(fields[0]))
                               .values(**{fields[1]: False}))
        return fields[1]

    # ---- the channel ----

    async def deliver(self, item: Notice, once_key: str | None = None, *, claim_first: bool = True) -> Outcome:
        """Mail one notification to its account's verified address, if the player
        wants that kind: Delivered, RetryLater (the SMTP server is out of reach or
        said 4xx), or Gone (email off, no verified address, the kind off, the
        day's bound reached, or the address refused for good). With `once_key`,
        never mailed again once noted sent (Gone("sent_already")); `claim_first`
        as `notify` has it."""
        if item.kind not in SWITCH or item.kind == "digest":
            return Gone("not_wanted")
        if self.target is None:
            return Gone("email_off")
        row = await self._wanted(item.account_id, item.kind)
        if isinstance(row, Gone):
            return row
        words = {"turn": texts.turn, "alarm": texts.alarm, "challenge": texts.challenge}[item.kind](
            self.site, item.payload)
        return await self.notify(item.account_id, row.address, row.address_key, item.kind, words, once_key,
                                 claim_first=claim_first)

    async def _wanted(self, account_id: int, kind: str) -> Any:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(mail_addresses).where(
                mail_addresses.c.account_id == account_id))).first()
        if row is None or row.verified_ms is None or row.bounced_ms is not None:
            return Gone("no_address")
        wanted = await switches.wanted(self.engine, account_id, kind) if kind in switches.DECIDES \
            else getattr(row, SWITCH[kind])
        if not wanted:
            return Gone("not_wanted")
        return row

    async def notify(self, account_id: int, address: str, address_key: str, kind: str, words: Words,
                     once_key: str | None = None, *, claim_first: bool = True) -> Outcome:
        """Count the mail, then send it. With `once_key`, a mail sent at most once
        ever: a second process (or tick) finds the key taken and sends nothing.

        `claim_first` (the digest, which every process's tick may try at once):
        the key is taken before sending, so a process dying mid-send loses that
        day's digest rather than risk two. Without it (an outbox item, which its
        lease keeps to one sender at a time): the key is only looked at first and
        noted once the SMTP server took the mail, before the session ends, so a
        sender dying before that loses nothing (the next holder sends it), and
        only a death between the server's 250 and that note sends it twice
        (with the same Message-ID)."""
        if not claim_first and once_key is not None:
            return await self._notify_then_note(account_id, address, address_key, kind, words, once_key)
        now = self.now_ms()
        try:
            async with self.engine.begin() as conn:
                sent = (await conn.execute(select(func.count()).select_from(mail_sends).where(
                    mail_sends.c.account_id == account_id, mail_sends.c.kind.notin_((VERIFY, NOTHING)),
                    mail_sends.c.sent_ms > now - DAY_MS))).scalar_one()
                if sent >= self.settings.mail_per_account_day:
                    return Gone("over_limit")
                send_id = (await conn.execute(mail_sends.insert().values(
                    account_id=account_id, address_key=address_key, kind=kind, sent_ms=now, once_key=once_key)
                    .returning(mail_sends.c.id))).scalar_one()
        except IntegrityError:
            return Gone("sent_already")
        outcome = await self._send(address, words, await self.unsubscribe_url(account_id, kind), texts.WHY[kind])
        if isinstance(outcome, RetryLater):  # not sent: it counts for nothing, and a digest may be tried again
            async with self.engine.begin() as conn:
                await conn.execute(delete(mail_sends).where(mail_sends.c.id == send_id))
        elif isinstance(outcome, Gone) and outcome.reason == "bounced":
            await self._bounced(account_id, address_key)
        return outcome

    async def _notify_then_note(self, account_id: int, address: str, address_key: str, kind: str, words: Words,
                                once_key: str) -> Outcome:
        now = self.now_ms()
        async with self.engine.connect() as conn:
            if (await conn.execute(select(mail_sends.c.id).where(mail_sends.c.once_key == once_key))).first():
                return Gone("sent_already")
            sent = (await conn.execute(select(func.count()).select_from(mail_sends).where(
                mail_sends.c.account_id == account_id, mail_sends.c.kind.notin_((VERIFY, NOTHING)),
                mail_sends.c.sent_ms > now - DAY_MS))).scalar_one()
        if sent >= self.settings.mail_per_account_day:
            return Gone("over_limit")

        async def noted() -> None:
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(mail_sends.insert().values(
                        account_id=account_id, address_key=address_key, kind=kind, sent_ms=now, once_key=once_key))
            except IntegrityError:
                pass  # noted already (a holder before this one): it stays one row

        outcome = await self._send(address, words, await self.unsubscribe_url(account_id, kind), texts.WHY[kind],
                                   accepted=noted, message_id=self._message_id(once_key))
        if isinstance(outcome, Gone) and outcome.reason == "bounced":
            await self._bounced(account_id, address_key)
        return outcome

    def _message_id(self, once_key: str) -> str:
        """The same on every try of one notice (a repeat is known as one), unique to this site."""
        digest = hashlib.sha256(f"{self.site}\n{once_key}".encode()).hexdigest()[:32]
        domain = self.settings.mail_from.rpartition("@")[2].strip("> ") or "magery.invalid"
        return f"<{digest}@{domain}>"

    async def _send(self, address: str, words: Words, unsubscribe: str | None, why: str,
                    accepted: Callable[[], Awaitable[None]] | None = None, message_id: str | None = None) -> Outcome:
        assert self.target is not None
        mail = message(self.settings.mail_from, address, words, unsubscribe, why, message_id)
        outcome = await (self.sending(self.target, mail, self.settings.smtp_timeout_seconds, accepted)
                         if accepted is not None else
                         self.sending(self.target, mail, self.settings.smtp_timeout_seconds))
        if not isinstance(outcome, Delivered):
            log.info("mail to %s not delivered: %s", masked(address), outcome)
        return outcome

    async def _bounced(self, account_id: int, address_key: str) -> None:
        """The address refused for good: no more mail to it until it is verified again."""
        async with self.engine.begin() as conn:
            await conn.execute(mail_addresses.update().where(
                mail_addresses.c.account_id == account_id, mail_addresses.c.address_key == address_key)
                .values(bounced_ms=self.now_ms(), verified_ms=None))
