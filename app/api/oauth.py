"""`/api/v1/oauth/token`: an app trades the code a person's approval gave it
for an account token (OAuth 2.0's token endpoint, app/accounts/oauth.py), and
a token holder revokes the token it calls with.

The token request is form-encoded and its answers are RFC 6749's (§5.1,
§5.2): `{"token_type": "Bearer", "access_token", "scope"}`, or `error` with
`error_description`, and the contract's `detail` beside them, so a client of
either kind reads the refusal. No `from __future__ import annotations`:
FastAPI reads the routes' annotations as objects.
"""

from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from app.accounts.oauth import CODE_SECONDS, SCOPE_WORDS, OAuthError
from app.kernel.errors import Forbidden

from .caller import AccountCaller
from .deps import AccountsDep, OAuthDep, address_of
from .errors import responses
from .response_docs import amend_openapi

router = APIRouter(prefix="/oauth", tags=["accounts"])
NOT_KEPT = {"Cache-Control": "no-store", "Pragma": "no-cache"}  # RFC 6749 §5.1: a token is never cached


class OAuthTokenBody(BaseModel):
    token_type: Literal["Bearer"]
    access_token: str = Field(examples=["mgo_3q2m…"], description="an account token, as made on /account")
    scope: str = Field(examples=["play read"], description="the scopes the person approved, separated by spaces")


class OAuthErrorBody(BaseModel):
    error: str = Field(examples=["invalid_grant"], description="RFC 6749 §5.2's code, or `rate_limited`")
    error_description: str = Field(examples=["code_verifier does not match the code_challenge"])
    detail: str = Field(description="the same sentence, as every other refusal of the API says it")


_FORM = {"application/x-www-form-urlencoded": {"schema": {
    "type": "object", "required": ["grant_type", "code", "code_verifier", "redirect_uri", "client_id"],
    "properties": {
        "grant_type": {"type": "string", "enum": ["authorization_code"]},
        "code": {"type": "string", "description": "the code the redirect brought"},
        "code_verifier": {"type": "string", "minLength": 43, "maxLength": 128,
                          "description": "the secret whose S256 challenge the app sent to /oauth"},
        "redirect_uri": {"type": "string", "description": "exactly the one sent to /oauth"},
        "client_id": {"type": "string", "description": "exactly the one sent to /oauth"},
        "scope": {"type": "string", "description": "optional: no scope beyond the approved ones"}}}}}


def _example(error: str, text: str) -> dict[str, Any]:
    return {"value": {"error": error, "error_description": text, "detail": text}}


def refusal(error: OAuthError) -> JSONResponse:
    headers = dict(NOT_KEPT)
    if error.retry_after is not None:
        headers["Retry-After"] = str(error.retry_after)
    return JSONResponse({"error": error.error, "error_description": error.description, "detail": error.description},
                        status_code=error.status, headers=headers)


@router.post(
    "/token", response_model=None, openapi_extra={"requestBody": {"required": True, "content": _FORM}},
    responses={200: {"model": OAuthTokenBody, "description": "The token, shown this once"},
               400: {"model": OAuthErrorBody, "description": (
                   "RFC 6749 §5.2: `invalid_grant` (the code unknown, expired, used already, or given to another "
                   "client_id or redirect_uri, or the verifier wrong), `invalid_request`, `invalid_scope`, "
                   "`unsupported_grant_type`"),
                   "content": {"application/json": {"examples": {
                       "invalid_grant": _example("invalid_grant", "code_verifier does not match the code_challenge"),
                       "invalid_request": _example("invalid_request", "code_verifier is missing")}}}},
               429: {"model": OAuthErrorBody, "description": "Too many token requests from this address (Retry-After)",
                     "content": {"application/json": {"examples": {"rate_limited": _example(
                         "rate_limited", "too many token requests; try again in 41 s")}}}}},
    summary="Trade an OAuth authorization code for an account token",
    description=(
        "The authorization code grant with PKCE (RFC 6749 §4.1.3, RFC 7636 §4.5), for public clients: no client "
        "secret. The code is the one `/oauth` sent to the app's redirect after the person approved; it is tried "
        f"once (right or wrong) and lives {CODE_SECONDS} s. The token is an account token with the approved "
        "scopes, listed on the person's /account under the app's name. At most "
        "OAUTH_EXCHANGES_PER_MINUTE requests a minute per address."),
)
async def oauth_token(request: Request, oauth: OAuthDep) -> Response:
    form = await request.form()
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    try:
        granted = await oauth.exchange(address_of(request), fields)
    except OAuthError as error:
        return refusal(error)
    return JSONResponse({"token_type": "Bearer", "access_token": granted.access_token,
                         "scope": " ".join(granted.scopes)}, headers=NOT_KEPT)


@router.delete(
    "/token", status_code=204, response_class=Response,
    responses={204: {"description": "Revoked: the token answers 401 from now on"},
               **responses(401, 403, codes=("forbidden",))},
    summary="Revoke the account token this call is made with",
)
async def revoke_oauth_token(who: AccountCaller, accounts: AccountsDep) -> Response:
    """Any account token, an app's or one made on /account (a session is signed
    out on the page instead: 403)."""
    if who.token_id is None:
        raise Forbidden("only an account token (Authorization: Bearer mgo_...) is revoked by this call")
    await accounts.revoke_token_id(who.account_id, who.token_id)
    return Response(status_code=204)


def declare_flow(app: FastAPI) -> None:
    """/openapi.json names the flow (components.securitySchemes.oauth2) and, on
    every route that takes an account token, offers it beside the Bearer token:
    a token the flow gives is an account token like any other."""

    def offer_flow(schema: dict[str, Any]) -> dict[str, Any]:
        schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
        schemes["oauth2"] = {
            "type": "oauth2", "description": "An app's way to an account token: the authorization code with PKCE "
            "(S256), any client_id, no client secret (docs/api.md, OAuth).",
            "flows": {"authorizationCode": {"authorizationUrl": "/oauth", "tokenUrl": "/api/v1/oauth/token",
                                            "scopes": dict(SCOPE_WORDS)}}}
        for item in schema.get("paths", {}).values():
            for op in item.values():
                security = op.get("security") if isinstance(op, dict) else None
                if security and {"oauth2": []} not in security:
                    security.append({"oauth2": []})
        return schema

    amend_openapi(app, offer_flow)
