"""A reader of gettext catalogues for the tests: the live entries of a ``.po`` file, without gettext tools."""

from __future__ import annotations

import ast
import re
from pathlib import Path

# One PO entry: comments, msgid, optional msgid_plural, then msgstr or msgstr[i] lines.
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
PLACEHOLDER = re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sd]|\{[A-Za-z_][A-Za-z0-9_]*\}")


def _text(lines: list[str]) -> str:
    return "".join(ast.literal_eval(f'"{m}"') for line in lines for m in STRING.findall(line))


def po_entries(path: Path) -> list[dict]:
    """The live entries of a .po file (obsolete ``#~`` ones skipped): flags, source files (``refs``), context,
    msgid, plural, msgstrs."""
    entries: list[dict] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        comments: list[str] = []
        entry: dict | None = None
        field = None
        for line in block.strip().splitlines():
            if line.startswith("#~"):
                continue
            if line.startswith("#"):
                comments.append(line)
                continue
            keyword = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) ", line)
            if keyword:
                field = keyword.group(1)
                starts_entry = field == "msgctxt" or (field == "msgid" and (entry is None or "msgid" in entry))
                if starts_entry:
                    flags = {f.strip() for c in comments if c.startswith("#,") for f in c[2:].split(",")}
                    refs = [r.rsplit(":", 1)[0] for c in comments if c.startswith("#:") for r in c[2:].split()]
                    entry, comments = {"flags": flags, "refs": refs, "fields": {}}, []
                    entries.append(entry)
                entry.setdefault(field, True)
                entry["fields"][field] = ""
            entry["fields"][field] += _text([line])
    return [{"flags": e["flags"], "refs": e["refs"], "context": e["fields"].get("msgctxt"), "msgid": e["fields"].get("msgid", ""),
             "plural": e["fields"].get("msgid_plural"),
             "msgstrs": [v for k, v in e["fields"].items() if k.startswith("msgstr")]} for e in entries]


def catalogues(lang: str) -> list[Path]:
    """Every catalogue of ``lang`` Django reads, as ``.po`` files: the shared one (``LOCALE_PATHS``: the words the
    platform's files use, and those built at run time) and each game's own (``locale/`` in its folder, an installed app:
    ``settings.GAME_APPS``, the contract game's included in the tests)."""
    from django.conf import settings

    from games.engines import folder

    folders = [Path(p) for p in settings.LOCALE_PATHS] + [folder(app) / "locale" for app in settings.GAME_APPS]
    paths = [f / lang / "LC_MESSAGES" / "django.po" for f in folders]
    return [p for p in paths if p.exists()]
