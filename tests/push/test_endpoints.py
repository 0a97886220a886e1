"""Which endpoints the server will ever push to: https on the known push
services' hosts, plainly written; a test's local stand-in only when
configured; nothing else, however the URL is dressed up."""

from __future__ import annotations

import pytest

from app.push.endpoints import (
    KNOWN_PUSH_HOSTS,
    LOCAL_STAND_IN,
    BadEndpoint,
    check_hosts,
    checked_endpoint,
)

KNOWN = list(KNOWN_PUSH_HOSTS)
WITH_LOCAL = [*KNOWN, LOCAL_STAND_IN]

REAL = [
    "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx",
    "https://fcm.googleapis.com/wp/dGVzdA:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABkZ3Rlc3Q",
    "https://web.push.apple.com/QGuQyavXutnMH6Tcy4jM2uHdO6N2qXp0aHVtJ2bvmk8",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD%2bYQ%3d%3d",
]


@pytest.mark.parametrize("endpoint", REAL)
def test_the_browsers_push_services_are_accepted(endpoint: str) -> None:
    assert checked_endpoint(endpoint, KNOWN) == endpoint


HOSTILE = {
    "another host": "https://evil.example/push/1",
    "a host ending like a known one": "https://evilfcm.googleapis.com.evil.example/x",
    "a known name as a subdomain": "https://fcm.googleapis.com.evil.example/x",
    "a label more under a wildcard": "https://a.b.notify.windows.com/w/",
    "the wildcard's own domain": "https://notify.windows.com/w/",
    "plain http to a known host": "http://fcm.googleapis.com/fcm/send/x",
    "an IPv4 address": "https://169.254.169.254/latest/meta-data",
    "an IPv6 address": "https://[::1]/push",
    "a decimal address": "https://2130706433/push",
    "user info before a known host": "https://evil.example@fcm.googleapis.com/fcm/send/x",
    "a known host as user info": "https://fcm.googleapis.com@evil.example/fcm/send/x",
    "user and password": "https://a:b@fcm.googleapis.com/fcm/send/x",
    "a port": "https://fcm.googleapis.com:8443/fcm/send/x",
    "https's port written out": "https://fcm.googleapis.com:443/fcm/send/x",
    "an empty port": "https://fcm.googleapis.com:/fcm/send/x",
    "an IDN": "https://fcm.googleapis.cöm/fcm/send/x",
    "an IDN lookalike of a known host": "https://fсm.googleapis.com/fcm/send/x",  # Cyrillic es
    "punycode": "https://xn--fcm-3na.googleapis.com/x",
    "upper case": "https://FCM.googleapis.com/fcm/send/x",
    "a trailing dot": "https://fcm.googleapis.com./fcm/send/x",
    "a backslash": "https://evil.example\\@fcm.googleapis.com/x",
    "a space": "https://fcm.googleapis.com/fcm/send/x y",
    "a fragment": "https://fcm.googleapis.com/fcm/send/x#y",
    "a percent in the host": "https://fcm%2egoogleapis.com/x",
    "no path": "https://fcm.googleapis.com",
    "a scheme-relative URL": "//fcm.googleapis.com/fcm/send/x",
    "another scheme": "ftp://fcm.googleapis.com/x",
    "a file": "file:///etc/passwd",
    "javascript": "javascript:alert(1)",
    "upper-case scheme": "HTTPS://fcm.googleapis.com/fcm/send/x",
    "a control character": "https://fcm.googleapis.com/fcm/send/x\r\nHost: evil",
    "a tab in the host": "https://fcm.googleapis\t.com/x",
    "the stand-in when not configured": "http://127.0.0.1:8080/push/1",
    "too long": "https://fcm.googleapis.com/" + "a" * 2100,
    "empty": "",
}


@pytest.mark.parametrize("endpoint", HOSTILE.values(), ids=HOSTILE.keys())
def test_anything_else_is_refused(endpoint: str) -> None:
    with pytest.raises(BadEndpoint):
        checked_endpoint(endpoint, KNOWN)


LOCAL_HOSTILE = {
    "another loopback address": "http://127.0.0.2:8080/push/1",
    "localhost by name": "http://localhost:8080/push/1",
    "a name starting like it": "http://127.0.0.1.evil.example/push/1",
    "user info": "http://x@127.0.0.1:8080/push/1",
    "a port of 0": "http://127.0.0.1:0/push/1",
    "IPv6 loopback": "http://[::1]:8080/push/1",
    "an address written otherwise": "http://0x7f000001:8080/push/1",
}


@pytest.mark.parametrize("endpoint", LOCAL_HOSTILE.values(), ids=LOCAL_HOSTILE.keys())
def test_the_stand_in_allows_127_0_0_1_over_http_and_nothing_more(endpoint: str) -> None:
    assert checked_endpoint("http://127.0.0.1:8080/push/1", WITH_LOCAL) == "http://127.0.0.1:8080/push/1"
    with pytest.raises(BadEndpoint):
        checked_endpoint(endpoint, WITH_LOCAL)


def test_the_stand_in_allows_no_other_host_over_http() -> None:
    with pytest.raises(BadEndpoint, match="https"):
        checked_endpoint("http://fcm.googleapis.com/fcm/send/x", WITH_LOCAL)


@pytest.mark.parametrize("entry", ["http://10.0.0.1", "https://fcm.googleapis.com", "10.0.0.1", "*.com.", "*",
                                   "Fcm.googleapis.com", "*.*.example", "http://localhost", "fcm.googleapis.com:443"])
def test_the_configuration_takes_only_host_names_and_the_stand_in(entry: str) -> None:
    assert check_hosts(WITH_LOCAL) == WITH_LOCAL
    with pytest.raises(ValueError, match="PUSH_ENDPOINT_HOSTS"):
        check_hosts([*KNOWN, entry])
