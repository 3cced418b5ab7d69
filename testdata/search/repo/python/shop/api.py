"""A minimal WSGI application exposing user data to the internal admin dashboard."""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterable

from .repository import NotFoundError, UserRepository
from .users import get_user_data

StartResponse = Callable[[str, list[tuple[str, str]]], Any]

_USER_PATH = re.compile(r"^/users/(\d+)$")


def _json(start_response: StartResponse, status: str, body: Any) -> Iterable[bytes]:
    payload = json.dumps(body).encode("utf-8")
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
    return [payload]


def make_app(connect: Callable[[], Any]) -> Callable[[dict, StartResponse], Iterable[bytes]]:
    """Return a WSGI app; ``connect`` opens a DB-API connection per request."""

    def app(environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        match = _USER_PATH.match(environ.get("PATH_INFO", ""))
        if environ.get("REQUEST_METHOD") != "GET" or match is None:
            return _json(start_response, "404 Not Found", {"error": "not found"})
        conn = connect()
        try:
            repo = UserRepository(conn)
            with_address = "address" in environ.get("QUERY_STRING", "")
            user_data = get_user_data(repo, int(match.group(1)), include_address=with_address)
        except NotFoundError:
            return _json(start_response, "404 Not Found", {"error": "unknown user"})
        finally:
            conn.close()
        return _json(start_response, "200 OK", user_data)

    return app
