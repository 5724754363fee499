"""Static files under ASGI, as uvicorn serves them: ServeStatic's middleware streams each file through an
asynchronous iterator, so Django never warns that a streaming answer had to consume a synchronous one
("StreamingHttpResponse must consume synchronous iterators ..."), which whitenoise's answers made it log for every
file ``make run`` served. Once collected (``make run``), a file leaves precompressed and cacheable."""

from __future__ import annotations

import re
import shutil
import warnings

import brotli
import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.handlers.asgi import ASGIHandler
from django.core.management import call_command
from django.test import override_settings

from companion.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

SYNC_ITERATOR_WARNING = "must consume synchronous iterators"


async def fetch(app, path: str, **headers: str) -> dict:
    """One GET through an ASGI application, as a server sends it: status, headers (a lower-case dict) and body.

    (Channels' HttpCommunicator wants a body in every body message; the ASGI spec, and Django, leave the last
    one's out.)"""
    scope = {"type": "http", "http_version": "1.1", "method": "GET", "scheme": "http", "path": path,
             "raw_path": path.encode(), "query_string": b"", "server": ("testserver", 80),
             "client": ("127.0.0.1", 50000),
             "headers": [(b"host", b"testserver"),
                         *((k.replace("_", "-").encode(), v.encode()) for k, v in headers.items())]}
    server = ApplicationCommunicator(app, scope)
    await server.send_input({"type": "http.request", "body": b""})
    start = await server.receive_output(10)
    answer = {"status": start["status"], "body": b"",
              "headers": {k.decode().lower(): v.decode() for k, v in start.get("headers", [])}}
    while True:
        message = await server.receive_output(10)
        answer["body"] += message.get("body", b"")
        if not message.get("more_body", False):
            return answer


def sync_iterator_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if SYNC_ITERATOR_WARNING in str(w.message)]


@pytest.mark.asyncio
async def test_the_first_page_and_its_static_files_are_served_without_the_sync_iterator_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        page = await fetch(application, "/")
        assert page["status"] == 200
        files = sorted(set(re.findall(r"/static/[^\"'?#\s]+", page["body"].decode())))
        assert any(f.endswith(".js") for f in files) and any(f.endswith(".css") for f in files), files
        for url in files:
            answer = await fetch(application, url)
            assert answer["status"] == 200, url
            with open(finders.find(url.removeprefix(settings.STATIC_URL)), "rb") as source:
                assert answer["body"] == source.read(), url
    assert sync_iterator_warnings(caught) == []


@pytest.mark.asyncio
async def test_a_collected_static_file_leaves_precompressed_and_cacheable_without_the_warning(tmp_path):
    """As ``make run`` serves them: collected (the storage writes .gz and .br), not from the finders."""
    source = tmp_path / "static"
    (source / "js").mkdir(parents=True)
    shutil.copy(settings.BASE_DIR / "static" / "js" / "table.js", source / "js" / "table.js")
    with override_settings(STATIC_ROOT=tmp_path / "collected", STATICFILES_DIRS=[source], SERVESTATIC_USE_FINDERS=False,
                           STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"]):
        call_command("collectstatic", "--noinput", verbosity=0)
        assert (tmp_path / "collected" / "js" / "table.js.br").exists()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            answer = await fetch(ASGIHandler(), "/static/js/table.js", accept_encoding="gzip, br")
    assert answer["status"] == 200 and answer["headers"]["content-encoding"] == "br"
    assert brotli.decompress(answer["body"]) == (source / "js" / "table.js").read_bytes()
    assert answer["headers"]["cache-control"] == "max-age=60, public"
    assert sync_iterator_warnings(caught) == []
