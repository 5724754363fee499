"""A fresh machine: ``make test`` gets the browser tests their Chromium and the test tools; ``make run``
installs only the runtime, migrates only when a migration is missing and collects the static files only
when one changed (so a restart serves at once, and never without collected files)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAKE = shutil.which("make") or "make"  # make is part of the documented set-up
VENV = str(Path(sys.executable).parent.parent)  # the venv running the tests: make must not build another


def make(*args: str, path: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **({"PATH": path} if path is not None else {})}
    return subprocess.run([MAKE, "--no-print-directory", *args, f"VENV={VENV}"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def fake_bin(tmp_path: Path, uid: int) -> Path:
    """A PATH with no chromium, an ``id`` that answers ``uid`` and an ``apt-get`` that logs its arguments."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (bin_dir / "apt-get").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path / 'apt.log'}\n")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    return bin_dir


def fresh_stamps(tmp_path: Path) -> tuple[Path, Path]:
    """A venv folder whose install stamps are newer than the requirements, and a static stamp path."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for stamp in (".installed-base", ".installed-dev"):
        (venv / stamp).touch()
    return venv, tmp_path / "collected"


def plan_with(venv: Path, stamp: Path, *targets: str) -> str:
    result = subprocess.run([MAKE, "--no-print-directory", "-n", *targets, f"VENV={venv}",
                             f"STATIC_STAMP={stamp}"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_make_run_collects_static_files_before_serving(tmp_path):
    plan = make("-n", "run", f"STATIC_STAMP={tmp_path / 'never-collected'}").stdout
    assert "collectstatic --noinput" in plan
    assert plan.index("collectstatic") < plan.index("uvicorn")


def test_make_run_collects_again_only_when_a_static_file_changed(tmp_path):
    venv, stamp = fresh_stamps(tmp_path)
    stamp.touch()
    assert "collectstatic" not in plan_with(venv, stamp, "run"), "nothing changed: no collection"
    newest = max((ROOT / "static").rglob("*.*"), key=lambda f: f.stat().st_mtime).stat().st_mtime
    os.utime(stamp, (newest - 60, newest - 60))
    assert "collectstatic" in plan_with(venv, stamp, "run"), "a static file newer than the last collection"


def test_the_static_files_make_run_watches_are_the_platforms_and_every_games():
    """A game's stylesheet lives in its folder (shelf/<slug>/static/): changing it collects again too."""
    shown = subprocess.run([MAKE, "--no-print-directory", "--eval", "show-static: ; @echo $(STATIC_SOURCES)",
                            "show-static"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    watched = {ROOT / name for name in shown.stdout.split()}
    files = {p for folder in (ROOT / "static", *(ROOT / "shelf").glob("*/static")) for p in folder.rglob("*")
             if p.is_file()}
    assert any(p.is_relative_to(ROOT / "shelf") for p in files), "the games' stylesheets were found"
    assert watched == files


def test_make_run_migrates_only_when_the_database_lacks_a_migration(tmp_path):
    venv, stamp = fresh_stamps(tmp_path)
    stamp.touch()
    migrate = next(line for line in plan_with(venv, stamp, "run").splitlines() if "manage.py migrate" in line)
    assert "migrate --check" in migrate and migrate.index("--check") < migrate.index("|| ")
    assert "migrate --noinput" in migrate.split("|| ", 1)[1]


def test_make_run_installs_the_runtime_only_and_make_test_adds_the_test_tools(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    run_plan = plan_with(venv, tmp_path / "collected", "run")
    assert "-r requirements/base.txt" in run_plan and "requirements/dev.txt" not in run_plan
    test_plan = plan_with(venv, tmp_path / "collected", "test")
    assert "-r requirements/dev.txt" in test_plan
    assert test_plan.index("requirements/dev.txt") < test_plan.index("bin/pytest -q")


def test_make_test_first_makes_sure_chromium_is_there():
    plan = make("-n", "test").stdout
    assert "command -v chromium" in plan and plan.index("command -v chromium") < plan.index("pytest")


def test_without_chromium_and_not_root_make_stops_at_once_naming_the_command(tmp_path):
    result = make("chromium", path=str(fake_bin(tmp_path, 1000)))
    assert result.returncode != 0
    assert "apt-get install -y chromium" in result.stdout
    assert not (tmp_path / "apt.log").exists()


def test_without_chromium_as_root_make_installs_debians_chromium(tmp_path):
    result = make("chromium", path=str(fake_bin(tmp_path, 0)))
    assert result.returncode == 0, result.stdout + result.stderr
    log = (tmp_path / "apt.log").read_text()
    assert "update" in log and "install -y -qq chromium" in log


def test_make_run_on_every_address_prints_the_lan_url_never_0_0_0_0():
    """``make run HOST=0.0.0.0`` prints the address the phones open, and the server knows it."""
    from companion.lan import lan_address

    printed = make("url", "HOST=0.0.0.0", "PORT=18302")
    assert printed.returncode == 0, printed.stderr
    assert f"http://{lan_address()}:18302/" in printed.stdout
    assert "0.0.0.0" not in printed.stdout
    plan = make("-n", "run", "HOST=0.0.0.0", "PORT=18302").stdout
    assert plan.index("companion.lan") < plan.index("uvicorn"), "the URL is printed before the server starts"
    serve = next(line for line in plan.splitlines() if "uvicorn" in line)
    assert "SERVE_HOST=0.0.0.0" in serve, "the settings learn the bind address (LAN address allowed, join links)"


def test_make_run_on_loopback_prints_the_loopback_url_and_how_phones_can_join():
    printed = make("url", "PORT=18303").stdout
    assert "http://127.0.0.1:18303/" in printed and "HOST=0.0.0.0" in printed
