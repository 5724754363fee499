"""Rules at hand: a rules reference per game in four languages, one page per section;
every refusal links to the section it cites; the current step links to the section that explains it."""

from __future__ import annotations

import ast
import html
import importlib
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from games.engines import get_adapter, get_game_class
from games.engines.base import IllegalAction
from games.read import rulebook
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for, post_action
from tests.registry import GAMES as REGISTERED
from tests.registry import examples

ENGINES = Path(settings.BASE_DIR) / "games" / "engines"
GAMES = tuple(REGISTERED)
THREE = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cat"}]
FOUR = [*THREE, {"name": "Dan"}]
RTL = {"fa", "ps"}
# Latin-script words allowed on a Persian or Pashto page: the Persian glossary keeps the card name "Sorry!".
LATIN_ALLOWED = {"Sorry"}
# English words that are not Azerbaijani words: none may appear on an Azerbaijani page.
ENGLISH_ONLY = {"the", "and", "of", "to", "is", "are", "your", "you", "with", "from", "when", "which", "this",
                "that", "must", "may", "each", "every", "player", "players", "pawn", "pawns", "tile", "tiles",
                "card", "cards", "move", "turn", "into", "their", "they", "only", "then", "goes", "gets", "back",
                "wins", "or", "in", "game", "one", "two", "lair", "ship", "offering", "auction"}


def _raised_codes(files: list[Path]) -> set[str]:
    """Every refusal code raised in ``files``: ``IllegalAction("code", ...)``, the Yellow & Yangtze helpers
    ``illegal("code", ...)`` / ``require(cond, "code", message)``, and the keys of message tables
    (``REASONS``, ``*_MESSAGES``) that a variable code is looked up in."""
    codes: set[str] = set()
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                index = {"IllegalAction": 0, "illegal": 0, "require": 1}.get(name)
                if index is None or len(node.args) <= index + 1:
                    continue
                code, message = node.args[index], node.args[index + 1]
                # base.require(action, name, type) checks a payload field: its third argument is a type, not a message.
                if name == "require" and not isinstance(message, (ast.Call, ast.Subscript, ast.Constant, ast.Name)):
                    continue
                if name == "require" and isinstance(message, ast.Name) and message.id in {"str", "int", "list", "dict",
                                                                                           "bool"}:
                    continue
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    codes.add(code.value)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
                targets = [t.id for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                           if isinstance(t, ast.Name)]
                if any(t == "REASONS" or t.endswith("_MESSAGES") for t in targets):
                    codes |= {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
    return codes


def engine_codes(slug: str) -> set[str]:
    """The refusal codes a player of ``slug`` can meet: its engine package and the shared engine modules."""
    package = Path(importlib.import_module(get_game_class(slug).__module__).__file__).parent
    return _raised_codes(sorted(package.rglob("*.py")) + sorted(ENGINES.glob("*.py")))


def _client(lang: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


def _article_text(page: str, slug: str, lang: str = "en") -> str:
    """The words of a section page's article, without the game's name (as printed or in ``lang``, see
    games/text/glossary.py) and without its example position (the board's own drawing, with the players' names
    and the map's letters: tests/web/test_rule_pictures.py reads it)."""
    from django.utils import translation

    article = page[page.index("<article"):page.index("</article>")]
    article = re.sub(r'<figure class="rules-picture.*?</figure>', " ", article, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", article))
    title = get_game_class(slug).title
    with translation.override(lang):
        local = translation.gettext(title)
    return text.replace(local, " ").replace(title, " ")


# -- the reference itself ------------------------------------------------------------------------


def test_the_scan_finds_codes_raised_every_way_the_engines_raise_them():
    codes = engine_codes("yellow_yangtze")
    assert {"leader_needs_black", "tile_not_in_hand", "not_tied", "bad_action"} <= codes  # table, require, raise, base
    assert {"own_pawn_on_target", "wrong_effects"} <= engine_codes("sorry")  # REASONS table and a plain raise
    assert not {"card", "pawn", "steps"} & engine_codes("sorry")  # payload field names are not codes


@pytest.mark.parametrize("slug", GAMES)
def test_every_refusal_code_an_engine_raises_cites_a_section_of_that_games_reference(slug):
    codes = engine_codes(slug)
    assert len(codes) > 15
    unmapped = sorted(c for c in codes if c not in get_adapter(slug).refusals and c not in rulebook.NOT_A_RULE)
    assert unmapped == [], f"{slug}: refusals without a rules section: {unmapped}"
    for code, target in get_adapter(slug).refusals.items():
        key = target.partition("#")[0]
        assert rulebook.section(slug, key) is not None, (slug, code, target)


@pytest.mark.parametrize("lang", rulebook.LANGUAGES)
@pytest.mark.parametrize("slug", GAMES)
def test_every_section_is_written_in_every_language_and_nothing_else_is(slug, lang):
    written = rulebook.texts(slug, lang)
    assert list(written) == [s.key for s in rulebook.sections(slug)]
    for key, text in written.items():
        assert text.title and len(text.blocks) >= 1, (slug, lang, key)
    anchors = lambda t: set(re.findall(r'id="([a-z0-9-]+)"', "".join(t.blocks)))  # noqa: E731
    english = rulebook.texts(slug, "en")
    for key in written:  # a translation keeps every link target of the English page
        assert anchors(written[key]) == anchors(english[key]), (slug, lang, key)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", rulebook.LANGUAGES)
@pytest.mark.parametrize("slug", GAMES)
def test_every_section_page_answers_in_its_language_and_direction_and_fits_a_phone(slug, lang):
    client = _client(lang)
    index = client.get(f"/rules/{slug}/")
    assert index.status_code == 200
    for section in rulebook.sections(slug):
        response = client.get(f"/rules/{slug}/{section.key}/")
        assert response.status_code == 200, (slug, lang, section.key)
        page = response.content.decode()
        assert f'<html lang="{lang}" dir="{"rtl" if lang in RTL else "ltr"}" data-digits="' in page
        assert 'name="viewport" content="width=device-width' in page
        assert f'data-cites="{section.cites}"' in page  # traceable to the rules notes, for maintainers
        assert "shared/rules" not in page and ".md" not in page, "no internal path is shown to players"
        title = rulebook.texts(slug, lang)[section.key].title
        assert f"<h1>{html.escape(title, quote=True)}</h1>" in page
        assert f'href="/rules/{slug}/{section.key}/"' in index.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["fa", "ps", "az"])
@pytest.mark.parametrize("slug", GAMES)
def test_translated_section_pages_hold_no_english_prose(slug, lang):
    client = _client(lang)
    for section in rulebook.sections(slug):
        text = _article_text(client.get(f"/rules/{slug}/{section.key}/").content.decode(), slug, lang)
        words = re.findall(r"[A-Za-zƏəĞğİıÖöŞşÜüÇç]+", text)
        if lang in RTL:
            latin = {w for w in words if re.fullmatch(r"[A-Za-z]+", w)} - LATIN_ALLOWED
            assert not latin, (slug, lang, section.key, sorted(latin))
            assert len(re.findall(r"[\u0600-\u06FF]", text)) > 100
        else:
            english = {w.lower() for w in words} & ENGLISH_ONLY
            assert not english, (slug, lang, section.key, sorted(english))


@pytest.mark.django_db
def test_unknown_games_and_sections_are_404():
    assert Client().get("/rules/chess/").status_code == 404
    assert Client().get("/rules/sorry/castling/").status_code == 404


@pytest.mark.django_db
def test_a_section_opened_from_a_table_says_what_that_tables_rule_options_change():
    table = create_table("amun_re", {"rebid_same_province": False}, THREE, seed=1)
    page = _client("en").get(f"/rules/amun_re/auctions/?t={table.code}").content.decode()
    assert f"At this table ({table.code})" in page
    spec = next(s for s in get_game_class("amun_re").option_specs if s.name == "rebid_same_province")
    assert html.escape(spec.help, quote=True) not in page, "the maintainers' rules-file note stays off the page"
    assert "Bid again on the same province" in page  # the lobby's words for the option
    assert re.search(r'<li class="changed">[^<]*: <b>off</b>', page)  # changed from the printed default
    persian = _client("fa").get(f"/rules/amun_re/auctions/?t={table.code}").content.decode()
    assert "در این میز" in persian and "غیرفعال" in persian
    # a section no option touches says so; a table of another game adds nothing
    assert "No rule option of this table changes this section." in _client("en").get(
        f"/rules/amun_re/offerings/?t={table.code}").content.decode()
    assert "At this table" not in _client("en").get(f"/rules/sorry/cards/?t={table.code}").content.decode()


@pytest.mark.django_db
def test_a_variant_section_says_whether_the_table_plays_it():
    team = create_table("sorry", {"team_mode": True}, FOUR, seed=1)
    plain = create_table("sorry", {}, FOUR, seed=1)
    assert "This variant is played at this table." in _client("en").get(
        f"/rules/sorry/team/?t={team.code}").content.decode()
    assert "This variant is not played at this table." in _client("en").get(
        f"/rules/sorry/team/?t={plain.code}").content.decode()


# -- "Why? Read the rule" on every refusal ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("slug", GAMES)
def test_every_refusal_link_resolves_to_its_section_and_anchor_in_every_language(slug):
    table = create_table(slug, {}, THREE if slug != "sorry" else FOUR, seed=1)
    targets = sorted(set(get_adapter(slug).refusals.values()))
    for lang in rulebook.LANGUAGES:
        client = _client(lang)
        for target in targets:
            link = rulebook.url(slug, target, table.code)
            path, _, anchor = link.partition("#")
            response = client.get(path)
            assert response.status_code == 200, (slug, lang, link)
            if anchor:
                assert f'id="{anchor}"' in response.content.decode(), (slug, lang, link)


def _table(slug: str, options: dict | None = None):
    return create_table(slug, options or {}, FOUR if slug == "sorry" else THREE, seed=3)


# One refused tap per game, its ``REFUSED`` in its ``examples.py``: (options, moves played first, the refused move,
# its code, its section).
REFUSED = {slug: examples(slug).REFUSED for slug in GAMES if hasattr(examples(slug), "REFUSED")}


def _refusal_setup(slug: str):
    options, before, refused, code, target = REFUSED[slug]
    table = _table(slug, options)
    for seat, action in before:
        table.refresh_from_db()
        submit_action(table.code, seat, action, table.version)
    table.refresh_from_db()
    seat = table.game().prompt(table.game().decode(table.state)).seats[0]
    with pytest.raises(IllegalAction) as refusal:  # the engine really refuses it with that code
        submit_action(table.code, seat, refused, table.version)
    assert refusal.value.code == code
    table.refresh_from_db()
    return table, seat, refused, code, target


@pytest.mark.django_db
@pytest.mark.parametrize("slug", GAMES)
def test_a_refused_tap_shows_why_read_the_rule_linking_the_section_it_cites(slug):
    table, seat, refused, code, target = _refusal_setup(slug)
    link = rulebook.url(slug, target, table.code)
    phone = phone_for(table, seat)
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    answer = post_action(phone, table, refused)
    assert answer.status_code == 422
    page = answer.content.decode()
    banner = re.search(r'<p class="banner error" role="alert" data-code="([a-z_]+)">(.*?)</p>', page, re.S)
    assert banner and banner.group(1) == code
    assert f'href="{html.escape(link)}"' in banner.group(2) and "چرا؟ قانون را بخوانید" in banner.group(2)
    assert _client("fa").get(link.partition("#")[0]).status_code == 200
    # Without htmx the phone is sent back to its page, and the banner there carries the same link.
    followed = post_action(phone, table, refused, htmx=False)
    assert followed.status_code == 302
    assert f'href="{html.escape(link)}"' in phone.get(followed["Location"]).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", GAMES)
def test_the_api_error_body_of_a_refused_action_carries_the_rule_url(slug):
    table, seat, refused, code, target = _refusal_setup(slug)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=seat).token}")
    answer = api.post(f"/api/tables/{table.code}/actions/",
                      {"action": refused, "version": table.version, "key": f"refused-{slug}"}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == code and body["rule_url"] == rulebook.url(slug, target, table.code)
    assert APIClient().get(body["rule_url"].partition("#")[0]).status_code == 200


@pytest.mark.django_db
def test_a_malformed_action_gets_no_rule_link_and_the_schema_documents_rule_url():
    table = _table("amun_re")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")
    answer = api.post(f"/api/tables/{table.code}/actions/",
                      {"action": {"kind": "no_such_kind"}, "version": table.version, "key": "k"}, format="json")
    assert answer.status_code == 400
    assert answer.json().get("rule_url") is None
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "rule_url" in schema


@pytest.mark.django_db
def test_an_htmx_refusal_at_the_edge_answers_its_rule_url_too():
    table = _table("amun_re")
    phone = phone_for(table, 0)
    answer = phone.post(f"/t/{table.code}/corrections/", {"target": "x"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 422
    assert answer.json() == {"code": "bad_target", "message": answer.json()["message"], "rule_url": None}


# -- "How does this work?" on the current step -------------------------------------------------------


def _play_until(table, wanted, seed: int, limit: int = 3000) -> int:
    """Play random legal actions through the write path until the prompt's step is in ``wanted``; its seat."""
    chooser = random.Random(seed)
    game = table.game()
    for _ in range(limit):
        table.refresh_from_db()
        prompt = game.prompt(game.decode(table.state))
        if prompt.step in wanted:
            return prompt.seats[0]
        seat = prompt.seats[0]
        submit_action(table.code, seat, chooser.choice(game.legal_actions(game.decode(table.state), seat)),
                               table.version)
    raise AssertionError(f"no {wanted} step within {limit} moves")


def _status(client: Client, table) -> str:
    page = client.get(f"/t/{table.code}/fragment/").content.decode()
    return page[page.index('<div id="r-status"'):page.index("</div>", page.index('class="prompt'))]


def _how_link(slug: str, target: str, code: str) -> str:
    return f'href="{html.escape(rulebook.url(slug, target, code))}"'


@pytest.mark.django_db
def test_a_war_has_a_how_does_this_work_link_to_the_wars_section_on_every_phone_and_the_screen():
    table = create_table("yellow_yangtze", {}, [{"name": n} for n in ("Ann", "Ben", "Cat", "Dan")], seed=3)
    seat = _play_until(table, {"war_support"}, seed=3)
    link = _how_link("yellow_yangtze", "wars", table.code)
    for client in (phone_for(table, seat), phone_for(table, (seat + 1) % 4), Client()):
        status = _status(client, table) if client.cookies else Client().get(
            f"/t/{table.code}/screen/").content.decode()
        assert link in status and "How does this work?" in status


@pytest.mark.django_db
def test_an_auction_and_the_offering_link_their_sections_and_a_plain_turn_has_no_link():
    table = _table("amun_re")
    phone = phone_for(table, 0)
    assert _how_link("amun_re", "kingdoms#hand", table.code) in _status(phone, table)  # hand building
    _play_until(table, {"auction"}, seed=1)
    status = _status(phone_for(table, 1), table)
    assert _how_link("amun_re", "auctions", table.code) in status
    _play_until(table, {"offering"}, seed=1)
    assert _how_link("amun_re", "offerings", table.code) in _status(phone, table)
    yy = _table("yellow_yangtze")
    assert "How does this work?" not in _status(phone_for(yy, 2), yy)  # a plain two-action turn


@pytest.mark.django_db
def test_a_drawn_7_and_a_drawn_sorry_card_link_their_card_rules():
    table = _table("sorry", {"components": "physical"})
    submit_action(table.code, 0, {"kind": "draw", "card": "7"}, table.version)
    phone = phone_for(table, 0)
    assert _how_link("sorry", "cards#card-7", table.code) in _status(phone, table)
    page = _client("en").get("/rules/sorry/cards/").content.decode()
    assert 'id="card-7"' in page and 'id="card-sorry"' in page
    table.refresh_from_db()
    submit_action(table.code, 0, {"kind": "pass"}, table.version)  # all pawns in START: a 7 cannot move
    table.refresh_from_db()
    turn = table.game().prompt(table.game().decode(table.state)).seats[0]
    submit_action(table.code, turn, {"kind": "draw", "card": "sorry"}, table.version)
    assert _how_link("sorry", "cards#card-sorry", table.code) in _status(phone_for(table, turn), table)


@pytest.mark.django_db
def test_a_step_a_game_declares_links_its_section_though_no_platform_module_names_it(contract_game_registered):
    """The contract game's conflict step (``step_sections`` of its adapter) gets "How does this work?"."""
    table = _table("contract")
    seat = _play_until(table, {"defend"}, seed=2)
    assert _how_link("contract", "conflict", table.code) in _status(phone_for(table, seat), table)


@pytest.mark.django_db
def test_the_ghost_captain_and_a_player_trade_link_their_sections():
    table = _table("catan_junior", {"components": "physical", "player_trades": True})
    submit_action(table.code, 0, {"kind": "roll", "value": 6}, table.version)
    assert _how_link("catan_junior", "ghost", table.code) in _status(phone_for(table, 0), table)
    table.refresh_from_db()
    game = table.game()
    submit_action(table.code, 0, game.legal_actions(game.decode(table.state), 0)[0], table.version)
    table.refresh_from_db()
    offer = next((a for a in game.legal_actions(game.decode(table.state), 0) if a["kind"] == "offer_trade"), None)
    assert offer is not None, "after the Ghost Captain's 2 tokens a 1-for-1 offer is open"
    submit_action(table.code, 0, offer, table.version)
    assert _how_link("catan_junior", "trades#players", table.code) in _status(phone_for(table, offer["to"]), table)
