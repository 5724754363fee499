"""The ``acyclic`` import contract (tests/import_contracts.py) finds the cycles import-linter's own contracts miss.

``make test`` runs the contracts of ``pyproject.toml`` (``lint-imports``); these
tests show that the custom one can fail. Each writes a small package and a
configuration naming it, and runs ``lint-imports`` on them as ``make test`` does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

CONFIG = """\
[tool.importlinter]
root_packages = ["ringpkg"]
contract_types = ["acyclic: tests.import_contracts.AcyclicContract"]

[[tool.importlinter.contracts]]
name = "No import cycle in ringpkg"
type = "acyclic"
packages = ["ringpkg"]
"""


def _lint(tmp_path: Path, files: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Write ``files`` under ``tmp_path`` and run ``lint-imports`` there with :data:`CONFIG`."""
    for name, text in files.items():
        path = tmp_path.joinpath(*name.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (tmp_path / "contracts.toml").write_text(CONFIG)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}", "COLUMNS": "200"}
    return subprocess.run([str(LINT_IMPORTS), "--config", "contracts.toml", "--no-cache"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)


def test_a_package_module_and_its_child_importing_each_other_break_the_contract(tmp_path):
    out = _lint(tmp_path, {
        "ringpkg/__init__.py": "from ringpkg.view import build\n",
        "ringpkg/view.py": """
            def build(game):
                from ringpkg import build as again
                return again
        """,
        "ringpkg/board.py": "X = 1\n",
    })
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Import cycle in ringpkg: ringpkg, ringpkg.view" in out.stdout
    assert "ringpkg -> ringpkg.view (l.1)" in out.stdout
    assert "ringpkg.view -> ringpkg (l.3)" in out.stdout
    assert "board" not in out.stdout.split("Broken contracts")[1]


def test_a_ring_of_three_is_one_cycle_and_modules_outside_it_are_not_named(tmp_path):
    out = _lint(tmp_path, {
        "ringpkg/__init__.py": "",
        "ringpkg/a.py": "import ringpkg.b\n",
        "ringpkg/b.py": "import ringpkg.c\n",
        "ringpkg/c.py": "import ringpkg.a\nimport ringpkg.d\n",
        "ringpkg/d.py": "",
        "ringpkg/e.py": "import ringpkg.a\n",
    })
    assert out.returncode == 1, out.stdout + out.stderr
    broken = out.stdout.split("Broken contracts")[1]
    assert broken.count("Import cycle in ringpkg") == 1
    assert "Import cycle in ringpkg: ringpkg.a, ringpkg.b, ringpkg.c\n" in broken
    assert "ringpkg.d" not in broken and "ringpkg.e" not in broken


def test_a_package_without_a_cycle_keeps_the_contract(tmp_path):
    out = _lint(tmp_path, {
        "ringpkg/__init__.py": "from ringpkg.view import build\n",
        "ringpkg/view.py": "from ringpkg.board import X\n\n\ndef build():\n    return X\n",
        "ringpkg/board.py": "X = 1\n",
    })
    assert out.returncode == 0, out.stdout + out.stderr
    assert "No import cycle in ringpkg KEPT" in out.stdout
