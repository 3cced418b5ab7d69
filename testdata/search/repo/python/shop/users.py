"""Use cases around storefront users, shared by the API and the admin scripts."""

from __future__ import annotations

import logging
from typing import Any

from .repository import NotFoundError, UserRepository

log = logging.getLogger(__name__)


def get_user_data(repo: UserRepository, user_id: int, include_address: bool = False) -> dict[str, Any]:
    """Return the public data of one user as a JSON-ready dict.

    The email address is masked (``j***@example.com``); the shipping address is only
    included when ``include_address`` is true. Raises :class:`NotFoundError` for an
    unknown ``user_id``.
    """
    user = repo.find_by_id(user_id)
    data = user.to_dict()
    data["email"] = _mask_email(user.email)
    if not include_address:
        data.pop("address", None)
    return data


def deactivate_user(repo: UserRepository, user_id: int, reason: str) -> bool:
    """Deactivate a user; returns False when the user was already inactive."""
    user = repo.find_by_id(user_id)
    if not user.is_active:
        return False
    repo.set_active(user_id, False)
    log.info("deactivated user %s: %s", user_id, reason)
    return True


def _mask_email(email: str) -> str:
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}" if domain else "***"


__all__ = ["NotFoundError", "deactivate_user", "get_user_data"]
