"""Helpers for the account pages' route tests: a form's hidden token, signing
up and in through the forms as a browser would."""

from __future__ import annotations

import re

import httpx

PASSWORD = "correct horse battery"
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def form_token(html: str) -> str:
    found = _TOKEN.search(html)
    assert found, "the page has no form token"
    return found.group(1)


def page_csrf(html: str) -> str:
    """The session's CSRF token, from the page's meta tag."""
    found = _META.search(html)
    assert found, "the page carries no csrf-token meta tag"
    return found.group(1)


async def sign_up(client: httpx.AsyncClient, name: str, password: str = PASSWORD,
                  next_path: str = "/") -> httpx.Response:
    token = form_token((await client.get("/signup")).text)
    return await client.post("/signup", data={"username": name, "password": password, "next": next_path,
                                               "csrf_token": token})


async def sign_in(client: httpx.AsyncClient, name: str, password: str = PASSWORD,
                  next_path: str = "/") -> httpx.Response:
    token = form_token((await client.get("/login")).text)
    return await client.post("/login", data={"username": name, "password": password, "next": next_path,
                                              "csrf_token": token})


async def csrf_of(client: httpx.AsyncClient) -> str:
    """The signed-in session's CSRF token, as a page carries it."""
    return page_csrf((await client.get("/learn")).text)
