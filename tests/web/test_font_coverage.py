"""The Persian and Pashto face covers every Arabic-script letter the app writes (static/fonts/README.md).

The face is cut to the letters Persian and Pashto use; its ``unicode-range`` in companion.css says which.
A letter outside it would be drawn in the phone's own font, in the middle of a Vazirmatn word.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSS = ROOT / "static" / "css" / "companion.css"
ARABIC_SCRIPT = re.compile(r"[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]")


def face_ranges(font: str) -> list[tuple[int, int]]:
    css = CSS.read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"@font-face\s*{([^}]*)}", css) if font in b)
    ranges = block.split("unicode-range", 1)[1]
    return [(int(a, 16), int(b or a, 16)) for a, b in re.findall(r"U\+([0-9A-Fa-f]+)(?:-([0-9A-Fa-f]+))?", ranges)]


def written_letters() -> dict[str, str]:
    """Every Arabic-script character of the catalogues, templates (rules pages included) and engines: where first seen."""
    found: dict[str, str] = {}
    files = [*ROOT.glob("locale/*/LC_MESSAGES/django.po"), *ROOT.glob("templates/**/*.html"), *ROOT.glob("games/**/*.py")]
    for path in files:
        for ch in ARABIC_SCRIPT.findall(path.read_text(encoding="utf-8")):
            found.setdefault(ch, str(path.relative_to(ROOT)))
    return found


def test_every_arabic_script_letter_the_app_writes_is_in_the_persian_and_pashto_face():
    ranges = face_ranges("vazirmatn-arabic-fa-ps")
    letters = written_letters()
    assert len(letters) > 60, "the catalogues were read"
    missing = {f"U+{ord(ch):04X} {ch}": where for ch, where in letters.items()
               if not any(lo <= ord(ch) <= hi for lo, hi in ranges)}
    assert not missing, f"letters outside the face (cut it again, static/fonts/README.md): {missing}"


def test_the_face_holds_every_pashto_letter():
    ranges = face_ranges("vazirmatn-arabic-fa-ps")
    for ch in "ټځڅډړږښګڼۍېپچژکگی":
        assert any(lo <= ord(ch) <= hi for lo, hi in ranges), ch
