"""This installation's ``SECRET_KEY``: from the environment, else made once and kept in the data directory.

Django signs seat and host cookies with it and the export seals (``games/write/export.py``) derive their key
from it, so a key anyone can read (one written in the repository) would let anyone forge a cookie or
open a sealed hand in an exported file. Hence:

* ``SECRET_KEY`` set in the environment (or ``.env``) is used as it is;
* otherwise the embedded default (``make run``) makes a random key on first start and keeps it in
  ``<data directory>/secret_key`` (file mode 0600, ignored by git), and every later start (and every
  worker of the machine) reads the same file; an empty key file, or one other users may read, stops the
  server with a message naming the file and the fix;
* in production (``COMPANION_ENV=production``) the key must come from the environment, and a
  missing, short or well-known key stops the server with :class:`ImproperlyConfigured`.

Moving a server: copy ``secret_key`` (or the ``SECRET_KEY`` value) with the database; a new key logs
every phone out of its seat and makes exports sealed under the old key import only with the old key
in ``SECRET_KEY_FALLBACKS`` (comma-separated in the environment).
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
    """The key in ``data_dir/secret_key``, made there first (random, 0600).

    A new key is written whole to a file of its own and then linked into place, which fails when another
    worker linked its key first: every worker starting at once ends up reading the one file that won, and the
    file is never seen half written. Raises :class:`ImproperlyConfigured` naming the file and the fix when
    the file is empty or other users may read or change it (:func:`refusal`): such a key is not used.
    """
    path = Path(data_dir) / KEY_FILE
    if not path.exists():
        _make(path)
    text = path.read_text(encoding="ascii").strip()
    why = refusal(path, text)
    if why:
        raise ImproperlyConfigured(why)
    return text


def refusal(path: Path, text: str) -> str:
    """Why the key file ``path`` holding ``text`` may not be used (``""`` when it may), with the fix."""
    if not text:
        return (f"The secret key file {path} is empty. Put back the key it held (from a backup, or the server "
                f"this one moved from), or delete {path} to make a new key (every phone then joins its seat "
                f"again, and exports sealed under the old key import only with it in SECRET_KEY_FALLBACKS).")
    mode = path.stat().st_mode & 0o777
    if os.name == "posix" and mode & 0o077:
        return (f"The secret key file {path} has mode {mode:04o}: other users of this machine may read or change "
                f"the key that signs every seat cookie and seals every export. Run  chmod 600 {path}  and start "
                f"again (if others may have read it, delete it to make a new key).")
    return ""


def _make(path: Path) -> None:
    """A new random key at ``path`` (mode 0600), unless another worker put one there first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_urlsafe(50) + "\n")
        try:
            os.link(temporary, path)
        except FileExistsError:  # another worker made it a moment ago: its key counts
            pass
    finally:
        temporary.unlink(missing_ok=True)


def fallback_keys(from_env: str) -> list[str]:
    """``SECRET_KEY_FALLBACKS`` from the environment: the earlier keys, comma-separated, newest first
    (blanks dropped). Cookies signed and exports sealed under them are still read."""
    return [key.strip() for key in from_env.split(",") if key.strip()]


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
                "same value when the server moves, see docs/configuration.md, 'Moving a server').")
        why = weakness(key)
        if why:
            raise ImproperlyConfigured(f"COMPANION_ENV=production refuses this SECRET_KEY: {why}. Set a random "
                                       "value of 50 characters or more.")
        return key
    return key or stored_key(data_dir)
