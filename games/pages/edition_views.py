"""Edition profiles on the web: list, import a file, export a file. Game editors save through games.write.editions."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.engines import adapters
from games.engines.adapter import Editor
from games.engines.base import IllegalAction
from games.models import EditionProfile
from games.read.presenters import error_message
from games.text.words import isolate
from games.web.inputs import load_json
from games.write import editions

MAX_FILE_BYTES = 512 * 1024
MAX_FILE_DEPTH = 16  # a profile nests a few levels (board > sites > site > islands); 16 is plenty


def _refused(request: HttpRequest, code: str, message: str) -> HttpResponse:
    """A file refused at the edge: 422 ``{code, message}`` for htmx, else back to the list with the message."""
    if getattr(request, "htmx", False):
        return JsonResponse({"code": code, "message": message}, status=422)
    messages.error(request, message)
    return redirect("games:editions")


def editor_url_name(slug: str, editor: Editor) -> str:
    """The URL name (under ``games:``) of one game's edition editor: ``<slug>_<path>``."""
    return f"{slug}_{editor.path}"


def profile_list(request: HttpRequest) -> HttpResponse:
    """Every stored profile, with export links, an import form and a link to every game's editor
    (``WebAdapter.editors``: ``{"url", "title"}``, the title a ``gettext_noop`` template), in the alphabetical
    order of their English titles (so of the games' names)."""
    editors = sorted(({"url": reverse(f"games:{editor_url_name(slug, editor)}"), "title": editor.title}
                      for slug, adapter in adapters().items() for editor in adapter.editors),
                     key=lambda link: link["title"])
    return render(request, "games/editions.html", {"profiles": EditionProfile.objects.all(), "editors": editors})


@require_POST
def profile_import(request: HttpRequest) -> HttpResponse:
    """Import an exported profile file (multipart field ``file``)."""
    upload = request.FILES.get("file")
    try:
        if upload is None or upload.size > MAX_FILE_BYTES:
            raise ValueError
        data = load_json(upload.read(MAX_FILE_BYTES + 1), max_bytes=MAX_FILE_BYTES, max_depth=MAX_FILE_DEPTH,
                         what="profile file")
    except ValueError:
        return _refused(request, "bad_file", _("Choose an exported profile file (JSON, at most 512 KiB)."))
    except IllegalAction as exc:
        return _refused(request, exc.code, error_message(exc))
    try:
        profile = editions.import_file(data)
    except IllegalAction as exc:
        messages.error(request, error_message(exc))
    else:
        messages.success(request, _("Imported “%(name)s”.") % {"name": isolate(profile.name)})
    return redirect("games:editions")


@require_GET
def profile_export(request: HttpRequest, profile_id: int) -> JsonResponse:
    """Download a profile as a file another install can import."""
    profile = get_object_or_404(EditionProfile, id=profile_id)
    response = JsonResponse(editions.export(profile), json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{profile.slug}-{profile.option}-{profile.id}.json"'
    return response
