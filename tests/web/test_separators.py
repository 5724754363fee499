"""Separators that cannot be misread as digits, in every language and every game's status lines.

The Persian and Pashto zero is a dot (۰): a middle dot or a full stop beside a Persian digit reads as one more
digit ("· ۱" reads "۰۱"), and a bar reads as a one in any script. Every status line joins its parts with one
separator (``games.text.words.PART_SEPARATOR``, the ``{% sep %}`` tag); these tests play each shipped game through the
write path and read every phone's status lines, in each language, at every new step.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from games.text.words import PART_SEPARATOR
from games.write.pregame import create_table
from tests.conftest import phone_for, play_through_write_path
from tests.registry import SHIPPED
from tests.web.po import catalogues, po_entries

LANGUAGES = ("en", "fa", "ps", "az")
DIGIT = "0-9۰-۹٠-٩"
#: Glyphs that read as a digit beside one: in every script a middle dot, bullet or bar; in Persian and Pashto also a
#: full stop (their zero is a dot). The Persian decimal separator ٫ is how those pages write "5.3": it stays.
DIGIT_LIKE = {"any": "·•∙⋅|", "fa": "·•∙⋅|.", "ps": "·•∙⋅|."}
#: The status lines of a phone: the status row, the prompt, each game's turn / round line and its counts.
STATUS = re.compile(r'<(p|div|span|figcaption|li)[^>]*class="(?:status|prompt[^"]*|yy-turn|amun-re-status|muted yy-supply|'
                    r'yy-deciding[^"]*|start-again|pregame start-again)"[^>]*>(.*?)</\1>', re.S)


def misread(text: str, lang: str) -> list[str]:
    """The spots of ``text`` where a digit-like glyph stands beside a digit (spaces between count as beside)."""
    glyphs = re.escape(DIGIT_LIKE.get(lang, DIGIT_LIKE["any"]))
    near = re.compile(rf"[{glyphs}][\s\u2066-\u2069\u200f\u200e]*[{DIGIT}]|[{DIGIT}][\s\u2066-\u2069\u200f\u200e]*[{glyphs}]")
    return [text[max(0, m.start() - 12):m.end() + 12] for m in near.finditer(text)]


def status_text(html: str) -> list[str]:
    """The visible text of each status line in ``html``: tags dropped, entities read."""
    return [unescape(re.sub(r"<[^>]+>", "", inner)) for _tag, inner in STATUS.findall(html)]


def test_the_separator_is_a_dash_never_a_dot_or_a_bar():
    assert PART_SEPARATOR.strip() == "—"
    assert not set(PART_SEPARATOR) & set("".join(DIGIT_LIKE.values()))


@pytest.mark.parametrize("lang", ("fa", "az", "ps"))
def test_no_catalogue_entry_joins_parts_with_a_middle_dot(lang):
    dotted = [e["msgid"] for path in catalogues(lang) for e in po_entries(path)
              if "·" in e["msgid"] or any("·" in s for s in e["msgstrs"])]
    assert not dotted, dotted


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SHIPPED)
def test_every_status_line_of_every_game_keeps_digits_apart_from_dots_in_every_language(slug):
    table = create_table(slug, {}, [{"name": n} for n in ("Aysel", "Bob", "Gul")], seed=3)
    phones = [phone_for(table, i) for i in range(3)]
    read: dict[str, int] = dict.fromkeys(LANGUAGES, 0)
    bad: list[str] = []

    def read_every_phone(_seat, _legal):
        for lang in LANGUAGES:
            for i, client in enumerate(phones):
                client.cookies["django_language"] = lang
                html = client.get(f"/t/{table.code}/").content.decode()
                for line in status_text(html):
                    read[lang] += 1
                    bad.extend(f"{slug} {lang} seat {i}: «{spot}»" for spot in misread(line, lang))

    read_every_phone(None, None)
    play_through_write_path(table, seed=3, stop=60, on_new_step=read_every_phone)
    assert all(read.values()), f"status lines were found in every language: {read}"
    assert not bad, bad[:10]


def test_the_check_finds_a_middle_dot_beside_a_persian_digit():
    assert misread("نوبت Aysel · ۱ اقدام از ۲ باقی مانده", "fa")
    assert not misread(f"نوبت Aysel{PART_SEPARATOR}۱ اقدام از ۲ باقی مانده", "fa")
    assert misread("Kingdom 1 of 3 · auction 2 of 3", "en")


def test_persian_digits_never_touch_a_full_stop_a_point_in_a_number_becomes_the_persian_decimal_mark():
    from games.web.digits import localize_html, localize_text

    assert localize_text("Rules 5.3: 1 of 2.", "persian") == "Rules ۵٫۳: ۱ of ۲"
    assert localize_html("<p>اقدام ۱ از ۲. در انتظار</p><code>1.5</code>", "persian") == "<p>اقدام ۱ از ۲ در انتظار</p><code>1.5</code>"
    assert localize_text("Rules 5.3: 1 of 2.", "latin") == "Rules 5.3: 1 of 2."
    assert localize_text("192.168.1.5", "persian") == "۱۹۲.۱۶۸.۱.۵", "an address keeps its points"
