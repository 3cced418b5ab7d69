"""Domain models for storefront users."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping, Optional


@dataclass
class Address:
    """A postal address; only shipping addresses are stored."""

    street: str
    city: str
    postal_code: str
    country: str = "DE"

    def one_line(self) -> str:
        return f"{self.street}, {self.postal_code} {self.city}, {self.country}"


class UserModel:
    """A storefront customer, as stored in the ``users`` table."""

    table = "users"

    def __init__(
        self,
        user_id: int,
        email: str,
        display_name: str,
        address: Optional[Address] = None,
        is_active: bool = True,
    ) -> None:
        self.user_id = user_id
        self.email = email.strip().lower()
        self.display_name = display_name
        self.address = address
        self.is_active = is_active

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> "UserModel":
        """Build a model from a database row with the columns of the ``users`` table."""
        address = None
        if row.get("street"):
            address = Address(row["street"], row["city"], row["postal_code"], row["country"])
        return cls(row["id"], row["email"], row["display_name"], address, bool(row["is_active"]))

    def to_dict(self) -> dict[str, Any]:
        """Return the model as a JSON-ready dict."""
        return {
            "id": self.user_id,
            "email": self.email,
            "display_name": self.display_name,
            "address": asdict(self.address) if self.address else None,
            "is_active": self.is_active,
        }

    def __repr__(self) -> str:
        return f"UserModel(user_id={self.user_id!r}, email={self.email!r})"
