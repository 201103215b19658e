"""Request dependencies as named `Annotated` aliases: services, principal, client id."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from shifu.context.identity import Principal
from shifu.runtime.wiring import Services


def get_services(request: Request) -> Services:
    """The app's services, built in the lifespan."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def authenticate(services: ServicesDep, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """Verify the bearer token once at the edge; no token → Unauthenticated, never an anonymous None."""
    token = None
    if authorization and authorization[:7].lower() == "bearer ":
        token = authorization[7:].strip()
    return services.verifier.verify(token)


PrincipalDep = Annotated[Principal, Depends(authenticate)]


def client_id(x_client_id: Annotated[str | None, Header()] = None) -> str | None:
    """The client id the app sends (`X-Client-Id`); compared with the token's app."""
    return x_client_id


ClientIdDep = Annotated[str | None, Depends(client_id)]
