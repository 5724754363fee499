"""Collected static files (``make run``): the app's own scripts and style sheets leave minified, then precompressed;
a package's files leave as the package ships them. The browser tests (tests/e2e) run on the collected copy."""

from __future__ import annotations

import re
from pathlib import Path

import brotli
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

from companion.static_files import is_own, minified

OWN = ["js/table.js", "css/companion.css", "css/rules.css", "yellow_yangtze/yellow_yangtze.css",
       "catan_junior/catan_junior.css", "sorry/sorry.css"]


def collect(root: Path) -> None:
    with override_settings(STATIC_ROOT=root):
        call_command("collectstatic", "--noinput", "-i", "drf_spectacular_sidecar", "-i", "rest_framework",
                     verbosity=0)


def test_own_scripts_and_style_sheets_are_minified_and_their_compressed_copies_match(tmp_path):
    collect(tmp_path)
    for name in OWN:
        source = Path(finders.find(name))
        assert is_own(source), name
        text = source.read_text(encoding="utf-8")
        collected = (tmp_path / name).read_text(encoding="utf-8")
        assert collected == minified(name, text), name
        assert len(collected) < len(text), f"{name}: {len(collected)} B collected, {len(text)} B written"
        assert "/*" not in collected, f"{name} keeps a comment"
        assert brotli.decompress((tmp_path / f"{name}.br").read_bytes()).decode() == collected, name
    # only the layout changed: every function of the script is still defined, under its own name
    source = Path(finders.find("js/table.js")).read_text(encoding="utf-8")
    collected = (tmp_path / "js/table.js").read_text(encoding="utf-8")
    functions = re.findall(r"function (\w+)\(", source)
    assert len(functions) > 10 and all(f"function {f}(" in collected for f in functions)


def test_a_packages_files_are_collected_as_shipped(tmp_path):
    collect(tmp_path)
    name = "django_htmx/htmx-2.min.js"
    source = Path(finders.find(name))
    assert not is_own(source)
    assert (tmp_path / name).read_bytes() == source.read_bytes()


def test_collecting_twice_changes_nothing(tmp_path):
    collect(tmp_path)
    first = {name: (tmp_path / name).read_bytes() for name in OWN}
    collect(tmp_path)
    assert {name: (tmp_path / name).read_bytes() for name in OWN} == first


def test_minifying_is_idempotent_and_leaves_other_files_alone():
    for name in OWN:
        once = minified(name, Path(finders.find(name)).read_text(encoding="utf-8"))
        assert minified(name, once) == once, name
    assert minified("icons/x.svg", "<svg> <!-- a --> </svg>") == "<svg> <!-- a --> </svg>"
    assert settings.STORAGES["staticfiles"]["BACKEND"] == "companion.static_files.MinifiedCompressedStaticFilesStorage"
