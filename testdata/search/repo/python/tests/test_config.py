"""Tests for shop.config.parse_config."""

import pytest

from shop.config import ConfigError, parse_config


def write(tmp_path, text):
    path = tmp_path / "shop.conf"
    path.write_text(text)
    return path


def test_parse_config_reads_file(tmp_path):
    path = write(tmp_path, "database_url = postgres://localhost/shop\npool_size = 4\n# a comment\n")
    cfg = parse_config(path, env={})
    assert cfg.database.url == "postgres://localhost/shop"
    assert cfg.database.pool_size == 4
    assert cfg.debug is False


def test_parse_config_environment_overrides_file(tmp_path):
    path = write(tmp_path, "database_url = postgres://localhost/shop\n")
    cfg = parse_config(path, env={"SHOP_DEBUG": "yes", "SHOP_ALLOWED_HOSTS": "a.test, b.test"})
    assert cfg.debug is True
    assert cfg.allowed_hosts == ["a.test", "b.test"]


def test_parse_config_requires_database_url(tmp_path):
    with pytest.raises(ConfigError):
        parse_config(write(tmp_path, "debug = on\n"), env={})


def test_parse_config_rejects_line_without_equals(tmp_path):
    with pytest.raises(ConfigError, match="expected 'key = value'"):
        parse_config(write(tmp_path, "database_url\n"), env={})
