"""Tests for shop.users: get_user_data and deactivate_user against an in-memory repository."""

import pytest

from shop.models import Address, UserModel
from shop.repository import NotFoundError, UserRepository
from shop.users import deactivate_user, get_user_data


class FakeUserRepository(UserRepository):
    """A UserRepository that keeps UserModel objects in a dict instead of a database."""

    def __init__(self, *users: UserModel) -> None:
        super().__init__(connection=None)
        self.users = {u.user_id: u for u in users}

    def find_by_id(self, pk: int) -> UserModel:
        try:
            return self.users[pk]
        except KeyError:
            raise NotFoundError(pk) from None

    def set_active(self, pk: int, active: bool) -> None:
        self.users[pk].is_active = active


@pytest.fixture
def repo() -> FakeUserRepository:
    home = Address("Hauptstr. 1", "Berlin", "10115")
    return FakeUserRepository(
        UserModel(1, "Jane@Example.com", "Jane", address=home),
        UserModel(2, "bob@example.com", "Bob", is_active=False),
    )


def test_get_user_data_masks_email(repo):
    user_data = get_user_data(repo, 1)
    assert user_data["email"] == "j***@example.com"
    assert user_data["display_name"] == "Jane"


def test_get_user_data_omits_address_by_default(repo):
    assert "address" not in get_user_data(repo, 1)


def test_get_user_data_includes_address_on_request(repo):
    user_data = get_user_data(repo, 1, include_address=True)
    assert user_data["address"]["city"] == "Berlin"


def test_get_user_data_unknown_user(repo):
    with pytest.raises(NotFoundError):
        get_user_data(repo, 99)


def test_deactivate_user(repo):
    assert deactivate_user(repo, 1, "requested by user") is True
    assert repo.users[1].is_active is False
    assert get_user_data(repo, 1)["is_active"] is False


def test_deactivate_user_already_inactive(repo):
    assert deactivate_user(repo, 2, "duplicate account") is False
