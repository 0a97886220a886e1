"""A mail as it leaves: a text part and an HTML part saying the same, the
match's link (absolute, from PUBLIC_URL), and RFC 8058's one-click unsubscribe
headers. Nothing secret goes in: no seat token, no session, only links a
stranger holding the mail could use to read a public match page or to turn
that kind of mail off.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from html import escape


@dataclass(frozen=True, slots=True)
class Words:
    """What a mail says: a subject, lines of text, and links ((label, url))."""

    subject: str
    lines: tuple[str, ...]
    links: tuple[tuple[str, str], ...] = ()


def message(sender: str, to: str, words: Words, unsubscribe_url: str | None, why: str,
            message_id: str | None = None) -> EmailMessage:
    """`why`: the line saying why this mail came (and how to stop it). `message_id`:
    the one a notice keeps over its tries (a repeat is then known as one), else a new one."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = words.subject
    mail["Date"] = formatdate(localtime=False, usegmt=True)
    mail["Message-ID"] = message_id or make_msgid(domain=sender.rpartition("@")[2].strip("> ") or None)
    mail["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to it
    if unsubscribe_url is not None:
        mail["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    text = [*words.lines, ""]
    text += [f"{label}: {url}" for label, url in words.links]
    text += ["", "-- ", why]
    if unsubscribe_url is not None:
        text.append(f"Stop these mails: {unsubscribe_url}")
    mail.set_content("\n".join(text) + "\n")
    html = ["<!doctype html><html><body>"]
    html += [f"<p>{escape(line)}</p>" for line in words.lines]
    html += [f'<p><a href="{escape(url)}">{escape(label)}</a></p>' for label, url in words.links]
    html.append(f'<hr><p style="color:#666;font-size:small">{escape(why)}')
    if unsubscribe_url is not None:
        html.append(f' <a href="{escape(unsubscribe_url)}">Stop these mails</a>.')
    html.append("</p></body></html>")
    mail.add_alternative("\n".join(html) + "\n", subtype="html")
    return mail
