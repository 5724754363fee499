"""The phone page as named regions, and the pushes that bring a phone up to date (shared/DESIGN.md "Pages and sync").

The page is a fixed set of :class:`Region` s with stable DOM ids. Each is
drawn by one Jinja2 template of ``templates/games/regions/`` from exactly the
context keys it declares (:attr:`Region.reads`; tests/realtime/test_region_inputs.py
renders each with only those keys). Its digest is a hash of what it shows
(:attr:`Region.inputs`, plus the language): same digest, same HTML. A region's
HTML, and its localized digits, are memoized on the table's snapshot
(:meth:`games.read.snapshots.Snapshot.memo`) under that digest, so N phones that show
the same thing cost one render. Secrecy: a region's inputs come from that
seat's own context (built from ``game.view(state, seat)``), so two seats
share HTML only when what they may see is identical.

:func:`push`: each websocket remembers the digest of every region it last
sent (:class:`Sent`); a push carries only the regions whose digest changed
for that phone (htmx out-of-band swaps), and log lines one by one.

The board's fixed geometry (Sorry! track, Yellow & Yangtze hexes) lives in
the ``static`` region outside ``#table``: drawn with the page, never pushed
again during a game.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation

from games.engines import get_adapter
from games.read import rulebook
from games.read.presenters import GENERIC_CONTROLS, legal_content, line_key, static_view_keys
from games.web import digits, jinja2env
from games.web import parts as parts_tag

LOG_LINE = "games/regions/log_line.jinja"



@dataclass(frozen=True)
class Region:
    """One named region of the phone page.

    ``id`` is its stable DOM id (its root element carries it); ``template``
    the Jinja2 template that draws it; ``reads`` the context
    keys that template (and what it includes) may read, nothing else;
    ``inputs(context)`` what it shows (JSON-able, made from those keys), from
    which its digest is made.
    """

    name: str
    id: str
    template: str
    reads: tuple[str, ...]
    inputs: Callable[[Mapping[str, Any]], Any]


_digest = parts_tag.content_digest  # one digest for regions and their parts


def _table_meta(c: Mapping[str, Any]) -> list[Any]:
    t = c["table"]
    return [t.code, t.slug, t.status, c["screen"]]


def _shared_digest(c: Mapping[str, Any], name: str, objects: tuple[Any, ...], value: Callable[[], Any]) -> str:
    """The digest of ``value()``, made once per snapshot for these very ``objects`` (pieces the snapshot shares
    between phones: the public part, a seat's view, its legal taps; :func:`games.web.parts.held_digest`).
    A context whose piece was replaced by another object is digested anew."""
    return parts_tag.held_digest(c.get("snapshot"), ("region-input", name), objects, value)


def _view_shown(c: Mapping[str, Any]) -> Any:
    """What a seat's view shows outside the static region, as digestible pieces: a container as the digest of
    that very object, made once per snapshot (a piece the seat shows alike with the table screen is the
    screen view's object: :func:`games.read.presenters.share_equal`), anything else as itself."""
    view = c["view"]
    if not isinstance(view, Mapping):
        return view
    fixed = static_view_keys(c["table"].slug)
    snap = c.get("snapshot")
    return [[k, *parts_tag.piece_digest(snap, v)] for k, v in view.items() if k not in fixed]


def _parts(c: Mapping[str, Any]) -> dict[str, str]:
    """Digests of the big pieces of a seat context, made once per context (kept in it as ``_parts``)."""
    parts = c.get("_parts")
    if parts is None:
        result = (c["result"], c.get("standing"), c["result_steps"], c.get("result_ties"))
        parts = {
            "view": _shared_digest(c, "view", (c["view"],), lambda: _view_shown(c)),
            # A label and a data-action are made from the action, the seat, the language and the table's
            # configuration (games.read.presenters.legal_for): the actions name them, so they are not made to be
            # digested.
            "legal": _shared_digest(c, "legal", (c["legal"],), lambda: [
                c["snapshot"].config_key if c.get("snapshot") is not None else None, c["seat"],
                legal_content(c["legal"])] if c["legal"] else []),
            "prompt": _shared_digest(c, "prompt", (c["prompt"],), lambda: c["prompt"]),
            "seats": _shared_digest(c, "seats", (c["seats"],), lambda: c["seats"]),
            "result": _shared_digest(c, "result", result, lambda: list(result)),
        }
        c["_parts"] = parts  # type: ignore[index]
    return parts


def _board_inputs(c: Mapping[str, Any]) -> list[Any]:
    p = _parts(c)
    inputs = [_table_meta(c), c["board_template"], p["view"], p["legal"], p["prompt"], p["seats"], p["result"]]
    # A game whose board template reads nothing seat-specific besides the view and the legal actions (its
    # adapter's ``board_needs_seat`` is false): phones with the same view and no legal action share one render.
    if get_adapter(c["table"].slug).board_needs_seat:
        inputs += [c["seat"], c["my_turn"]]
    return inputs


def _undo_own_inputs(c: Mapping[str, Any]) -> list[Any]:
    """What the "Undo my move" button of the controls region reads: nothing when it is hidden."""
    return [True, c["seat"], c["version"], c.get("csrf_token")] if c.get("can_undo_own") else []


def _pregame_inputs(c: Mapping[str, Any]) -> list[Any]:
    """What the status region shows before, between and after games: the start question, the set-up steps,
    the next game; the CSRF token when one of them holds a form."""
    start, walk, after = c.get("start") or c.get("start_again"), c.get("walk"), c.get("next_code") or (
        c.get("result") is not None or c["table"].status == "ended")
    if not (start or walk or after):
        return []
    return [start, c.get("start_again"), walk, c.get("next_code"), c.get("is_host"), c.get("csrf_token")]


def _status_inputs(c: Mapping[str, Any]) -> list[Any]:
    p = _parts(c)
    view = c["view"]
    return [_table_meta(c), p["prompt"], c["my_turn"], p["result"], c["waiting_names"], p["seats"],
            view.get("edition") if isinstance(view, Mapping) and c.get("before_play") else None,
            c.get("draws") if c["screen"] else None, (c.get("chart") or {}).get("key"), *_pregame_inputs(c)]


def _controls_inputs(c: Mapping[str, Any]) -> list[Any]:
    # Without legal actions the controls region is empty whatever else changed (but for "Undo my move").
    if not c["legal"]:
        return [_table_meta(c), *_undo_own_inputs(c)]
    p = _parts(c)
    return [_table_meta(c), c["controls_template"], p["legal"], p["prompt"], c["seat"], c["my_turn"], p["view"],
            c["version"], p["seats"], c.get("csrf_token") if c["controls_template"] == GENERIC_CONTROLS else None,
            *_undo_own_inputs(c)]


REGIONS: tuple[Region, ...] = (
    Region("status", "r-status", "games/regions/status.jinja",
           ("table", "screen", "my_turn", "prompt", "result", "standing", "result_steps", "result_ties", "seats",
            "view", "waiting_names", "draws", "start", "start_again", "walk", "before_play", "next_code", "is_host", "csrf_token",
            "chart"),
           _status_inputs),
    Region("corrections", "r-corrections", "games/regions/corrections.jinja", ("table", "screen", "corrections",
                                                                              "csrf_token"),
           lambda c: [_table_meta(c), c["corrections"], c.get("csrf_token") if c["corrections"] else None]),
    Region("board", "r-board", "games/regions/board.jinja",
           ("table", "screen", "seat", "me", "my_turn", "view", "prompt", "seats", "result", "legal", "board_template"),
           _board_inputs),
    Region("controls", "r-controls", "games/regions/controls.jinja",
           ("table", "screen", "seat", "me", "my_turn", "view", "prompt", "seats", "legal", "version", "form_key",
            "csrf_token", "controls_template", "can_undo_own"),
           _controls_inputs),
    Region("links", "r-links", "games/regions/links.jinja", ("table", "screen", "me", "is_host"),
           lambda c: [_table_meta(c), bool(c["me"]), c["is_host"]]),
    Region("meta", "r-meta", "games/regions/meta.jinja", ("version", "signature", "my_turn", "seat"),
           lambda c: [_table_meta(c), c["version"], c["signature"], c["my_turn"], c["seat"]]),
)
STATIC = Region("static", "r-static", "games/regions/static.jinja", ("static_template", "static_view"),
                lambda c: [c["table"].slug, c["static_template"], c["static_view"]])
LOG = Region("log", "r-log", "games/regions/log.jinja", ("table", "screen", "me", "log"),
             lambda c: [_table_meta(c), bool(c["me"]), [line_key(x) for x in c["log"]]])
#: Every region by its name: ``BY_NAME["board"]``.
BY_NAME: dict[str, Region] = {region.name: region for region in (*REGIONS, STATIC, LOG)}


def region_digest(region: Region, context: Mapping[str, Any]) -> str:
    """The digest of what ``region`` shows in ``context`` (same digest, same HTML)."""
    return _digest([region.name, translation.get_language(), region.inputs(context)])


def _memo(context: Mapping[str, Any], key: Any, build: Callable[[], Any]) -> Any:
    """``build()`` memoized on the context's snapshot under ``key`` (content-keyed HTML), or built as is."""
    snap = context.get("snapshot")
    return build() if snap is None else snap.memo("html", key, build)


class Rendered:
    """One region drawn: its ``html``, ``skeleton`` (the digest of the HTML with each part replaced by a marker;
    ``""`` for a region without parts) and the ``parts`` it drew (games/web/parts.py), in page order.

    The whole HTML is assembled from the skeleton and the parts the first time it is read: a push whose region kept
    its skeleton sends only the parts that changed and never reads it. Never changed once made."""

    __slots__ = ("_drawn", "_html", "skeleton", "parts")

    def __init__(self, drawn: str, skeleton: str, parts: tuple[parts_tag.Part, ...]) -> None:
        self._drawn, self._html, self.skeleton, self.parts = drawn, None if parts else drawn, skeleton, parts

    @property
    def html(self) -> str:
        """The region's HTML with its parts in place (made once)."""
        if self._html is None:
            self._html = parts_tag.assemble(self._drawn, list(self.parts))
        return self._html


def _step_rule(slug: str, prompt: Mapping[str, Any] | None, code: str | None = None) -> str:
    """``step_rule(table.slug, prompt)`` in a region's template: the "How does this work?" link of the prompt's
    step, or ``""`` (:func:`games.read.rulebook.step_url`; the game, the prompt and the code are in every region's
    digest that reads it)."""
    return rulebook.step_url(slug, prompt, code) or ""


def draw_region(region: Region, context: Mapping[str, Any], sink: list[parts_tag.Part] | None = None) -> str:
    """The HTML of ``region`` drawn for ``context`` by its Jinja2 template from exactly the keys it declares
    (:attr:`Region.reads`), the context's snapshot (where its parts are memoized) and ``step_rule``.

    With ``sink``, each part it draws stands as a marker and joins ``sink`` (:func:`games.web.parts.marker`);
    without, parts are drawn in place (a replay step, a rules picture).
    """
    values = {key: context[key] for key in region.reads if key in context}
    values.update(snapshot=context.get("snapshot"), step_rule=_step_rule)
    if sink is not None:
        values[parts_tag.SINK] = sink
    return jinja2env.draw(region.template, values)


def _draw(region: Region, context: Mapping[str, Any]) -> Rendered:
    sink: list[parts_tag.Part] = []
    skeleton = draw_region(region, context, sink)
    if not sink:
        return Rendered(skeleton, "", ())
    return Rendered(skeleton, parts_tag.text_digest(skeleton), tuple(sink))


def rendered_region(region: Region, context: Mapping[str, Any], digest: str | None = None) -> Rendered:
    """One region drawn for ``context``: once per digest on the snapshot (and the ones that follow it).

    Kept out of the shared cache on purpose: a Redis round trip per region costs more than rendering it again.
    """
    return _memo(context, digest or region_digest(region, context), lambda: _draw(region, context))


def render_region(region: Region, context: Mapping[str, Any], digest: str | None = None) -> tuple[str, str]:
    """``(digest, html)`` of one region (see :func:`rendered_region`)."""
    digest = digest or region_digest(region, context)
    return digest, rendered_region(region, context, digest).html


def _line_digest(line: Mapping[str, Any], context: Mapping[str, Any]) -> tuple[Any, ...]:
    """What one log line ``<li id="log-SEQ">`` shows in ``context`` (same key, same HTML)."""
    return ("line", line_key(line), bool(context["me"]), context["table"].is_open, context["table"].code,
            translation.get_language())


def render_line(line: Mapping[str, Any], context: Mapping[str, Any]) -> tuple[Any, str]:
    """``(key, html)`` of one log line ``<li id="log-SEQ">``, drawn from the line and what its key holds of
    ``context`` (``me``, ``table``); the key identifies its content."""
    digest = _line_digest(line, context)
    return digest, _memo(context, digest, lambda: jinja2env.draw(
        LOG_LINE, {"line": line, "me": context["me"], "table": context["table"]}))


def page_regions(context: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Every region of the page for ``context``: ``{name: (digest, html)}`` (log and static included)."""
    out = {region.name: render_region(region, context) for region in (*REGIONS, LOG)}
    if context.get("static_template"):
        out[STATIC.name] = render_region(STATIC, context)
    return out


def page_signature(regions: Mapping[str, tuple[str, str]]) -> str:
    """One short hash of every region digest of a page: a phone's socket sends it back on connect."""
    return _digest(sorted((name, digest) for name, (digest, _) in regions.items()))[:16]


# -- pushes ----------------------------------------------------------------------------


def _oob(html: str) -> str:
    """``html`` (a region's root element) as an htmx out-of-band swap of the element with the same id."""
    head, sep, rest = html.partition(" ")
    return f'{head} hx-swap-oob="true"{sep}{rest}'


_SKELETON, _PART = "skeleton:", "part:"  # Sent.regions keys of a region's skeleton digest and of a part's digest


def _remember_parts(shown: dict[str, str], region: Region, drawn: Rendered) -> None:
    """Note in ``shown`` (a :attr:`Sent.regions`) the skeleton and the parts of ``region`` the phone now shows."""
    if drawn.parts:
        shown[_SKELETON + region.name] = drawn.skeleton
        shown.update((_PART + p.id, p.digest) for p in drawn.parts)
    else:
        shown.pop(_SKELETON + region.name, None)


@dataclass
class Sent:
    """What one websocket last sent: region digests, the log lines shown, the snapshot's key.

    ``log`` is the context's own list of the lines the phone shows, newest first (:func:`games.read.presenters.
    log_lines`: shared, never changed), kept as it is: the next push compares its lines with it, by identity
    first (a line whose content did not change is the same object from one snapshot to the next).
    """

    regions: dict[str, str] = field(default_factory=dict)
    log: Sequence[Mapping[str, Any]] = ()
    at: str = ""  # the key of the snapshot the last frame was made from ("CODE:revision")

    def copy(self) -> Sent:
        """An independent copy (a socket keeps one per frame, to resync a phone that missed later ones)."""
        return Sent(dict(self.regions), self.log, self.at)

    def seed(self, context: Mapping[str, Any], regions: Mapping[str, tuple[str, str]]) -> None:
        """Remember ``regions`` (and the log lines of ``context``) as what the phone shows."""
        self.regions = {name: digest for name, (digest, _) in regions.items()}
        for region in REGIONS:
            if region.name in regions:
                _remember_parts(self.regions, region, rendered_region(region, context, regions[region.name][0]))
        self.regions["log-frame"] = _log_frame(context)
        self.log = context["log"]


def _log_frame(context: Mapping[str, Any]) -> str:
    """What around the log lines may change: who reads it, whether it is empty, whether the table is open, in
    which language (compared, never sent)."""
    table = context["table"]
    return (f"{translation.get_language()}|{table.code}|{table.slug}|{table.status}|{context['screen']:d}|"
            f"{bool(context['me']):d}|{bool(context['log']):d}")


def log_changes(shown: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]]) -> tuple[
        list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """``(added, changed)``: the lines of ``log`` newer than every line of ``shown`` (newest first), and the lines
    ``shown`` holds whose content changed since (an undo, a correction marks a line). Both lists newest first.

    A move adds a line at the top of the same lines (the very objects, :func:`games.read.presenters.log_lines`):
    found by identity, without a key per line. Otherwise lines are compared by ``seq`` and content key; a line
    older than every line shown is neither (the phone never had it)."""
    if shown and log is not shown:
        top = shown[0]
        for j, line in enumerate(log):
            if line is top:
                if all(map(operator.is_, log[j:], shown)):
                    return list(log[:j]), []
                break
    elif log is shown:
        return [], []
    keys = {line["seq"]: line_key(line) for line in shown}
    newest = max(keys, default=-1)
    added = [line for line in log if line["seq"] > newest]
    changed = [line for line in log if line["seq"] in keys and keys[line["seq"]] != line_key(line)]
    return added, changed


def in_digits(context: Mapping[str, Any], key: Any, html: str, system: str | None) -> str:
    """``html`` (made under ``key``) with its text digits in ``system``, localized once per key and system
    on the snapshot: every Persian-digit phone of a table shows the same localized region. ``system``
    ``None`` leaves ``html`` as it is (regions are made with ASCII digits, games/web/digits.py)."""
    if system is None:
        return html
    return _memo(context, ("digits", key, system), lambda: digits.localize_html(html, system))


def push(context: Mapping[str, Any], sent: Sent, system: str | None = None) -> str:
    """The frame that brings a phone from what ``sent`` says it shows to ``context`` ('' if nothing changed).

    Regions whose digest is unchanged are left out; the log sends new lines
    at its top and changed lines in place, or the whole region when its
    frame changed (first line, another viewer); ``sent`` is updated once the
    frame is made, with new dictionaries (never changed in place): should a
    render fail midway, ``sent`` still says what the phone shows.
    ``system`` is the phone's digit system (``None``: ASCII digits).
    """

    def region_html(region: Region, digest: str) -> str:
        drawn = rendered_region(region, context, digest)
        skeleton = regions.get(_SKELETON + region.name)
        if drawn.parts and skeleton == drawn.skeleton:  # same frame around its parts: only the parts that changed
            out = "".join(p.swap(in_digits(context, p.digest, p.inner, system)) for p in drawn.parts
                          if regions.get(_PART + p.id) != p.digest)
        else:
            out = _oob(in_digits(context, digest, drawn.html, system))
        _remember_parts(regions, region, drawn)
        return out

    def line_html(line: Mapping[str, Any]) -> str:
        key, html = render_line(line, context)
        return in_digits(context, key, html, system)

    parts: list[str] = []
    regions = dict(sent.regions)  # copied, never changed in place (see above)
    for region in (STATIC, *REGIONS) if context.get("static_template") else REGIONS:
        if region is STATIC and region.name in regions:
            continue  # fixed for the whole game (and this socket's language)
        digest = region_digest(region, context)
        if regions.get(region.name) != digest:
            parts.append(region_html(region, digest))
            regions[region.name] = digest
    log = context["log"]
    frame = _log_frame(context)
    # Lines are told apart by their content alone: who reads them, the table's status and code are the log
    # frame's (a change of frame resends the whole region).
    if regions.get("log-frame") != frame or not sent.log:
        digest = region_digest(LOG, context)
        if regions.get(LOG.name) != digest:
            parts.append(region_html(LOG, digest))
            regions[LOG.name] = digest
        regions["log-frame"] = frame
    else:
        # Only new or changed lines are rendered. The whole region's digest is not kept up to date here: its
        # inputs hold the frame's, so a change of frame always resends it.
        added, changed = log_changes(sent.log, log)
        if added:
            parts.append(f'<ul hx-swap-oob="afterbegin:#loglines">{"".join(map(line_html, added))}</ul>')
        parts.extend(_oob(line_html(line)) for line in changed)
        regions[LOG.name] = "by-lines"
    sent.regions, sent.log = regions, log
    return "".join(parts)
