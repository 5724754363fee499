"""This installation's ``SECRET_KEY``: from the environment, else made once and kept in the data directory.

Django signs seat and host cookies with it and the export seals (``games/export.py``) derive their key
from it, so a key anyone can read (one written in the repository) would let anyone forge a cookie or
open a sealed hand in an exported file. Hence:

* ``SECRET_KEY`` set in the environment (or ``.env``) is used as it is;
* otherwise the embedded default (``make run``) makes a random key on first start and keeps it in
  ``<data directory>/secret_key`` (file mode 0600, ignored by git), and every later start (and every
  worker of the machine) reads the same file;
* in production (``COMPANION_ENV=production``) the key must come from the environment, and a
  missing, short or well-known key stops the server with :class:`ImproperlyConfigured`.

Moving a server: copy ``secret_key`` (or the ``SECRET_KEY`` value) with the database; a new key logs
every phone out of its seat and makes exports sealed under the old key import only with the old key
in ``SECRET_KEY_FALLBACKS``.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

KEY_FILE = "secret_key"
MIN_LENGTH = 50  # Django's own check (security.W009) asks for 50 characters of 5 different ones
#: Keys that were printed somewhere (this project's old development key, Django's template prefix).
KNOWN_KEYS = ("dev-only-secret-key-change-me-in-production-0123456789",)
KNOWN_MARKS = ("django-insecure", "change-me", "changeme", "change_me", "dev-only", "secret-key-here")


def weakness(key: str) -> str:
    """Why ``key`` may not be a production key (``""`` when it may): too short, too few characters, known."""
    if len(key) < MIN_LENGTH or len(set(key)) < 5:
        return f"it has fewer than {MIN_LENGTH} characters (or fewer than 5 different ones)"
    if key in KNOWN_KEYS or any(mark in key.lower() for mark in KNOWN_MARKS):
        return "it is a key printed in code or documentation"
    return ""


def stored_key(data_dir: Path) -> str:
    """The key in ``data_dir/secret_key``, made there first (random, 0600, created exclusively, so
    workers starting at once all end up reading the one file that won)."""
    path = Path(data_dir) / KEY_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        text = ""
    if text:
        return text
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another worker made it a moment ago
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    return key


def installation_key(from_env: str, data_dir: Path, production: bool) -> str:
    """The ``SECRET_KEY`` this process uses (module docstring).

    ``from_env`` is the environment's ``SECRET_KEY`` (``""`` when unset).
    Raises :class:`ImproperlyConfigured`, naming what to do, in production
    when the key is missing or weak (:func:`weakness`).
    """
    key = from_env.strip()
    if production:
        if not key:
            raise ImproperlyConfigured(
                "COMPANION_ENV=production needs SECRET_KEY in the environment: a random value of 50 characters "
                "or more, e.g. from  python -c 'import secrets; print(secrets.token_urlsafe(50))'  (keep the "
                "same value when the server moves, see README 'Configuration').")
        why = weakness(key)
        if why:
            raise ImproperlyConfigured(f"COMPANION_ENV=production refuses this SECRET_KEY: {why}. Set a random "
                                       "value of 50 characters or more.")
        return key
    return key or stored_key(data_dir)
