"""One word per game term and language: the glossary every catalogue string and rules-at-hand text follows.

A term is a thing at the table (a colour, a piece, a tile, a resource, a token, a game's title). For each
of Persian (``fa``), Azerbaijani (``az``) and Pashto (``ps``) it has one word, taken from the seed rule texts
in ``shared/seeds/`` where they name the thing (``yellow_yangtze.fa.txt``, ``amun_re.fa.txt``,
``catan_junior.fa.txt``, ``sorry.az.txt``, ``sorry.ps.txt``), else the closest natural word of the language.

Shapes:

* :data:`GLOSSARY` maps a scope (``"colours"`` for every game, or a game's slug) to its terms by key.
* :class:`Term` holds ``english``: a regular expression (case-insensitive) that finds the term in an
  English source string; ``words``: per language, the glossary word first, then the inflected forms
  the language writes for it (a Pashto adjective's ``سره``/``سرو`` beside ``سور``; ``…`` between two
  parts lets other words stand between them, as in ``د کوکو د ټایلونو``); ``avoid``: per
  language, spellings that drifted in and must not come back (a reader cannot tell which thing is
  meant); ``reverse``: whether a form of the word may appear only where the English names the term
  (colours: a Pashto ``شین`` in a string about blue is the word for green).

The game titles keep the box's printed name where no seed names the game in that language ("Sorry!" in
every language: the seeds translate it word for word, "Bağışlayın!", "بخښنه!", which no box prints).

``tests/web/test_glossary.py`` checks every catalogue, rules-at-hand text and walkthrough string against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

LANGUAGES = ("fa", "az", "ps")


@dataclass(frozen=True)
class Term:
    """One game term: how English writes it (``english``, a regex) and the word each language uses for it.

    ``words[lang]`` is a tuple: the glossary word, then other forms of the same word (inflections,
    plural stems) accepted in running text. ``avoid[lang]`` lists drifted spellings that must not
    appear anywhere in that language's texts. ``reverse`` makes the first form of ``words[lang]`` belong
    to this term alone within its scope (checked in both directions).
    """

    english: str
    words: Mapping[str, tuple[str, ...]]
    avoid: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    reverse: bool = False
    source: str = ""

    def word(self, lang: str) -> str:
        """The glossary word of this term in ``lang`` (a key of :data:`LANGUAGES`)."""
        return self.words[lang][0]


def _t(english: str, fa: tuple[str, ...] | str, az: tuple[str, ...] | str, ps: tuple[str, ...] | str,
       *, avoid: Mapping[str, tuple[str, ...]] | None = None, reverse: bool = False, source: str = "") -> Term:
    def forms(w: tuple[str, ...] | str) -> tuple[str, ...]:
        return (w,) if isinstance(w, str) else w
    return Term(english, {"fa": forms(fa), "az": forms(az), "ps": forms(ps)}, avoid or {}, reverse, source)


# A colour word, not the name of the Yellow River game or a quoted machine value ("yellow" as a river key).
def _colour(name: str) -> str:
    return rf'(?<!")\b{name}\b(?!")(?! & Yangtze)(?! river)'


#: Colours of seats, pieces and tiles, shared by every game. Pashto adjectives inflect (سور, سره, سرو).
COLOURS: dict[str, Term] = {
    "red": _t(_colour("red"), "قرمز", "qırmızı", ("سور", "سره", "سرو"), reverse=True,
              source="yellow_yangtze.fa.txt قرمز; sorry.az.txt Qırmızı; sorry.ps.txt سور"),
    "blue": _t(_colour("blue"), "آبی", "mavi", ("نیلي", "نیلو"), reverse=True,
               avoid={"ps": ("نیلی",)},
               source="yellow_yangtze.fa.txt آبی; sorry.az.txt Mavi; sorry.ps.txt نیلي (شنه او نیلي)"),
    "yellow": _t(_colour("yellow"), "زرد", "sarı", ("ژېړ", "ژېړه", "ژېړو"), reverse=True,
                 avoid={"ps": ("ژیړ",)},
                 source="yellow_yangtze.fa.txt زرد; sorry.az.txt Sarı; ژېړ (the catalogue's spelling)"),
    "green": _t(_colour("green"), "سبز", "yaşıl", ("شین", "شنه", "شنو"), reverse=True,
                avoid={"ps": ("زرغون",)},
                source="yellow_yangtze.fa.txt سبز; sorry.az.txt Yaşıl; sorry.ps.txt شنه (شین)"),
    "black": _t(_colour("black"), "مشکی", "qara", ("تور", "توره", "تورو"), reverse=True,
                avoid={"fa": ("سیاه",)}, source="yellow_yangtze.fa.txt مشکی"),
    "purple": _t(_colour("purple"), "بنفش", "bənövşəyi", "بنفش", reverse=True,
                 source="catan_junior.fa.txt بنفش"),
    "white": _t(_colour("white"), "سفید", "ağ", ("سپین", "سپینه", "سپینو"), reverse=True),
    "orange": _t(_colour("orange"), "نارنجی", "narıncı", "نارنجي", reverse=True),
}

SORRY: dict[str, Term] = {
    "title": _t(r"^Sorry!$", "Sorry!", "Sorry!", "Sorry!",
                avoid={"az": ("Üzr istəyirik",)},
                source="the printed name; sorry.az.txt and sorry.ps.txt translate it word for word"),
    "Sorry! card": _t(r"\bSorry! card\b|\bby Sorry!", ("کارت Sorry!", "Sorry!"), ("Sorry! kart", "Sorry!"),
                      ("د Sorry! کارت", "Sorry!"),
                      avoid={"fa": ("سوری",), "az": ("Bağışlayın",), "ps": ("بخښن",)},
                      source="the word printed on the card; the seeds translate it word for word"),
    "pawn": _t(r"\bpawns?\b", "مهره", "piyon", ("پیاده", "پیادې", "پیادو"),
               avoid={"ps": ("پیاز", "پیاله")}, source="sorry.az.txt piyon; sorry.ps.txt پیاده"),
    "safety zone": _t(r"\bsafety zones?\b", ("منطقهٔ امن", "منطقه"), ("Təhlükəsizlik Zona", "zona"),
                      ("د خوندیتوب زون", "زون"), source="sorry.az.txt Təhlükəsizlik Zonası; sorry.ps.txt د خوندیتوب زون"),
}

YELLOW_YANGTZE: dict[str, Term] = {
    "title": _t(r"Yellow & Yangtze", "رودخانه زرد و یانگتسه", "Yellow & Yangtze", "Yellow & Yangtze",
                avoid={"fa": ("یلو و یانگتسه", "یانگ‌تسه", "یانگ تسه")},
                source="yellow_yangtze.fa.txt «آموزش بازی رودخانه زرد و یانگتسه»"),
    "tile": _t(r"(?<!Coco )\btiles?\b", "تایل", "kaşı", "ټایل", source="yellow_yangtze.fa.txt تایل"),
    "leader": _t(r"\bleaders?\b", "رهبر", "lider", ("مشر", "مشران", "مشرانو"), source="yellow_yangtze.fa.txt رهبر"),
    "pagoda": _t(r"\bpagodas?\b", "پاگودا", "paqoda", "پاګوډا", source="yellow_yangtze.fa.txt پاگودا"),
    "unification token": _t(r"\bunification token\b", "مهرهٔ یکپارچگی", "birləşmə nişanı", "د یووالي نښه",
                            avoid={"fa": ("نشان اتحاد",)},
                            source="yellow_yangtze.fa.txt «مهره یکپارچگی»"),
    "score cubes": _t(r"\bscore (?:markers|cubes)\b", "مکعب‌های امتیاز", "xal kubikləri", "د نمرو مکعبونه",
                      avoid={"fa": ("نشانگرهای امتیاز",)},
                      source="yellow_yangtze.fa.txt «مکعبها را با توجه به رنگشان»"),
}

AMUN_RE: dict[str, Term] = {
    "title": _t(r"^Amun-Re: The Card Game$", "آمون رع: بازی کارتی", "Amun-Re: kart oyunu",
                "Amun-Re: د کارتونو لوبه", source="amun_re.fa.txt آمون رع; no seed names it in az, ps"),
    "temple marker": _t(r"\b(?:offering token|temple marker)\b", "نشان معبد آمون", "məbəd nişanı",
                        "د معبد نښه", avoid={"fa": ("نشان پیشکش",)},
                        source="amun_re.fa.txt «نشان معبد آمون را کنار صفحهی امتیازشمار»"),
    "player aid": _t(r"\bplayer aids?\b", "کارت راهنما", "oyunçu kartı", ("د لوبغاړي لارښود", "د لوبغاړي…لارښود"),
                     avoid={"fa": ("راهنمای بازیکن", "راهنمای بازی"), "az": ("oyunçu yaddaşı",)},
                     source="amun_re.fa.txt «به هر بازیکن یک کارت راهنما بدهید»"),
    "Ankh token": _t(r"\bAnkh token\b", "نشان آنخ", "Ankh nişan", ("د انخ نښ", "د انخ د نښ"),
                     source="amun_re.fa.txt «نشانگر آنخ», «نشان آنخ»"),
    "marker": _t(r"(?<!temple )(?<!score )\bmarkers?\b", "مهره", "marker", ("نښه", "نښې"),
                 avoid={"fa": ("نشانگر",)}, source="amun_re.fa.txt «مهرههای امتیازشمار رنگ خود را روی عدد صفر»"),
    "gold card": _t(r"\bgold cards?\b", ("کارت سکه", "کارت‌های سکه", "کارت…سکه"), ("qızıl kart",),
                    ("د سرو زرو کارت", "د سرو زرو…کارت"), source="amun_re.fa.txt «کارتهای سکه»"),
    "honour": _t(r"\bhonou?r\b", ("نشان افتخار", "نشان…افتخار"), "şərəf", "ویاړ", source="amun_re.fa.txt «نشان افتخار»"),
    "pyramid": _t(r"\bpyramids?\b", "هرم", "piramida", "هرم", source="amun_re.fa.txt هرم"),
    "province": _t(r"\bprovinces?\b", "ولایت", "əyalət", "ولایت", source="amun_re.fa.txt ولایت"),
}

CATAN_JUNIOR: dict[str, Term] = {
    "title": _t(r"^Catan Junior$", "کاتان جونیور", "Catan Junior", "Catan Junior",
                source="catan_junior.fa.txt «بازی کاتان جونیور»; no seed names it in az, ps"),
    "Ghost Captain": _t(r"\bGhost Captain\b", "کاپیتان زاغول", "Kabus Kapitan", ("پېری کپتان", "پېري کپتان"),
                        source="catan_junior.fa.txt کاپیتان زاغول"),
    "Coco tile": _t(r"\bCoco tiles?\b", ("کاشی کوکو", "کاشی…کوکو", "کوکو…کاشی"), "Koko lövhəci",
                    ("د کوکو ټایل", "کوکو…ټایل"),
                    source="catan_junior.fa.txt کاشی کوکو"),
    "wood": _t(r"\bwood\b", "چوب", "taxta", ("لرګي", "لرګی"), source="catan_junior.fa.txt چوب"),
    "wool": _t(r"\bwool\b", "پشم", "yun", "وړۍ", source="catan_junior.fa.txt پشم"),
    "molasses": _t(r"\bmolasses\b", "آناناس", "bəkməz", "شیره", source="catan_junior.fa.txt آناناس"),
    "cutlass": _t(r"\bcutlass(?:es)?\b", "شمشیر", "qılınc", ("توره", "تورې"), source="catan_junior.fa.txt شمشیر"),
    "lair": _t(r"\blairs?\b", "مقر", "yuva", "اډ", source="catan_junior.fa.txt «مقر دزدان دریایی»"),
    "ship": _t(r"\bships?\b(?! route)", "کشتی", "gəmi", "بېړ", source="catan_junior.fa.txt کشتی"),
}

#: Every scope's terms: ``"colours"`` for all games, then each game by slug.
GLOSSARY: dict[str, dict[str, Term]] = {
    "colours": COLOURS,
    "sorry": SORRY,
    "yellow_yangtze": YELLOW_YANGTZE,
    "amun_re": AMUN_RE,
    "catan_junior": CATAN_JUNIOR,
}


def terms_of(slug: str) -> dict[str, Term]:
    """The terms a game's texts must follow: the shared colours and the game's own (``{}`` for none)."""
    return {**COLOURS, **GLOSSARY.get(slug, {})}
