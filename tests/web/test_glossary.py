"""One word per game term in every language (games/text/glossary.py): catalogues, rules at hand, walkthroughs.

A reader cannot tell which tile is meant when the colour buttons say شین for blue and the prompts say شین
for green. These tests read every string a player may see in Persian, Azerbaijani and Pashto:

* **two words for one term**: a translated string whose English names a term must write that term's
  glossary word (one of its forms);
* **one word for two terms**: a colour's glossary word may appear only where the English names that
  colour (so a Pashto شین never stands for blue), and no two terms of a game share a word;
* **drift**: a spelling the glossary lists under ``avoid`` appears nowhere in that language.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from games.read.rulebook import rules_file
from games.text.glossary import COLOURS, LANGUAGES, Term, glossary, terms_of
from tests.registry import GAMES as REGISTERED
from tests.registry import SHIPPED, game_class
from tests.web.po import catalogues, po_entries

ROOT = Path(__file__).resolve().parents[2]
#: Catalogue contexts that say what kind of thing a one-word message is ("Sorry!" in the context "card" is the card).
THING_CONTEXTS = {"card", "dynasty"}
GAMES = tuple(REGISTERED)
SHIPPED_GAMES = tuple(SHIPPED)
COLOUR_KEYS = set(COLOURS)
# A glossary word standing alone: not inside a longer word of its script (\w covers Arabic-script letters).
ALONE = r"(?<![\w\u200c\u200d]){}(?![\w\u200c\u200d])"


def _homes(slug: str) -> tuple[str, ...]:
    """Path parts that mark a file as ``slug``'s: ``/<slug>/``, ``/<slug>.``, and its engine package's folder."""
    package = Path(importlib.import_module(game_class(slug).__module__).__file__).parent
    return f"/{slug}/", f"/{slug}.", f"{package.relative_to(ROOT).as_posix()}/"


def catalogue(lang: str) -> list[tuple[str, str, set[str]]]:
    """``(English, translation, games)`` for every entry of ``lang`` in every catalogue (the shared one and each
    game's own, ``tests.web.po.catalogues``), each plural form apart.

    ``games`` are the games whose files use the string: the game whose catalogue holds it (``shelf/<slug>/locale/``),
    or those its ``#:`` lines name (``shelf/<slug>/``); a string of shared code (the lobby, the walkthrough)
    belongs to every game.
    """
    rows = []
    homes = {slug: _homes(slug) for slug in GAMES}
    folders = {slug: Path(importlib.import_module(game_class(slug).__module__).__file__).parent for slug in GAMES}
    for path in catalogues(lang):
        owner = {slug for slug, folder in folders.items() if path.is_relative_to(folder)}
        for entry in po_entries(path):
            if not entry["msgid"]:
                continue
            english = english_words(entry["msgid"] + (" " + entry["plural"] if entry["plural"] else ""))
            if entry["context"] in THING_CONTEXTS:  # "Sorry!" as a card, "Lion" as a dynasty: the context names the thing
                english += " " + entry["context"]
            games = owner or {slug for slug in GAMES if any(home in "/" + ref for ref in entry["refs"]
                                                            for home in homes[slug])}
            rows.extend((english, text, games or set(GAMES)) for text in entry["msgstrs"])
    return rows


def rules_pairs(slug: str, lang: str) -> list[tuple[str, str]]:
    """The rules-at-hand text of ``slug`` in English and ``lang``, paired line by line within each section
    (``== key:`` headers); a section whose line counts differ is paired whole."""
    def sections(path: Path) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        key = ""
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                continue
            header = re.match(r"== ([\w-]+):", line)
            if header:
                key = header.group(1)
            if line.strip():
                found.setdefault(key, []).append(line)
        return found
    english, other = sections(rules_file(slug, "en")), sections(rules_file(slug, lang))
    pairs = []
    for key, lines in english.items():
        theirs = other.get(key, [])
        if len(theirs) == len(lines):
            pairs.extend(zip(lines, theirs, strict=True))
        else:
            pairs.append(("\n".join(lines), "\n".join(theirs)))
    return pairs


def english_words(text: str) -> str:
    """English source text without its placeholders (``{pawn}``, ``%(name)s`` are filled in by the app)."""
    return re.sub(r"\{[A-Za-z_]\w*\}|%\([A-Za-z_]\w*\)[sd]", " ", text)


def uses(term: Term, lang: str, text: str) -> bool:
    """Whether ``text`` writes one of the term's forms (capitalised at a sentence start too; ``…`` in a form
    lets other words stand between its parts; Unicode isolates around a name do not count)."""
    text = re.sub("[\u2066-\u2069]", "", text)
    for form in term.words[lang]:
        for written in (form, form[:1].upper() + form[1:]):
            if re.search(".*?".join(re.escape(part) for part in written.split("…")), text, re.S):
                return True
    return False


def stray_colours(terms: dict[str, Term], lang: str, english: str, text: str) -> list[str]:
    """Colour words of ``text`` whose colour the English does not name (one word standing for two terms)."""
    found = []
    for key, term in terms.items():
        word = term.word(lang)
        if term.reverse and re.search(ALONE.format(f"(?:{re.escape(word)}|{re.escape(word[:1].upper() + word[1:])})"), text) \
                and not re.search(rf"\b{key}\b", english, re.I):
            found.append(f"{term.word(lang)} ({key})")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", GAMES)
def test_the_glossary_gives_every_term_its_own_word_within_a_game(slug, lang):
    words: dict[str, str] = {}
    for key, term in terms_of(slug).items():
        word = term.word(lang)
        assert word not in words, f"{slug} {lang}: {word!r} is the word of both {words[word]!r} and {key!r}"
        words[word] = key
        for other_key, other in terms_of(slug).items():
            if other_key != key:
                assert not set(term.words[lang]) & set(other.avoid.get(lang, ())), (slug, key, other_key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_string_names_each_term_with_its_glossary_word(lang, contract_game_registered):
    problems = []
    for english, text, games in catalogue(lang):
        for scope, terms in glossary().items():
            if scope != "colours" and scope not in games:
                continue
            for key, term in terms.items():
                if re.search(term.english, english, re.I) and not uses(term, lang, text):
                    problems.append(f"{scope}/{key}: {english!r} -> {text!r} lacks {term.word(lang)!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalogue_string_uses_a_colour_word_for_another_colour(lang):
    problems = []
    for english, text, _games in catalogue(lang):
        stray = stray_colours(glossary()["colours"], lang, english, text)
        if stray:
            problems.append(f"{english!r} -> {text!r}: {', '.join(stray)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", GAMES)
def test_the_rules_at_hand_follow_the_glossary(slug, lang):
    problems = []
    terms = terms_of(slug)
    for english, text in rules_pairs(slug, lang):
        for key, term in terms.items():
            if re.search(term.english, english, re.I) and not uses(term, lang, text):
                problems.append(f"{key}: {english[:90]!r} -> {text[:90]!r} lacks {term.word(lang)!r}")
        stray = stray_colours(glossary()["colours"], lang, english, text)
        if stray:
            problems.append(f"{english[:90]!r} -> {text[:90]!r}: {', '.join(stray)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_drifted_spelling_of_a_term_is_left_in_the_language(lang, contract_game_registered):
    files = [*catalogues(lang), *(rules_file(slug, lang) for slug in GAMES)]
    problems = []
    for path in files:
        text = ("\n".join(t for e in po_entries(path) if e["msgid"] for t in e["msgstrs"]) if path.suffix == ".po"
                else path.read_text(encoding="utf-8"))
        for scope, terms in glossary().items():
            for key, term in terms.items():
                for spelling in term.avoid.get(lang, ()):
                    if spelling in text:
                        problems.append(f"{path.relative_to(ROOT)}: {spelling!r} ({scope}/{key}: {term.word(lang)!r})")
    assert not problems, "\n".join(problems)


def test_a_catalogue_that_writes_two_words_for_one_term_fails_the_check():
    """The check itself: the Pashto colour buttons as they were (blue = شین, green = زرغون) are caught."""
    colours = glossary()["colours"]
    assert not uses(colours["blue"], "ps", "شین")
    assert stray_colours(colours, "ps", "blue", "شین") == ["شین (green)"]
    assert not uses(colours["green"], "ps", "زرغون")
    assert stray_colours(colours, "ps", "green", "شین") == []


@pytest.mark.parametrize("slug", GAMES)
def test_a_mixed_persian_and_pashto_table_never_reads_one_word_for_two_things(slug):
    """Persian and Pashto share a script: a word one phone uses for a term must not name another term on the other
    phone (the Persian seed's بازار is Catan Junior's supply, so Pashto's marketplace may not be بازار)."""
    terms = terms_of(slug)
    clashes = [f"{key}: fa {term.word('fa')!r} is ps {other_key}" for key, term in terms.items()
               for other_key, other in terms.items() if other_key != key and term.word("fa") in other.words["ps"]]
    assert not clashes, clashes


@pytest.mark.parametrize("slug", SHIPPED_GAMES)
def test_the_glossary_names_each_game_in_every_language(slug):
    terms = terms_of(slug)
    assert "title" in terms and all(terms["title"].word(lang) for lang in LANGUAGES)
    title = game_class(slug).title
    named = [key for key, term in terms.items() if re.search(term.english, title, re.I)]
    assert "title" in named, f"{slug}: the title term finds {title!r}"


def test_the_glossary_names_every_shipped_edition():
    from games.text.words import EDITION_NAMES

    for name in EDITION_NAMES:
        home = [s for s in SHIPPED_GAMES if any(re.search(t.english, name, re.I) for k, t in terms_of(s).items()
                                                 if k not in COLOUR_KEYS)]
        assert home, f"the edition name {name!r} is a term of its game"


def test_catan_junior_names_the_marketplace_and_the_supply_apart_in_every_language():
    terms = terms_of("catan_junior")
    for lang in LANGUAGES:
        assert terms["marketplace"].word(lang) != terms["supply"].word(lang), lang
    assert terms["supply"].word("fa") == terms["supply"].word("ps") == "بازار", "the seed's word on both phones"
