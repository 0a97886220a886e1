"""Web push through the API: the server's VAPID public key, and a signed-in
browser's push subscription kept or dropped (app/push).

No `from __future__ import annotations`: FastAPI reads the routes' annotations
as objects.
"""

from typing import Annotated, Any

from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, field_validator

from app.kernel.errors import NotFound, ServiceError
from app.push.endpoints import BadEndpoint, checked_endpoint
from app.push.keys import from_b64url
from app.push.parts import Push
from app.push.subscriptions import MOST_PER_ACCOUNT, Subscription, keep, remove

from .caller import AccountCaller
from .deps import AccountsDep
from .errors import responses
from .schemas import Strict


def get_push(request: Request) -> Push:
    return request.app.state.parts.push  # type: ignore[no-any-return]


PushDep = Annotated[Push, Depends(get_push)]
router = APIRouter(tags=["push"])


class PublicKey(BaseModel):
    public_key: str = Field(description="the VAPID public key: the uncompressed P-256 point (65 bytes) in URL-safe "
                                        "base64, as `PushManager.subscribe` takes its `applicationServerKey`",
                            examples=["BPm9...ygM"])


class NotAnEndpoint(ServiceError):
    """A string where a URL goes that is no known push service's https URL:
    well-formed JSON (no schema can list which hosts we call), unusable."""

    status, code = 422, "bad_endpoint"


class NotAKey(ServiceError):
    """A p256dh of the right form that is no point of the curve: the request is
    well-formed (no schema can say which 65 bytes lie on P-256), its key unusable."""

    status, code = 422, "not_a_key"


def _on_the_curve(value: str) -> bool:
    raw = from_b64url(value)
    if len(raw) != 65:
        return False
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return True


class BrowserKeys(Strict):
    p256dh: str = Field(pattern=r"^[A-Za-z0-9_-]{87}=?$",
                        description="the browser's P-256 public key: an uncompressed point (65 bytes), URL-safe base64")
    auth: str = Field(pattern=r"^[A-Za-z0-9_-]{22}(==)?$",
                      description="the browser's authentication secret (16 bytes), URL-safe base64")

    @field_validator("auth")
    @classmethod
    def _sixteen_bytes(cls, value: str) -> str:
        if len(from_b64url(value)) != 16:
            raise ValueError("the authentication secret is 16 bytes")
        return value


class PushSubscriptionIn(Strict):
    """A browser's `PushSubscription`, as its `toJSON()` writes it."""

    endpoint: str = Field(max_length=2048, description=(
        "the push service's URL for this browser: https, on a known push service's host (PUSH_ENDPOINT_HOSTS)"))
    expirationTime: int | float | None = Field(None, description="as the browser sends it; not used")  # noqa: N815
    keys: BrowserKeys


class PushSubscriptionOut(BaseModel):
    endpoint: str
    new: bool = Field(description="false: this endpoint was kept already, and is renewed")


class PushEndpoint(Strict):
    endpoint: str = Field(max_length=2048, description="the endpoint of the subscription to drop")
    expirationTime: int | float | None = None  # noqa: N815  (the whole PushSubscription JSON may be sent)
    keys: dict[str, Any] | None = None


@router.get("/push/key", response_model=PublicKey, responses=responses(),
            summary="The server's VAPID public key, for PushManager.subscribe")
async def public_key(push: PushDep) -> JSONResponse:
    """The same on every process and for good (kept in the database, or set by
    VAPID_PRIVATE_KEY): a browser subscribes with it once."""
    return JSONResponse({"public_key": await push.keys.public_key()})


@router.post(
    "/account/push", response_model=PushSubscriptionOut, status_code=201,
    responses={200: {"model": PushSubscriptionOut, "description": "The endpoint was kept already: renewed"},
               **responses(400, 401, 403, 422, codes=("csrf_failed",), own={
                   422: {"not_a_key": "body.keys.p256dh: not an uncompressed P-256 public key",
                         "bad_endpoint": "body.endpoint: evil.example is not a known push service "
                                         "(PUSH_ENDPOINT_HOSTS)"}})},
    summary="Keep this browser's push subscription for the signed-in account",
    description=("The browser's `PushSubscription` JSON, from a signed-in session (with X-CSRF-Token) or an "
                 "account token. The endpoint must be https on a known push service's host "
                 "(PUSH_ENDPOINT_HOSTS), with no port or user info: the server never calls another address. "
                 f"An account keeps at most {MOST_PER_ACCOUNT} subscriptions; one more pushes out the one "
                 "posted longest ago. 201 when new, 200 when the endpoint was kept already (renewed, its keys "
                 "replaced, and moved to this account)."),
)
async def subscribe(body: PushSubscriptionIn, who: AccountCaller, push: PushDep,
                    accounts: AccountsDep) -> JSONResponse:
    try:
        endpoint = checked_endpoint(body.endpoint, push.hosts)
    except BadEndpoint as why:
        raise NotAnEndpoint(f"body.endpoint: {why}", field="body.endpoint") from None
    if not _on_the_curve(body.keys.p256dh):
        raise NotAKey("body.keys.p256dh: not an uncompressed P-256 public key", field="body.keys.p256dh")
    new = await keep(accounts.engine, who.account_id, Subscription(endpoint, body.keys.p256dh, body.keys.auth),
                     accounts.now())
    return JSONResponse({"endpoint": endpoint, "new": new}, status_code=201 if new else 200)


@router.delete(
    "/account/push", status_code=204, response_class=Response,
    responses={**responses(400, 401, 403, 404, codes=("csrf_failed",))},
    summary="Drop one of the account's push subscriptions",
)
async def unsubscribe(body: PushEndpoint, who: AccountCaller, accounts: AccountsDep) -> Response:
    """The endpoint (or the whole PushSubscription JSON) of a subscription of this
    account; 404 when it holds none there."""
    if not await remove(accounts.engine, who.account_id, body.endpoint):
        raise NotFound("body.endpoint: this account holds no push subscription at this endpoint")
    return Response(status_code=204)

