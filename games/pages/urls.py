from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from django.urls import path

from games.engines import adapters, package
from games.pages import edition_views, history_views, rules_views, views

app_name = "games"


def _view(slug: str, dotted: str) -> Callable[..., Any]:
    """The view named ``"module:function"`` by game ``slug``'s adapter (an edition editor, ``WebAdapter.editors``):
    a module name starting with a dot is in the game's own package (``".editor"``: ``shelf/<slug>/editor.py``)."""
    module, _, name = dotted.partition(":")
    return getattr(importlib.import_module(module, package(slug)), name)


urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("editions/", edition_views.profile_list, name="editions"),
    path("editions/import/", edition_views.profile_import, name="edition_import"),
    path("editions/<int:profile_id>/export.json", edition_views.profile_export, name="edition_export"),
    *(path(f"editions/{slug}/{editor.path}/", _view(slug, editor.view), name=edition_views.editor_url_name(slug, editor))
      for slug, adapter in adapters().items() for editor in adapter.editors),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/screen/", views.screen, name="screen"),
    path("t/<str:code>/fragment/", views.fragment, name="fragment"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/act/", views.act, name="act"),
    path("t/<str:code>/undo-mine/", views.undo_mine, name="undo_mine"),
    path("t/<str:code>/corrections/", views.propose_correction, name="propose_correction"),
    path("t/<str:code>/corrections/fix/<int:seq>/", views.fix_move, name="fix_move"),
    path("t/<str:code>/corrections/<int:correction_id>/", views.answer_correction, name="answer_correction"),
    path("t/<str:code>/start/", views.start, name="start"),
    path("t/<str:code>/next/", views.next_game, name="next_game"),
    path("t/<str:code>/host/walk/", views.walk, name="walk"),
    path("t/<str:code>/host/start-again/", views.start_again, name="start_again"),
    path("t/<str:code>/host/play-again/", views.play_again, name="play_again"),
    path("t/<str:code>/host/", views.host, name="host"),
    path("t/<str:code>/host/qr/<int:index>.svg", views.seat_qr, name="seat_qr"),
    path("t/<str:code>/host/undo/", views.undo, name="undo"),
    path("t/<str:code>/host/hand-over/<int:index>/", views.hand_over, name="hand_over"),
    path("t/<str:code>/host/end/", views.end, name="end"),
    path("t/<str:code>/host/components/", views.components, name="components"),
    path("rules/<slug:slug>/", rules_views.rules_index, name="rules_index"),
    path("rules/<slug:slug>/<slug:key>/", rules_views.rules_section, name="rules_section"),
    # past games
    path("history/", history_views.history_list, name="history"),
    path("history/import/", history_views.import_game, name="import_game"),
    path("t/<str:code>/history/", history_views.table_history, name="table_history"),
    path("t/<str:code>/history/replay/", history_views.replay_step, name="replay"),
    path("t/<str:code>/export.json", history_views.export_json, name="export_json"),
    path("t/<str:code>/export.csv", history_views.export_csv, name="export_csv"),
]
