from __future__ import annotations

from django.urls import path

from games.api import export_views, views

urlpatterns = [
    path("tables/", views.create_table, name="api-create-table"),
    path("tables/<str:code>/", views.table_detail, name="api-table"),
    path("tables/<str:code>/claim/", views.claim, name="api-claim"),
    path("tables/<str:code>/view/", views.my_view, name="api-view"),
    path("tables/<str:code>/prompt/", views.prompt, name="api-prompt"),
    path("tables/<str:code>/actions/", views.post_action, name="api-actions"),
    path("tables/<str:code>/log/", views.log, name="api-log"),
    path("tables/<str:code>/undo/", views.undo, name="api-undo"),
    path("tables/<str:code>/undo-mine/", views.undo_mine, name="api-undo-mine"),
    path("tables/<str:code>/export.json", export_views.export_json, name="api-export-json"),
    path("tables/<str:code>/export.csv", export_views.export_csv, name="api-export-csv"),
    path("imports/", export_views.import_game, name="api-import"),
    path("tables/<str:code>/start/", views.start, name="api-start"),
]
