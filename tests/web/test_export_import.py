"""Export, CSV, BG Stats and import: every game round-trips; a tampered file is refused."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import itertools
import json
import random
from urllib.parse import unquote

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.utils import translation
from rest_framework.test import APIClient

from games.engines.base import IllegalAction
from games.models import Table
from games.record.audit import check_draws, opening_state
from games.write import export
from games.write.host import end_game
from games.write.moves import submit_action
from games.write.pregame import create_table
from games.write.write_path import Forbidden
from shelf.sorry.state import CARDS
from tests.registry import GAMES as REGISTERED
from tests.registry import game_class

pytestmark = pytest.mark.django_db

#: Rule options of one game that change what is exported (its own variants, written by hand).
VARIANTS = [
    ("sorry", {}, 3),
    ("sorry", {"points_mode": True}, 2),
    ("sorry", {"points_mode": True, "components": "physical"}, 2),
    ("yellow_yangtze", {}, 3),
    ("yellow_yangtze", {"components": "physical"}, 2),
    ("amun_re", {}, 3),
    ("catan_junior", {}, 2),
]
#: Every registered game round-trips: the variants above, and a game without any listed there in both
#: component modes at its fewest players.
GAMES = VARIANTS + [(slug, {"components": mode}, game_class(slug).min_seats)
                    for slug in REGISTERED if slug not in {v[0] for v in VARIANTS}
                    for mode in ("digital", "physical")]


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def finished(slug: str, options: dict, players: int, seed: int = 7) -> Table:
    """A real game played to its end through the write path (physical draws: ones the real pile can give)."""
    table = create_table(slug, options, [{"name": f"P{i}"} for i in range(players)], seed=seed)
    rng = random.Random(seed)
    game = table.game()
    for _ in range(5000):
        table.refresh_from_db()
        state = game.decode(table.state)
        if game.result(state) is not None:
            break
        seat = game.prompt(state).seats[0]
        legal = game.legal_actions(state, seat)
        rng.shuffle(legal)
        for action in legal:
            try:
                game.apply(state, seat, game.fill_chance(state, seat, action, random.Random(0))
                           if not game.physical else action)
            except IllegalAction:
                continue
            submit_action(table.code, seat, action, table.version)
            break
    table.refresh_from_db()
    assert table.status == "finished"
    return table


@pytest.mark.parametrize(("slug", "options", "players"), GAMES)
def test_export_then_import_replays_to_the_same_result(slug, options, players):
    table = finished(slug, options, players)
    data = export.build_export(table)
    text = json.dumps(data)
    for seat in table.seats.all():
        assert seat.token not in text
    assert table.host_token not in text
    assert '"state"' not in text, "the opening deal (hidden hands) stays out"
    game = table.game()
    for move in data["moves"]:
        if move.get("sealed"):
            assert move["payload"] == {"kind": move["payload"]["kind"]}
    copy = export.import_export(json.loads(text), device="dev")
    assert copy.imported and copy.status == "finished" and copy.code != table.code
    assert game.result(game.decode(copy.state)) == game.result(game.decode(table.state))
    assert check_draws(copy).ok or options.get("components") == "physical"


@pytest.fixture(scope="module")
def _catan_export(django_db_setup, django_db_blocker):
    """One finished Catan Junior game, exported (built once for the tamper tests)."""
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            table = finished("catan_junior", {}, 2, seed=11)
            data = export.build_export(table)
            transaction.set_rollback(True)
    return data


def _refusal(data) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        export.import_export(data)
    assert not Table.objects.filter(imported=True).exists(), "nothing is written when an import is refused"
    return caught.value


def test_a_changed_move_is_refused_naming_the_move(_catan_export):
    data = json.loads(json.dumps(_catan_export))
    roll = next(m for m in data["moves"] if m["kind"] == "game" and m["payload"].get("kind") == "roll")
    roll["payload"]["value"] = 6 if roll["payload"]["value"] != 6 else 1
    exc = _refusal(data)
    assert exc.code == "import_diverges" and exc.details["seq"] == roll["seq"]
    assert f"move #{roll['seq']}" in exc.message.format(**exc.details)


def test_a_changed_result_is_refused(_catan_export):
    data = json.loads(json.dumps(_catan_export))
    data["result"]["winners"] = [1 - data["result"]["winners"][0]]
    exc = _refusal(data)
    assert exc.code == "import_diverges" and "final result" in exc.message


def test_a_dropped_move_is_refused_naming_the_move_after_it(_catan_export):
    data = json.loads(json.dumps(_catan_export))
    games = [m for m in data["moves"] if m["kind"] == "game"]
    dropped = games[5]
    data["moves"].remove(dropped)
    exc = _refusal(data)
    assert exc.code == "import_diverges" and exc.details["seq"] == games[6]["seq"]


def test_a_changed_seed_is_refused_against_its_commitment(_catan_export):
    data = json.loads(json.dumps(_catan_export))
    data["draws"]["seed"] = str(int(data["draws"]["seed"]) + 1)
    exc = _refusal(data)
    assert exc.code == "bad_import" and "commitment" in exc.message


def test_a_consistent_forgery_of_a_digital_roll_is_caught_by_the_seed():
    """Rewriting a roll and recomputing every digest and the result does not help: the seed does not give it."""
    table = finished("catan_junior", {}, 2, seed=12)
    rolls = list(table.actions.filter(kind="game", payload__kind="roll").order_by("-seq"))
    data = forged = None
    for row in rolls:  # the latest roll whose other value the later moves still fit
        original = dict(row.payload)
        for value in range(1, 7):
            if value == original["value"]:
                continue
            row.payload = dict(original, value=value)
            row.save()
            try:
                data = export.build_export(table)
            except IllegalAction:
                continue
            forged = row
            break
        if forged:
            break
        row.payload = original
        row.save()
    assert forged is not None, "some roll can be rewritten so that the later moves still fit"
    exc = _refusal(data)
    assert exc.code == "import_diverges" and exc.details["seq"] == forged.seq


def resealed(data: dict) -> dict:
    """``data`` with its ``file_seal`` made again under this server's key, as if the server had exported the file
    so: what reaches the replay's own checks of a file with sealed moves (an edited one is refused before them)."""
    data[export.FILE_SEAL] = export.file_seal(export.seal_key(data["code"], int(data["draws"]["seed"])), data)
    return data


def test_a_sealed_move_with_another_digest_is_refused_naming_it():
    """Edited, the file is refused by its whole-file seal; sealed again by the server (a file it made so), the
    replay still finds no legal move with that digest and names the move."""
    table = finished("sorry", {"points_mode": True}, 2, seed=5)
    data = export.build_export(table)
    sealed = next(m for m in data["moves"] if m.get("sealed"))
    sealed["sealed"] = "0" * 64
    assert _refusal(json.loads(json.dumps(data))).code == "import_changed"
    exc = _refusal(resealed(data))
    assert exc.code == "import_diverges" and exc.details["seq"] == sealed["seq"]


def test_an_unsealed_private_move_is_refused():
    table = finished("sorry", {"points_mode": True}, 2, seed=5)
    data = export.build_export(table)
    sealed = next(m for m in data["moves"] if m.get("sealed"))
    row = table.actions.get(seq=sealed["seq"])
    sealed.pop("sealed")
    sealed["payload"] = row.payload  # the card a player drew into a hidden hand, in the clear
    assert _refusal(json.loads(json.dumps(data))).code == "import_changed", "other moves are still sealed"
    exc = _refusal(resealed(json.loads(json.dumps(data))))
    assert exc.code == "import_diverges" and exc.details["seq"] == sealed["seq"]
    for move in data["moves"]:  # every private move in the clear: nothing is sealed, nothing is checked by the
        if move.pop("sealed", None):  # file's seal, and the replay refuses the first one before playing it
            move["payload"] = table.actions.get(seq=move["seq"]).payload
    first = next(m for m in data["moves"] if export.is_sealed(table.game(), m.get("seat"), m["payload"]))
    exc = _refusal(data)
    assert exc.code == "import_diverges" and exc.details["seq"] == first["seq"]
    assert "only its player may read" in exc.message


def test_the_csv_has_one_row_per_player_with_rank_and_components():
    table = finished("yellow_yangtze", {}, 3, seed=3)
    rows = list(csv.DictReader(io.StringIO(export.build_csv(table))))
    header = export.build_csv(table).splitlines()[0].split(",")
    assert header[:6] == ["seat", "name", "colour", "rank", "winner", "score"]
    assert "totals.red" in header and "points.yellow" in header
    result = table.game().result(table.game().decode(table.state))
    by_seat = {r["seat"]: r for r in result["ranking"]}
    assert [r["seat"] for r in rows] == ["1", "2", "3"]
    for r in rows:
        entry = by_seat[int(r["seat"]) - 1]
        assert r["name"] == f"P{int(r['seat']) - 1}" and r["rank"] == str(entry["rank"])
        assert r["score"] == str(entry["score"]) and r["totals.red"] == str(entry["totals"]["red"])
        assert r["winner"] == ("yes" if entry["seat"] in result["winners"] else "no")


def test_the_bgstats_link_carries_game_date_players_scores_and_winner():
    table = finished("amun_re", {}, 3, seed=4)
    link = export.bgstats_link(table)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play = json.loads(unquote(link.split("data=", 1)[1]))
    result = table.game().result(table.game().decode(table.state))
    assert play["game"]["name"] == "Amun-Re" or play["game"]["name"] == table.title
    assert play["sourceName"] == "Companion" and play["sourcePlayId"] == table.code
    assert len(play["playDate"]) == 19 and play["playDate"][4] == "-"
    assert [p["name"] for p in play["players"]] == ["P0", "P1", "P2"]
    ranking = {r["seat"]: r for r in result["ranking"]}
    for i, p in enumerate(play["players"]):
        assert p["score"] == ranking[i]["score"] and p["rank"] == ranking[i]["rank"]
        assert p["winner"] is (i in result["winners"])
    assert sum(p["winner"] for p in play["players"]) >= 1


def test_the_api_exports_and_imports_and_the_copy_refuses_every_write():
    table = finished("sorry", {}, 2, seed=9)
    api = APIClient()
    answer = api.get(f"/api/tables/{table.code}/export.json")
    assert answer.status_code == 200 and answer.json()["format"] == "companion-export"
    text = api.get(f"/api/tables/{table.code}/export.csv")
    assert text.status_code == 200 and text["Content-Type"].startswith("text/csv")
    assert text.content.decode().splitlines()[0].startswith("seat,name,colour,rank,winner,score")
    made = api.post("/api/imports/", answer.content, content_type="application/json")
    assert made.status_code == 201, made.content
    copy = Table.objects.get(code=made.json()["code"])
    assert copy.imported and made.json()["moves"] == copy.actions.filter(kind="game").count()
    seat = copy.seats.get(index=0)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {seat.token}")
    refused = api.post(f"/api/tables/{copy.code}/actions/", {"action": {"kind": "draw"}, "version": copy.version},
                       format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "table_imported"
    refused = api.post(f"/api/tables/{copy.code}/undo-mine/", {"version": copy.version}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "table_imported"
    host = APIClient()
    refused = host.post(f"/api/tables/{copy.code}/undo/", {"version": copy.version}, format="json",
                        HTTP_X_HOST_TOKEN=copy.host_token)
    assert refused.status_code == 403 and refused.json()["code"] == "table_imported"
    with pytest.raises(Forbidden) as caught:
        end_game(copy.code)
    assert caught.value.code == "table_imported"
    bad = api.post("/api/imports/", b'{"format": "companion-export", "version": 1}', content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_import"
    deep = api.post("/api/imports/", b"[" * 40 + b"]" * 40, content_type="application/json")
    assert deep.status_code == 400 and deep.json()["code"] == "too_deep"


def test_an_open_game_is_not_exported():
    table = create_table("sorry", {}, [{"name": "A"}, {"name": "B"}], seed=1)
    assert APIClient().get(f"/api/tables/{table.code}/export.json").status_code == 409
    assert Client().get(f"/t/{table.code}/export.csv").json()["code"] == "not_finished"


def test_the_web_import_rebuilds_the_table_and_refuses_a_tampered_file():
    from django.core.files.uploadedfile import SimpleUploadedFile

    table = finished("catan_junior", {}, 2, seed=13)
    phone = Client()
    text = phone.get(f"/t/{table.code}/export.json").content
    answer = phone.post("/history/import/", {"file": SimpleUploadedFile("g.json", text, "application/json")})
    assert answer.status_code == 302 and "/history/" in answer["Location"]
    copy = Table.objects.get(imported=True)
    page = phone.get(answer["Location"]).content.decode()
    assert "read-only" in page and "Game over" in page
    assert copy.code in phone.get("/history/").content.decode(), "the importing device lists its copy"
    data = json.loads(text)
    data["result"]["ranking"][0]["score"] += 1
    refused = phone.post("/history/import/", {"file": SimpleUploadedFile("g.json", json.dumps(data).encode())},
                         HTTP_ACCEPT="application/json")
    assert refused.status_code == 422 and refused.json()["code"] == "import_diverges"


# -- sealed moves: an HMAC under the server's key (export format 2) -----------------------------------------

PHYSICAL_POINTS = {"points_mode": True, "components": "physical"}


def _sha_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_reader_of_the_file_cannot_open_a_sealed_hand_entered_draw_by_guessing():
    """Every card value, hashed the old way (sha256(seed:seq:payload)) or with any combination of the file's
    table fields, or keyed by any of them, gives none of the sealed digests; the server's key gives each one."""
    table = finished("sorry", PHYSICAL_POINTS, 2, seed=5)
    data = json.loads(json.dumps(export.build_export(table)))
    assert data["version"] == 3 and isinstance(data["seal"], str) and isinstance(data["file_seal"], str)
    sealed = [m for m in data["moves"] if m.get("sealed")]
    assert len(sealed) > 20, "physical points mode seals every hand-entered draw"
    fields = [data["code"], data["draws"]["seed"], data["draws"]["commitment"], data["seal"],
              data["file_seal"], data["game"]["slug"], data["created_at"], data["finished_at"]]
    key = export.seal_key(table.code, table.seed)
    opened = 0
    for move in sealed:
        truth = table.actions.get(seq=move["seq"]).payload
        # what the file alone says the move may have been: its kind with each card value the options list
        guesses = [{"kind": move["payload"]["kind"], "card": card} for card in data["options"]["deck_counts"]]
        assert truth in guesses, "the guesses cover the real card: the old digest of this file would have opened it"
        parts = [*fields, str(move["seq"]), str(move["seat"]), move["after"], move["line"]]
        candidates = set()
        for guess in guesses:
            body = export.canonical(guess)
            candidates.add(_sha_hex(f"{data['draws']['seed']}:{move['seq']}:{body}"))  # format 1's digest
            for size in range(0, 4):
                for combo in itertools.permutations(parts, size):
                    text = ":".join([*combo, body])
                    candidates.add(_sha_hex(text))
                    candidates.add(_sha_hex(text.replace(":", "")))
            for secret in parts:
                candidates.add(hmac.new(secret.encode(), f"{move['seq']}:{body}".encode(), hashlib.sha256).hexdigest())
                candidates.add(hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest())
        assert move["sealed"] not in candidates, f"sealed move #{move['seq']} opens from the file alone"
        assert move["sealed"] == export.sealed_digest(key, move["seq"], truth), "the server's key opens it"
        opened += 1
    assert opened == len(sealed)


def _diff(a, b, path=""):
    """Every path where two JSON documents differ (``moves[3].sealed``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in _diff(a.get(k), b.get(k), f"{path}.{k}" if path else k)]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in _diff(x, y, f"{path}[{i}]")]
    return [] if a == b else [path]


def test_two_games_apart_only_in_one_hidden_draw_export_apart_only_in_its_digest():
    """Change one hand-entered draw (a card still in the hand at the end) and nothing else: the two files differ
    in that move's sealed digest, and in the whole file's seal (an HMAC under the server's key over every field,
    so it changes with any of them and opens nothing either): no public line, position digest, result or seal
    check gives it away."""
    table = finished("sorry", PHYSICAL_POINTS, 2, seed=6)
    before = export.build_export(table)
    cards = list(before["options"]["deck_counts"])
    changed = other = None
    for row in table.actions.filter(kind="game", payload__kind="draw").order_by("-seq"):
        original = dict(row.payload)
        for card in cards:
            if card == original["card"]:
                continue
            row.payload = dict(original, card=card)
            row.save()
            try:
                other = export.build_export(table)  # the rest of the game still replays: the other game
            except IllegalAction:
                continue
            changed = row
            break
        if changed:
            break
        row.payload = original
        row.save()
    assert changed is not None, "some draw can hold another card while every later move still fits"
    index = next(i for i, m in enumerate(before["moves"]) if m["seq"] == changed.seq)
    assert _diff(before, other) == ["file_seal", f"moves[{index}].sealed"]
    copy = export.import_export(json.loads(json.dumps(other)))
    assert copy.actions.get(seq=changed.seq).payload == changed.payload, "the server still opens the changed move"


def test_a_file_sealed_under_another_servers_key_is_refused_and_nothing_is_written():
    table = finished("sorry", PHYSICAL_POINTS, 2, seed=5)
    data = json.loads(json.dumps(export.build_export(table)))
    with override_settings(SECRET_KEY="another-server-" + "x" * 40):
        exc = _refusal(json.loads(json.dumps(data)))
        assert exc.code == "import_sealed_elsewhere" and "another server" in exc.message
        answer = APIClient().post("/api/imports/", json.dumps(data), content_type="application/json")
        assert answer.status_code == 400 and answer.json()["code"] == "import_sealed_elsewhere"
        assert not Table.objects.filter(imported=True).exists()
    forged = json.loads(json.dumps(data))
    forged["seal"] = "0" * 64  # a seal check this server's key does not give: the same refusal
    assert _refusal(forged).code == "import_sealed_elsewhere"
    with override_settings(SECRET_KEY="rotated-" + "y" * 40, SECRET_KEY_FALLBACKS=[settings.SECRET_KEY]):
        copy = export.import_export(data)  # a key rotated on this server: the old one still opens its files
    assert copy.imported and copy.actions.filter(kind="game").count() == len(
        [m for m in data["moves"] if m["kind"] == "game"])


def test_a_file_with_nothing_sealed_imports_on_another_server(_catan_export):
    with override_settings(SECRET_KEY="another-server-" + "x" * 40):
        copy = export.import_export(json.loads(json.dumps(_catan_export)))
    assert copy.imported and copy.status == "finished"


def test_a_format_1_file_is_refused_by_its_version(_catan_export):
    data = json.loads(json.dumps(_catan_export))
    data["version"] = 1
    exc = _refusal(data)
    assert exc.code == "bad_import" and "format version" in exc.message
    assert exc.details["version"] == export.FORMAT_VERSION == 3


# -- the whole file is sealed (export format 3): an edited file with hidden moves gets one answer ----------------


def _before(table: Table, seq: int):
    """The engine and the position just before log row ``seq`` of ``table`` (its hidden hands included)."""
    game = table.game()
    rows, counted = export._counted_rows(table)
    state = opening_state(table, game, rows)
    for row in counted:
        if row.seq == seq:
            return game, state
        if row.kind == "game":
            state = game.apply(state, row.seat, row.payload)
    raise AssertionError(f"no row #{seq}")


def _hand_edits(table: Table, data: dict):
    """Two edits of one public move "A plays X": into a legal play of a card Y that A held then, and into the same
    play with a card Z that A did not hold. Returns ``(seq, held_file, not_held_file)``."""
    for index, move in enumerate(data["moves"]):
        if move["kind"] != "game" or move["payload"].get("kind") != "move":
            continue
        game, state = _before(table, move["seq"])
        hand = dict(zip(CARDS, state.hands[move["seat"]], strict=True))
        played = move["payload"]["card"]
        missing = next((card for card, n in hand.items() if not n and card != played), None)
        other = next((a for a in game.legal_actions(state, move["seat"])
                      if a.get("kind") == "move" and a.get("card") not in (played, None)), None)
        if missing is None or other is None:
            continue
        held, not_held = json.loads(json.dumps(data)), json.loads(json.dumps(data))
        held["moves"][index]["payload"] = other  # legal: the refusal would name the position it leaves
        not_held["moves"][index]["payload"] = dict(move["payload"], card=missing)  # would be refused as illegal
        return move["seq"], held, not_held
    raise AssertionError("some public play has another card in the hand and one card out of it")


def _answers(data: dict) -> list[tuple[int, bytes]]:
    """The API's and the import page's answers to ``data`` (no seat, no cookie): status and body bytes."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    text = json.dumps(data).encode()
    api = APIClient().post("/api/imports/", text, content_type="application/json")
    page = Client().post("/history/import/", {"file": SimpleUploadedFile("g.json", text, "application/json")},
                         HTTP_ACCEPT="application/json")
    return [(api.status_code, api.content), (page.status_code, page.content)]


def test_an_edited_public_move_says_nothing_of_whether_the_seat_held_the_card():
    """Edit a public play of a finished physical Sorry! points game into a card the seat held, or one it did not:
    both doors answer byte for byte the same (status, code, message), so an import tells nobody what a hand held.
    Without the whole-file seal the first was refused for the position it leaves and the second as illegal."""
    table = finished("sorry", PHYSICAL_POINTS, 2, seed=5)
    data = export.build_export(table)
    seq, held, not_held = _hand_edits(table, data)
    answers = _answers(held)
    assert answers == _answers(not_held)
    assert answers[0][0] == 400 and answers[1][0] == 422
    for _status, body in answers:
        assert json.loads(body)["code"] == "import_changed" and f"#{seq}" not in body.decode()
        assert json.loads(body)["message"] == (
            "This file was changed after it was exported; a file with hidden moves is only taken as exported.")
    assert not Table.objects.filter(imported=True).exists()
    made = APIClient().post("/api/imports/", json.dumps(data), content_type="application/json")
    assert made.status_code == 201, made.content
    spaced = json.dumps(dict(reversed(list(data.items()))), indent=3, ensure_ascii=True)  # same JSON, other text
    assert APIClient().post("/api/imports/", spaced, content_type="application/json").status_code == 201


def test_every_change_to_a_file_with_hidden_moves_gets_the_one_answer():
    table = finished("sorry", PHYSICAL_POINTS, 2, seed=6)
    data = export.build_export(table)
    sealed = next(m for m in data["moves"] if m.get("sealed"))
    public = next(m for m in data["moves"] if m["kind"] == "game" and not m.get("sealed"))

    def edits():
        yield lambda d: d["result"]["ranking"][0].update(score=d["result"]["ranking"][0]["score"] + 1)
        yield lambda d: d["seats"][0].update(name="Mallory")
        yield lambda d: d.update(opening_options={})
        yield lambda d: d.update(finished_at="2000-01-01T00:00:00+00:00")
        yield lambda d: d.update(extra=1)
        yield lambda d: d.pop("file_seal")
        yield lambda d: d.update(file_seal=["not", "text"])
        yield lambda d: d.update(file_seal="\ud800")
        yield lambda d: d["draws"].update(seed="²")
        yield lambda d: d.update(code="\ud800")
        yield lambda d: d["moves"].remove(public)
        yield lambda d: next(m for m in d["moves"] if m["seq"] == sealed["seq"]).update(sealed="0" * 64)
        yield lambda d: next(m for m in d["moves"] if m["seq"] == public["seq"]).update(after="0" * 64)
        yield lambda d: next(m for m in d["moves"] if m["seq"] == public["seq"]).update(line="P0 wins.")

    first = None
    for edit in edits():
        copy = json.loads(json.dumps(data))
        edit(copy)
        answer = APIClient().post("/api/imports/", json.dumps(copy), content_type="application/json")
        assert answer.status_code == 400 and answer.json()["code"] == "import_changed", answer.content
        first = first or answer.content
        assert answer.content == first
    assert not Table.objects.filter(imported=True).exists()


def test_a_format_2_file_with_hidden_moves_is_refused_without_a_replay_one_without_imports():
    table = finished("sorry", PHYSICAL_POINTS, 2, seed=5)
    old = export.build_export(table)
    old.pop("file_seal")
    old["version"] = 2
    seq, held, not_held = _hand_edits(table, old)
    answers = _answers(old)
    assert answers == _answers(held) == _answers(not_held), "as exported or edited, the same refusal"
    body = json.loads(answers[0][1])
    assert answers[0][0] == 400 and body["code"] == "bad_import" and "Export the table again" in body["message"]
    assert not Table.objects.filter(imported=True).exists()
    public = export.build_export(finished("catan_junior", {}, 2, seed=11))
    public.pop("file_seal")
    public["version"] = 2
    assert export.import_export(json.loads(json.dumps(public))).imported, "nothing sealed: it imports as before"
    roll = next(m for m in public["moves"] if m["kind"] == "game" and m["payload"].get("kind") == "roll")
    roll["payload"]["value"] = 6 if roll["payload"]["value"] != 6 else 1
    with pytest.raises(IllegalAction) as caught:
        export.import_export(public)
    assert caught.value.code == "import_diverges" and caught.value.details["seq"] == roll["seq"]


def test_a_file_with_nothing_sealed_is_still_refused_naming_the_move_it_was_changed_at(_catan_export):
    data = json.loads(json.dumps(_catan_export))
    data.pop("file_seal")  # nothing is sealed: the replay alone checks it, as before the whole-file seal
    assert export.import_export(json.loads(json.dumps(data))).imported
    data["moves"][-1]["after"] = "0" * 64
    with pytest.raises(IllegalAction) as caught:
        export.import_export(data)
    assert caught.value.code == "import_diverges" and caught.value.details["seq"] == data["moves"][-1]["seq"]


# -- what a file may hold is checked before it is used: a 4xx, never a server error -------------------------------


@pytest.mark.parametrize("body", [
    {"format": "companion-export", "version": 3, "game": {"slug": []}},
    {"format": "companion-export", "version": 2, "game": {"slug": []}},
    {"format": "companion-export", "version": 3, "game": {"slug": {"a": 1}}},
    {"format": "companion-export", "version": [3]},
    {"format": "companion-export", "version": True},
])
def test_a_game_or_version_that_is_not_text_or_a_number_is_a_bad_import(body):
    answer = APIClient().post("/api/imports/", json.dumps(body), content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_import"


@pytest.mark.parametrize("seed", ["²", "١٢", "", "-1", "1" * 20])
def test_a_seed_that_is_not_ascii_digits_is_a_bad_import(_catan_export, seed):
    data = json.loads(json.dumps(_catan_export))
    data["draws"]["seed"] = seed
    answer = APIClient().post("/api/imports/", json.dumps(data), content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_import"


def test_opening_options_that_are_not_the_final_ones_are_refused_at_both_doors():
    """A points-mode Sorry! file whose opening options say a standard game: refused by its seal as edited, and by
    the import's own check as a file this server had sealed so; never the engine's IndexError (a 500)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    table = finished("sorry", PHYSICAL_POINTS, 2, seed=5)
    data = export.build_export(table)
    data["opening_options"] = {}
    assert {code for code in (json.loads(body)["code"] for _s, body in _answers(data))} == {"import_changed"}
    resealed(data)
    api = APIClient().post("/api/imports/", json.dumps(data), content_type="application/json")
    assert api.status_code == 400 and api.json()["code"] == "bad_import" and "opening options" in api.json()["message"]
    page = Client().post("/history/import/", {"file": SimpleUploadedFile("g.json", json.dumps(data).encode())},
                         HTTP_ACCEPT="application/json")
    assert page.status_code == 422 and page.json()["code"] == "bad_import"
    assert not Table.objects.filter(imported=True).exists(), "nothing half-written"


def test_an_engine_error_in_the_replay_names_the_move_and_writes_nothing(monkeypatch):
    """Whatever an engine raises on a position it never meant to meet, the import answers ``import_diverges``."""
    from shelf.sorry import SorryGame

    table = finished("sorry", PHYSICAL_POINTS, 2, seed=5)
    data = json.loads(json.dumps(export.build_export(table)))
    sealed = next(m for m in data["moves"] if m.get("sealed"))

    def broken(self, state, seat):
        raise IndexError("tuple index out of range")

    monkeypatch.setattr(SorryGame, "drawable", broken)
    exc = _refusal(data)
    assert exc.code == "import_diverges" and exc.details["seq"] == sealed["seq"]


def test_a_file_that_names_a_key_twice_is_refused_before_its_seal_is_read(_catan_export):
    """A parser keeps the last of two equal keys while a reader sees the first: such a file is not 'as exported'."""
    text = json.dumps(_catan_export)
    doubled = '{"moves": [{"x": 1}], ' + text[1:]
    answer = APIClient().post("/api/imports/", doubled, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_json" and "moves" in answer.json()["message"]
    assert APIClient().post("/api/imports/", text, content_type="application/json").status_code == 201
