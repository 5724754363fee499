"""Top-level URLs: the phone pages, the REST API and its schema, language switching."""

from __future__ import annotations

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.web import digits

urlpatterns = [
    path("api/", include("games.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("digits/", digits.set_digits, name="set_digits"),
    path("", include("games.pages.urls")),
]

handler400 = "games.web.error_views.bad_request"
handler403 = "games.web.error_views.permission_denied"
handler404 = "games.web.error_views.not_found"
handler500 = "games.web.error_views.server_error"
