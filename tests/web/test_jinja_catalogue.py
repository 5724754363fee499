"""Jinja2 templates look each of their words up in Django's catalogues once per language, and each URL up once (games/web/jinja2env.py).

A board's templates say the same few dozen words on every draw; Django walks a language's catalogues and their
fallbacks on every ``gettext``. What a template writes must not change by it: each language its own words, and a
change of the catalogues' settings looks them up again.
"""

from __future__ import annotations

from django.template import engines
from django.utils import translation

from games.web import jinja2env


def test_a_word_is_looked_up_once_per_language_and_each_language_keeps_its_own(monkeypatch):
    asked: list[tuple[str | None, str]] = []
    stock = jinja2env.gettext

    def counted(message):
        asked.append((translation.get_language(), message))
        return stock(message)

    jinja2env._catalogue.cache_clear()
    monkeypatch.setattr(jinja2env, "gettext", counted)
    template = engines["jinja2"].env.from_string('{{ _("leader") }}')
    with translation.override("fa"):
        persian = template.render()
        assert template.render() == persian
    with translation.override("en"):
        english = template.render()
    with translation.override("fa"):
        assert template.render() == persian
    assert persian != english == "leader"
    assert asked == [("fa", "leader"), ("en", "leader")]
    jinja2env._catalogue.cache_clear()


def test_a_change_of_the_catalogues_settings_looks_the_words_up_again(settings):
    with translation.override("fa"):
        jinja2env._translate("leader")
        assert jinja2env._catalogue.cache_info().currsize > 0
        settings.LOCALE_PATHS = [*settings.LOCALE_PATHS]
        assert jinja2env._catalogue.cache_info().currsize == 0


def test_a_url_is_reversed_as_django_reverses_it_under_each_script_prefix():
    from django.urls import reverse, set_script_prefix

    template = engines["jinja2"].env.from_string('{{ url("games:table", "ABCD") }}')
    plain = template.render()
    assert plain == reverse("games:table", args=("ABCD",))
    set_script_prefix("/under/")
    try:
        assert template.render() == "/under" + plain
    finally:
        set_script_prefix("/")
    assert template.render() == plain
