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
    files = [*ROOT.glob("locale/*/LC_MESSAGES/django.po"), *ROOT.glob("templates/**/*.html"), *ROOT.glob("games/**/*.py"),
             # each game's folder: its own catalogue, templates, rules at hand and engine (shelf/<slug>/)
             *ROOT.glob("shelf/*/locale/*/LC_MESSAGES/django.po"), *ROOT.glob("shelf/*/templates/**/*.html"),
             *ROOT.glob("shelf/*/rules_at_hand/*.txt"), *ROOT.glob("shelf/**/*.py")]
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


# Every letter of the Persian and Pashto alphabets (with the Arabic-code-point forms of kaf, yeh and heh, hamza
# seats and the Pashto-only letters): a player's name may use any of them, on a page of any language.
PERSIAN_AND_PASHTO = ("ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوي" "پچژکگیۀ" "ټځڅډړږښګڼېۍ" "ًٌٍَُِّْٔ" "۰۱۲۳۴۵۶۷۸۹")
STACK = re.compile(r"(?:font-family\s*:|font\s*:[^;,]*?\d+px(?:/[\d.]+)?)\s*([^;}]+)")
RULE = re.compile(r"([^{}]+){([^{}]*)}")
# The language picker names each language in itself, never a player's name: it keeps the phone's own font first
# (companion.css says why).
NO_NAMES = {".lang select"}


def font_stacks() -> list[str]:
    """Every font stack companion.css sets outside its ``@font-face`` blocks (the families, in order), but the
    language picker's."""
    css = re.sub(r"@font-face\s*{[^}]*}", "", CSS.read_text(encoding="utf-8"))
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return [m.group(1).strip() for selector, body in RULE.findall(css) if selector.strip() not in NO_NAMES
            for m in STACK.finditer(body) if "inherit" not in m.group(1)]


def test_the_face_holds_every_persian_and_pashto_letter_a_name_may_use():
    ranges = face_ranges("vazirmatn-arabic-fa-ps")
    missing = [f"U+{ord(ch):04X} {ch}" for ch in PERSIAN_AND_PASHTO if not any(lo <= ord(ch) <= hi for lo, hi in ranges)]
    assert not missing


def test_every_font_stack_of_every_language_starts_with_the_arabic_script_face():
    """A Pashto name (ملالۍ) on an English or Azerbaijani page is drawn in the Persian and Pashto face, not left to
    the phone's fonts (which may lack ۍ): every stack names a family holding that face first. Its
    ``unicode-range`` keeps Latin text in the phone's own font, and the face is fetched only when such a
    letter is shown."""
    css = CSS.read_text(encoding="utf-8")
    arabic_families = {re.search(r'font-family:\s*"([^"]+)"', b).group(1)
                       for b in re.findall(r"@font-face\s*{([^}]*)}", css) if "vazirmatn-arabic-fa-ps" in b}
    latin_only = {re.search(r'font-family:\s*"([^"]+)"', b).group(1)
                  for b in re.findall(r"@font-face\s*{([^}]*)}", css) if "vazirmatn-arabic-fa-ps" not in b}
    stacks = font_stacks()
    assert len(stacks) >= 3, stacks
    for stack in stacks:
        first = stack.split(",")[0].strip().strip('"')
        assert first in arabic_families, stack
    # the latin-ext face stays out of the lead of English and Azerbaijani stacks (no 10 KB fetch for their ə)
    english = [s for s in stacks if s.split(",")[0].strip().strip('"') in arabic_families - latin_only]
    assert english, "the English and Azerbaijani stacks lead with a family that is the Arabic-script face only"
