"""SMTP_URL's reading, the address check and the signed links, without a server."""

from __future__ import annotations

import pytest

from app.mail import signing
from app.mail.addresses import checked
from app.mail.compose import Words, message
from app.mail.errors import MailError
from app.mail.smtp_url import parse


def test_smtp_urls_name_host_port_credentials_and_tls() -> None:
    plain = parse("smtp://mailer:p%40ss@relay.example:2525")
    assert (plain.host, plain.port, plain.implicit_tls, plain.user, plain.password) == (
        "relay.example", 2525, False, "mailer", "p@ss")
    assert parse("smtp://relay.example").port == 587
    tls = parse("smtps://u:p@relay.example")
    assert (tls.port, tls.implicit_tls) == (465, True)
    assert "p@ss" not in repr(plain)  # the password never reaches a log line
    for bad in ("http://relay.example", "smtp://", "smtp://relay.example:99999"):
        with pytest.raises(ValueError):
            parse(bad)


@pytest.mark.parametrize("address", ["ada@example.org", "a.b+c@mail.example.co.uk"])
def test_addresses_of_the_usual_shape_pass(address: str) -> None:
    assert checked(f"  {address} ") == address


@pytest.mark.parametrize("address", ["", "ada", "ada@", "@example.org", "ada@example", "a b@example.org",
                                     "ada@example.org\r\nBcc: x@y.org", "<ada@example.org>", "a" * 250 + "@x.org", 5])
def test_other_addresses_are_refused_naming_the_field(address: object) -> None:
    with pytest.raises(MailError) as refused:
        checked(address)
    assert refused.value.status == 400 and refused.value.field == "address"


def test_a_token_is_bound_to_its_key_and_purpose() -> None:
    key, other = b"k" * 32, b"o" * 32
    token = signing.sign(key, "unsubscribe", "7", "turn")
    assert signing.read(key, "unsubscribe", token, 2) == ["7", "turn"]
    assert signing.read(other, "unsubscribe", token, 2) is None  # another site's key
    assert signing.read(key, "verify", token, 2) is None  # another purpose
    assert signing.read(key, "unsubscribe", token.replace("7.", "8.", 1), 2) is None  # another account
    assert signing.read(key, "unsubscribe", token[:-2], 2) is None


def test_a_mail_has_both_parts_and_the_one_click_headers() -> None:
    mail = message("Magery <noreply@magery.test>", "ada@example.org",
                   Words("Your turn", ("Bo has moved <b>.",), (("Open", "https://magery.test/matches/x1"),)),
                   "https://magery.test/mail/unsubscribe/t", "Why.")
    assert mail["List-Unsubscribe"] == "<https://magery.test/mail/unsubscribe/t>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()
    assert "https://magery.test/matches/x1" in text and 'href="https://magery.test/matches/x1"' in html
    assert "&lt;b&gt;" in html and "<b>" not in html  # what a player typed is text


def test_a_mails_signed_links_stay_out_of_the_logs() -> None:
    from app.redact import redact

    line = '"POST /mail/unsubscribe/7.turn.AbC-_x HTTP/1.1" 200; GET /mail/verify/7.1767225600.ab12.Zz?x=1'
    shown = redact(line)
    assert "AbC-_x" not in shown and "Zz" not in shown and shown.count("[redacted]") == 2
