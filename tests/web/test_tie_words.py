"""Yellow & Yangtze's tie-break sentence (§7) in the reader's words: the colour that decides is named by its place
from the lowest ("their second-lowest colour"), never "total 2", and the whole sentence is translated."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.read.presenters import result_ties
from shelf.yellow_yangtze.rules.scoring import final_result

NAMES = ["نرگس", "ملالۍ"]


@pytest.mark.parametrize(("language", "and_word", "decides"), [
    ("fa", " و ", "دومین رنگ از کمترین"),
    ("ps", " او ", "له ټیټ څخه دویم رنګ"),
    ("az", " və ", "aşağıdan ikinci rəngləri"),
    ("en", " and ", "their second-lowest colour decides"),
])
def test_the_tie_sentence_names_the_second_lowest_colour_in_the_readers_language(language, and_word, decides):
    result = final_result(((2, 3, 4, 16, 0), (2, 2, 5, 13, 0)), NAMES, "empty_bag")
    with translation.override(language):
        [tie] = result_ties(result)
    assert and_word in tie and decides in tie, tie
    if language != "en":
        assert not re.search(r"[A-Za-z]{2,}", tie) or language == "az", tie
        assert "and" not in tie.split() and "total" not in tie, tie
