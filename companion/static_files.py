"""The collected static files as phones receive them: the app's own scripts and style sheets minified, then
precompressed.

The sources under ``static/`` and each app's ``static/`` folder stay readable, comments and all; a phone needs none
of that. ``collectstatic`` copies them, this storage minifies the copies of the app's own ``.js`` (rJSmin) and
``.css`` (rCSSmin) files, and ServeStatic's storage then writes a ``.gz`` and a ``.br`` beside each file. Files that
come from installed packages (htmx, the API schema viewer) are left as their packages ship them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from rcssmin import cssmin
from rjsmin import jsmin
from servestatic.storage import CompressedStaticFilesStorage

MINIFIERS = {".js": jsmin, ".css": cssmin}


def minified(name: str, text: str) -> str:
    """``text`` (the content of static file ``name``) minified by its extension's minifier; other files unchanged.

    Minifying is idempotent: a minified text minifies to itself, so collecting twice changes nothing.
    """
    minify = MINIFIERS.get(Path(name).suffix)
    return minify(text) if minify else text


def is_own(source: Path) -> bool:
    """Whether a found static file is one of this project's sources (not an installed package's)."""
    base = Path(settings.BASE_DIR).resolve()
    source = source.resolve()
    return source.is_relative_to(base) and "site-packages" not in source.parts and ".venv" not in source.parts


class MinifiedCompressedStaticFilesStorage(CompressedStaticFilesStorage):
    """ServeStatic's compressed storage that first minifies the app's own scripts and style sheets in place."""

    def post_process(self, paths: dict[str, Any], dry_run: bool = False, **options: Any) -> Iterator[Any]:
        """Minify each collected copy of an own ``.js``/``.css`` file, then compress every file as ServeStatic does.

        ``paths`` maps a collected name to ``(source storage, source path)``, as ``collectstatic`` passes it.
        """
        if not dry_run:
            for name, (storage, source) in paths.items():
                if Path(name).suffix in MINIFIERS and not name.endswith((".min.js", ".min.css")) \
                        and is_own(Path(storage.path(source))):
                    target = Path(self.path(name))
                    text = target.read_text(encoding="utf-8")
                    target.write_text(minified(name, text), encoding="utf-8")
        yield from super().post_process(paths, dry_run, **options)
