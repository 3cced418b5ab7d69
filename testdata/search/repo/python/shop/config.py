"""Configuration loading for the storefront tools."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

ENV_PREFIX = "SHOP_"


class ConfigError(ValueError):
    """Raised when a configuration file cannot be understood."""


@dataclass(frozen=True)
class DatabaseSettings:
    """Where the user database lives and how many connections to keep to it."""

    url: str
    pool_size: int = 10
    timeout_seconds: float = 5.0


@dataclass
class AppConfig:
    """Settings for the back-office tools, as read by :func:`parse_config`."""

    database: DatabaseSettings
    debug: bool = False
    allowed_hosts: list[str] = field(default_factory=list)


def parse_config(path: str | Path, env: Mapping[str, str] | None = None) -> AppConfig:
    """Parse the config file at ``path`` into an :class:`AppConfig`.

    The file holds ``key = value`` lines; ``#`` starts a comment. Environment variables
    named ``SHOP_<KEY>`` (e.g. ``SHOP_DATABASE_URL``) override the file.
    """
    env = os.environ if env is None else env
    values: dict[str, str] = {}
    for lineno, line in enumerate(Path(path).read_text().splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise ConfigError(f"{path}:{lineno}: expected 'key = value'")
        values[key.strip().lower()] = value.strip()
    for name, value in env.items():
        if name.startswith(ENV_PREFIX):
            values[name[len(ENV_PREFIX):].lower()] = value

    if "database_url" not in values:
        raise ConfigError("database_url is required")
    database = DatabaseSettings(
        url=values["database_url"],
        pool_size=int(values.get("pool_size", 10)),
        timeout_seconds=float(values.get("timeout_seconds", 5.0)),
    )
    hosts = [h.strip() for h in values.get("allowed_hosts", "").split(",") if h.strip()]
    return AppConfig(database=database, debug=_parse_bool(values.get("debug", "false")), allowed_hosts=hosts)


def _parse_bool(raw: str) -> bool:
    lowered = raw.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"not a boolean: {raw!r}")
