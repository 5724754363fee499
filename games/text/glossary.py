"""One word per game term and language: the glossary every catalogue string and rules-at-hand text follows.

A term is a thing at the table (a colour, a piece, a tile, a resource, a token, a game's title). For each
of Persian (``fa``), Azerbaijani (``az``) and Pashto (``ps``) it has one word, taken from the seed rule texts
in ``shared/seeds/`` (``<game>.<language>.txt``: Persian for Yellow & Yangtze, Amun-Re and Catan Junior,
Azerbaijani and Pashto for Sorry!) where they name the thing, else the closest natural word of the language.

Shapes:

* :func:`glossary` maps a scope (``"colours"`` for every game, or a game's slug) to its terms by key; the
  colours are declared here, each game's terms in its adapter (``WebAdapter.glossary``).
* :class:`Term` (``games/engines/adapter.py``) holds ``english``: a regular expression (case-insensitive) that finds the term in an
  English source string; ``words``: per language, the glossary word first, then the inflected forms
  the language writes for it (a Pashto adjective's ``سره``/``سرو`` beside ``سور``; ``…`` between two
  parts lets other words stand between them, as in ``د کوکو د ټایلونو``); ``avoid``: per
  language, spellings that drifted in and must not come back (a reader cannot tell which thing is
  meant); ``reverse``: whether a form of the word may appear only where the English names the term
  (colours: a Pashto ``شین`` in a string about blue is the word for green).

A game's title is one name across a mixed table: the seed's name where a seed names the game (رودخانه زرد و یانگتسه,
کاتان جونیور, آمون رع), written alike in the other languages (Sarı çay və Yanszı and ژېړ سیند او یانګسي name the same
rivers); "Sorry!" keeps the box's printed name in every language, while its card is the seeds' own word
("Bağışlayın!", "بخښنه!": the catalogue's "Sorry!" in the context "card"). Edition names, dynasties and Catan Junior's
market words are terms too.

``tests/web/test_glossary.py`` checks every catalogue, rules-at-hand text and walkthrough string against it.
"""

from __future__ import annotations

from games.engines import REGISTRY, adapters, get_adapter
from games.engines.adapter import Term
from games.engines.adapter import term as _t

__all__ = ["COLOURS", "LANGUAGES", "Term", "glossary", "terms_of"]

LANGUAGES = ("fa", "az", "ps")


# A colour word, not the name of the Yellow River game or a quoted machine value ("yellow" as a river key).
def _colour(name: str) -> str:
    return rf'(?<!")\b{name}\b(?!")(?! & Yangtze)(?! river)'


#: Colours of seats, pieces and tiles, shared by every game. Pashto adjectives inflect (سور, سره, سرو).
COLOURS: dict[str, Term] = {
    "red": _t(_colour("red"), "قرمز", "qırmızı", ("سور", "سره", "سرو"), reverse=True,
              source="Yellow & Yangtze fa seed قرمز; Sorry! az seed Qırmızı; Sorry! ps seed سور"),
    "blue": _t(_colour("blue"), "آبی", "mavi", ("نیلي", "نیلو"), reverse=True,
               avoid={"ps": ("نیلی",)},
               source="Yellow & Yangtze fa seed آبی; Sorry! az seed Mavi; Sorry! ps seed نیلي (شنه او نیلي)"),
    "yellow": _t(_colour("yellow"), "زرد", "sarı", ("ژېړ", "ژېړه", "ژېړو"), reverse=True,
                 avoid={"ps": ("ژیړ",)},
                 source="Yellow & Yangtze fa seed زرد; Sorry! az seed Sarı; ژېړ (the catalogue's spelling)"),
    "green": _t(_colour("green"), "سبز", "yaşıl", ("شین", "شنه", "شنو"), reverse=True,
                avoid={"ps": ("زرغون",)},
                source="Yellow & Yangtze fa seed سبز; Sorry! az seed Yaşıl; Sorry! ps seed شنه (شین)"),
    "black": _t(_colour("black"), "مشکی", "qara", ("تور", "توره", "تورو"), reverse=True,
                avoid={"fa": ("سیاه",)}, source="Yellow & Yangtze fa seed مشکی"),
    "purple": _t(_colour("purple"), "بنفش", "bənövşəyi", "بنفش", reverse=True,
                 source="Catan Junior fa seed بنفش"),
    "white": _t(_colour("white"), "سفید", "ağ", ("سپین", "سپینه", "سپینو"), reverse=True),
    "orange": _t(_colour("orange"), "نارنجی", "narıncı", "نارنجي", reverse=True),
}

def glossary() -> dict[str, dict[str, Term]]:
    """Every scope's terms: ``"colours"`` for all games, then each game's own (its adapter's ``glossary``) by slug."""
    return {"colours": COLOURS, **{slug: adapter.glossary for slug, adapter in adapters().items()}}


def terms_of(slug: str) -> dict[str, Term]:
    """The terms a game's texts must follow: the shared colours and the game's own (``{}`` for none)."""
    return {**COLOURS, **(get_adapter(slug).glossary if slug in REGISTRY else {})}
