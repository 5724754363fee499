"""The README stays short and every page of ``docs/`` can be found from it.

Only markdown links (``[text](target)``) are checked: module paths in the pages are written as code, not
links, so these tests do not depend on where the modules sit.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text a reader follows links in: fenced blocks and code spans hold examples, not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(page: Path) -> list[str]:
    """The targets of the page's relative markdown links (web addresses aside)."""
    return [target for target in LINK.findall(prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces as hyphens,
    a repeated heading numbered -1, -2..."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")
        found.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return found


def test_the_readme_is_under_150_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < 150, f"README.md has {lines} lines: move the detail into a page of docs/"


def test_there_are_docs_pages_and_each_starts_with_a_title_and_a_one_line_summary():
    assert DOCS, "docs/ holds no page"
    for page in DOCS:
        head = page.read_text(encoding="utf-8").split("\n\n", 2)
        assert head[0].startswith("# ") and "\n" not in head[0], f"{page.name}: the first line is its title"
        assert len(head) > 1 and head[1].strip() and not head[1].startswith("#") and "\n" not in head[1].strip(), \
            f"{page.name}: a one-line summary follows the title"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_of_a_page_resolves_to_a_file_and_its_anchor_to_a_heading(page):
    broken = []
    for target in links(page):
        path, _, anchor = unquote(target).partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            broken.append(f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_every_docs_page_is_linked_from_the_readme():
    linked = {(ROOT / unquote(target).partition("#")[0]).resolve() for target in links(README)}
    unlinked = [page.name for page in DOCS if page.resolve() not in linked]
    assert not unlinked, f"docs pages a reader cannot find from README.md: {unlinked}"


def test_the_anchors_follow_githubs_rules():
    """The checker itself: the anchors are the ones GitHub renders for these headings."""
    page = ROOT / "docs" / "playing.md"
    assert {"corrections-the-board-says-otherwise", "who-starts", "set-up-walkthrough"} <= anchors(page)


def test_adding_a_game_lists_every_part_the_contract_game_has():
    """docs/adding-a-game.md's table names each file of the contract game (tests/contract_game/, a whole game
    written the documented way), with ``<slug>`` and ``<lang>`` for its slug and languages; the parts it does
    not have are marked optional there."""
    text = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in text.splitlines() if line.startswith("|"))
    named = set(re.findall(r"`([^`]+)`", table))
    home = ROOT / "tests" / "contract_game"
    missing = []
    for path in sorted(home.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts or path.suffix == ".mo":
            continue
        rel = path.relative_to(home).as_posix()
        generic = re.sub(r"\b(en|fa|az|ps)\b", "<lang>", rel.replace("contract/", "<slug>/"))
        generic = re.sub(r"_\d+p_seed\d+", "_<players>p_seed<seed>", generic)
        if generic not in named and path.name not in named:
            missing.append(rel)
    assert not missing, f"the contract game has parts docs/adding-a-game.md does not name: {missing}"
    for row in table.splitlines()[2:]:
        part = row.split("|")[1]
        if "optional" not in part and "where the game has" not in row:
            cells = re.findall(r"`([^`]+)`", row.split("|")[2])
            first = re.sub(r"<(lang|players|seed)>", "*", cells[0].replace("<slug>", "contract"))
            assert list(home.glob(first)), f"docs/adding-a-game.md requires {cells[0]}, the contract game lacks it"
