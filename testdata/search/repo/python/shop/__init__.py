"""Back-office tools for the storefront: user records, configuration and a small WSGI API."""

from .config import AppConfig, DatabaseSettings, parse_config
from .models import Address, UserModel
from .repository import BaseRepository, NotFoundError, UserRepository
from .users import deactivate_user, get_user_data

__all__ = [
    "Address",
    "AppConfig",
    "BaseRepository",
    "DatabaseSettings",
    "NotFoundError",
    "UserModel",
    "UserRepository",
    "deactivate_user",
    "get_user_data",
    "parse_config",
]

__version__ = "0.4.1"
