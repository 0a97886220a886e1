"""Email: notification mails per second through the email channel
(`Mailer.deliver`: the address read, the day's bound counted, the send written,
the unsubscribe link signed, the message built and sent) against the yardstick
of the same message handed to the same local SMTP server by `aiosmtplib.send`
alone, in the same run; and one digest tick over many accounts due.

    .venv/bin/python bench/mail.py [--mails 300] [--accounts 500] [--database-url URL]

A fresh PostgreSQL database is made on 127.0.0.1 (dropped after); the SMTP
server is aiosmtpd on a free port. Results in bench/results/mail.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import socket
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
from aiosmtpd.controller import Controller  # noqa: E402

from app.config import Settings  # noqa: E402
from app.db import make_engine, upgrade  # noqa: E402
from app.db.account_models import accounts  # noqa: E402
from app.db.mail_models import mail_addresses  # noqa: E402
from app.mail import Delivered, Mailer, send_digests  # noqa: E402
from app.mail.compose import message  # noqa: E402
from app.mail.sender import send  # noqa: E402
from app.mail.signing import address_key  # noqa: E402
from app.mail.texts import turn  # noqa: E402

SERVER = "postgresql://postgres@127.0.0.1:5432/test"


class Sink:
    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.count += 1
        return "250 OK"


@dataclass
class Item:
    account_id: int
    kind: str = "turn"
    payload: dict[str, Any] = field(default_factory=lambda: {"match_id": "x1y2z3", "opponent": "Bo"})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def main(mails: int, how_many: int) -> dict[str, Any]:
    name = f"bench_mail_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(SERVER)
    await admin.execute(f'CREATE DATABASE "{name}"')
    port = free_port()
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    engine = make_engine(url)
    try:
        await upgrade(engine)
        settings = Settings(_env_file=None, database_url=url, smtp_url=f"smtp://127.0.0.1:{port}",  # type: ignore[call-arg]
                            public_url="https://magery.example", mail_per_account_day=10**9)
        mailer = Mailer(engine, settings)
        key = await mailer.keys.key()
        async with engine.begin() as conn:
            made = datetime.now(UTC)
            rows = [{"name": f"p{n}", "name_lower": f"p{n}", "created_at": made} for n in range(how_many)]
            await conn.execute(accounts.insert(), rows)
            ids = [r.id for r in (await conn.execute(accounts.select().where(accounts.c.computer.is_(None))
                                                     .order_by(accounts.c.id))).all()]
            await conn.execute(mail_addresses.insert(), [
                {"account_id": i, "address": f"p{i}@example.org", "address_key": address_key(key, f"p{i}@example.org"),
                 "added_ms": 0, "verified_ms": 1, "turn": True, "digest": True, "digest_hour": 0} for i in ids])
        target = mailer.target
        assert target is not None
        words = turn(settings.public_url, Item(ids[0]).payload)
        results: dict[str, Any] = {}
        for _ in range(2):  # the second round is the one kept: the first warms connections and caches
            began = time.perf_counter()
            for n in range(mails):
                assert await send(target, message(settings.mail_from, f"p{ids[n % len(ids)]}@example.org", words,
                                                  "https://magery.example/mail/unsubscribe/t", "why"), 20) == Delivered()
            yard = mails / (time.perf_counter() - began)
            began = time.perf_counter()
            for n in range(mails):
                assert await mailer.deliver(Item(ids[n % len(ids)])) == Delivered()
            ours = mails / (time.perf_counter() - began)
            results = {"mails": mails, "yardstick_mails_per_s": round(yard, 1), "channel_mails_per_s": round(ours, 1),
                       "ratio": round(ours / yard, 3)}
        # One digest tick with every account due and nothing awaiting: the day claimed for each.
        began = time.perf_counter()
        claimed = await send_digests(mailer, lambda _id: asyncio.sleep(0, {}))  # type: ignore[arg-type,return-value]
        results.update({"digest_accounts": len(claimed), "digest_tick_s": round(time.perf_counter() - began, 3)})
        began = time.perf_counter()
        again = await send_digests(mailer, lambda _id: asyncio.sleep(0, {}))  # type: ignore[arg-type,return-value]
        results.update({"digest_tick_again_s": round(time.perf_counter() - began, 3), "digest_again": len(again)})
        return results
    finally:
        await engine.dispose()
        controller.stop()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mails", type=int, default=300)
    parser.add_argument("--accounts", type=int, default=500)
    args = parser.parse_args()
    found = asyncio.run(main(args.mails, args.accounts))
    print(f"{'measure':<28}{'value':>12}")
    for k, v in found.items():
        print(f"{k:<28}{v!s:>12}")
    goal = found["ratio"] >= 0.5
    print(f"goal: the channel at >= 0.5x the bare client's mails/s: {'PASS' if goal else 'MISS'}")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "mail.json").write_text(json.dumps(found, indent=2))
