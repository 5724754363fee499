"""A secret key per installation: made on the first start and kept in the data directory, never a key written
in the repository; production refuses to start without a strong one."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from companion import secret_key
from games.write import export

ROOT = Path(__file__).resolve().parents[2]
PRINT_KEY = "import django; django.setup(); from django.conf import settings; print(settings.SECRET_KEY)"


def _start(data_dir: Path, **env: str) -> subprocess.CompletedProcess:
    """A fresh Python process loading the settings the way ``make run`` does (no SECRET_KEY unless given)."""
    base = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "COMPANION_ENV", "DATA_DIR")}
    base.update(DJANGO_SETTINGS_MODULE="companion.settings", DATA_DIR=str(data_dir), **env)
    return subprocess.run([sys.executable, "-c", PRINT_KEY], cwd=ROOT, env=base, capture_output=True, text=True,
                          timeout=60)


def test_the_embedded_default_makes_its_own_key_once_and_keeps_it(tmp_path):
    first = _start(tmp_path / "one")
    assert first.returncode == 0, first.stderr
    key = first.stdout.strip()
    stored = tmp_path / "one" / "secret_key"
    assert stored.read_text().strip() == key and len(key) >= 50
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600, "only the server's user may read it"
    again = _start(tmp_path / "one")
    assert again.stdout.strip() == key, "every later start reads the same key"
    other = _start(tmp_path / "two")
    assert other.stdout.strip() not in ("", key), "another installation has another key"
    assert key not in (ROOT / "companion" / "settings.py").read_text()
    assert "secret_key" in (ROOT / ".gitignore").read_text()


def test_a_key_from_the_environment_is_used_and_nothing_is_written(tmp_path):
    chosen = "e" * 20 + "nvironment-key-0123456789-abcdefghijkl"
    started = _start(tmp_path, SECRET_KEY=chosen)
    assert started.stdout.strip() == chosen and not (tmp_path / "secret_key").exists()


@pytest.mark.parametrize("key", ["", "short", "dev-only-secret-key-change-me-in-production-0123456789",
                                 "django-insecure-" + "a1b2c3d4e5" * 5, "a" * 80])
def test_production_refuses_to_start_without_a_strong_key(tmp_path, key):
    started = _start(tmp_path, COMPANION_ENV="production", SECRET_KEY=key)
    assert started.returncode != 0 and "COMPANION_ENV=production" in started.stderr, started.stderr
    assert "SECRET_KEY" in started.stderr and not (tmp_path / "secret_key").exists()
    with pytest.raises(ImproperlyConfigured):
        secret_key.installation_key(key, tmp_path, production=True)


def test_production_starts_with_a_strong_key(tmp_path):
    strong = "Q7v" + "x9Lm2-Pz" * 7
    started = _start(tmp_path, COMPANION_ENV="production", SECRET_KEY=strong)
    assert started.returncode == 0 and started.stdout.strip() == strong, started.stderr


def test_workers_starting_at_once_share_one_key(tmp_path):
    keys = {secret_key.stored_key(tmp_path) for _ in range(3)}
    assert len(keys) == 1


def test_tests_run_under_their_own_key_and_the_seal_key_derives_from_it():
    assert settings.SECRET_KEY.startswith("tests-only-")
    assert export.seal_key("ABC", 1) != export.seal_key("ABC", 1, secret="another-" + "z" * 50)
    assert export.seal_key("ABC", 1) == export.seal_key("ABC", 1, secret=settings.SECRET_KEY)


PRINT_FALLBACKS = ("import django; django.setup(); from django.conf import settings; "
                   "print('|'.join(settings.SECRET_KEY_FALLBACKS))")


def test_secret_key_fallbacks_come_from_the_environment(tmp_path):
    old, older = "o" * 20 + "ld-key-0123456789-abcdefghijklmnopq", "p" * 20 + "revious-0123456789-abcdefghijkl"
    base = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY_FALLBACKS", "DATA_DIR")}
    base.update(DJANGO_SETTINGS_MODULE="companion.settings", DATA_DIR=str(tmp_path),
                SECRET_KEY_FALLBACKS=f"{old}, {older},")
    started = subprocess.run([sys.executable, "-c", PRINT_FALLBACKS], cwd=ROOT, env=base, capture_output=True,
                             text=True, timeout=60)
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == f"{old}|{older}"
    assert secret_key.fallback_keys("") == []


def test_an_empty_key_file_stops_the_start_naming_the_file_and_the_fix(tmp_path):
    stored = tmp_path / "secret_key"
    stored.write_text("\n")
    stored.chmod(0o600)
    started = _start(tmp_path)
    assert started.returncode != 0 and str(stored) in started.stderr, started.stderr
    assert "empty" in started.stderr and "delete" in started.stderr
    assert stored.read_text() == "\n", "the file is left for its owner to mend"
    with pytest.raises(ImproperlyConfigured, match="empty"):
        secret_key.stored_key(tmp_path)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_a_key_file_others_may_read_stops_the_start_naming_the_file_and_the_fix(tmp_path, mode):
    stored = tmp_path / "secret_key"
    stored.write_text("r" * 20 + "eadable-key-0123456789-abcdefghijklm\n")
    stored.chmod(mode)
    started = _start(tmp_path)
    assert started.returncode != 0, started.stdout
    assert str(stored) in started.stderr and f"chmod 600 {stored}" in started.stderr, started.stderr
    assert "r" * 20 not in started.stdout
    stored.chmod(0o600)
    assert _start(tmp_path).returncode == 0
