"""Data access over a DB-API 2.0 connection."""

from __future__ import annotations

from typing import Any, Generic, Iterator, TypeVar

from .models import UserModel

T = TypeVar("T")


class NotFoundError(LookupError):
    """Raised when no row has the requested primary key."""


class BaseRepository(Generic[T]):
    """Common CRUD plumbing; subclasses set ``table`` and implement ``_to_model``."""

    table: str = ""

    def __init__(self, connection: Any) -> None:
        self._conn = connection

    def _to_model(self, row: dict[str, Any]) -> T:
        raise NotImplementedError

    def _query(self, sql: str, *params: Any) -> Iterator[dict[str, Any]]:
        cursor = self._conn.cursor()
        try:
            cursor.execute(sql, params)
            columns = [c[0] for c in cursor.description]
            for row in cursor.fetchall():
                yield dict(zip(columns, row))
        finally:
            cursor.close()

    def find_by_id(self, pk: int) -> T:
        """Return the row with primary key ``pk`` or raise :class:`NotFoundError`."""
        for row in self._query(f"SELECT * FROM {self.table} WHERE id = %s", pk):
            return self._to_model(row)
        raise NotFoundError(f"{self.table}: no row with id {pk}")

    def list(self, limit: int = 100, offset: int = 0) -> list[T]:
        sql = f"SELECT * FROM {self.table} ORDER BY id LIMIT %s OFFSET %s"
        return [self._to_model(row) for row in self._query(sql, limit, offset)]

    def delete(self, pk: int) -> None:
        cursor = self._conn.cursor()
        cursor.execute(f"DELETE FROM {self.table} WHERE id = %s", (pk,))
        self._conn.commit()


class UserRepository(BaseRepository[UserModel]):
    """Users, joined with their shipping address."""

    table = "users"

    def _to_model(self, row: dict[str, Any]) -> UserModel:
        return UserModel.from_row(row)

    def find_by_email(self, email: str) -> UserModel:
        """Return the user registered with ``email`` (compared case-insensitively)."""
        for row in self._query("SELECT * FROM users WHERE email = %s", email.strip().lower()):
            return self._to_model(row)
        raise NotFoundError(f"users: no user with email {email!r}")

    def set_active(self, pk: int, active: bool) -> None:
        cursor = self._conn.cursor()
        cursor.execute("UPDATE users SET is_active = %s WHERE id = %s", (active, pk))
        self._conn.commit()
