"""``{{ part("ID", "ELEMENT", "body.jinja", name=value, ...) }}``: a piece of a region drawn from exactly its inputs.

A region (games/read/regions.py) is one Jinja2 template drawn per phone; most of
what a board shows is the same on every phone (the map, the public supply),
and only a little is one seat's own (its screen, its legal taps). A part
marks such a piece: its body is a template drawn from the named inputs and nothing
else of the region's values (games/web/jinja2env.py ``part``), so

* its HTML depends on exactly those values: it is made once per distinct
  content (inputs, language) on the table's snapshot and reused by every
  phone, and by later moves, that show the same;
* its digest (a hash of those values) tells a socket whether the phone
  already shows it: a push that changes a board's map sends the map part,
  not the whole board (:func:`games.read.regions.push`).

A part drawn in a loop builds its id from what the pass draws (``part("ar-head-" ~ p.seat, ...)``).
In the page the part is ``<ELEMENT id="ID" class="part">body</ELEMENT>`` (the class takes no box). ``ELEMENT`` is
the element that holds the body on the page; an SVG element (``g``) is sent
in an ``<svg>`` so that the phone parses its body as SVG. Parts do not nest
(a part inside another is drawn in place, as part of the outer one).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language

#: The context key under which a region's render collects the parts it drew (a list); without it, a part is drawn
#: in place (a whole page, a region drawn for a test).
SINK = "_parts"
SVG_ELEMENTS = frozenset({"g", "svg", "defs"})

# One encoder for every digest: ``json.dumps`` with these options builds a new encoder per call, which costs
# about as much as encoding a region's small inputs. Same options, same bytes.
_ENCODE = json.JSONEncoder(sort_keys=True, default=str, separators=(",", ":")).encode


def content_digest(value: Any) -> str:
    """A short hash of ``value`` (JSON-able; anything else by its ``str``): equal content, equal digest. Regions
    (games/read/regions.py) and parts digest what they show with it."""
    return hashlib.sha1(_ENCODE(value).encode()).hexdigest()[:20]


def text_digest(text: str) -> str:
    """A short hash of a string (a region's skeleton): equal text, equal digest."""
    return hashlib.sha1(text.encode()).hexdigest()[:20]


@dataclass(frozen=True)
class Part:
    """One part drawn in a region: its DOM id, its element, its digest and its body's HTML (ASCII digits)."""

    id: str
    element: str
    digest: str
    inner: str

    def html(self) -> str:
        """The part as it stands in the page: its element, with its id, around its body (an HTML element has the
        class ``part``, which takes no box: the body lays out as if the element were not there)."""
        if self.element in SVG_ELEMENTS:
            return f'<{self.element} id="{self.id}">{self.inner}</{self.element}>'
        return f'<{self.element} id="{self.id}" class="part">{self.inner}</{self.element}>'

    def swap(self, inner: str) -> str:
        """An htmx out-of-band swap that puts ``inner`` (this part's body, its digits localized) in the phone's
        element with this id; an SVG part travels in an ``<svg>`` so that the phone parses it as SVG."""
        if self.element in SVG_ELEMENTS:
            return f'<svg hx-swap-oob="innerHTML:#{self.id}">{inner}</svg>'
        return f'<{self.element} id="{self.id}" hx-swap-oob="innerHTML">{inner}</{self.element}>'


def marker(part_id: str) -> str:
    """What a region's render holds where a collected part goes (a comment no template writes)."""
    return f"<!--part:{part_id}-->"


def assemble(skeleton: str, parts: list[Part]) -> str:
    """The region's HTML: ``skeleton`` (a render with a :func:`marker` per collected part) with the parts in."""
    html = skeleton
    for p in parts:
        html = html.replace(marker(p.id), p.html(), 1)
    return html


def held(snap: Any, kind: str, name: Any, values: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """``make()`` (made from ``values``, and from nothing else but ``name``), made once on snapshot ``snap`` for these
    very objects ``values``: a later call with the same objects gets the same value back.

    The memo (``kind``, never one of the content-keyed kinds: an ``id`` names an object only while it lives) keeps
    the objects, so an ``id`` in its key is never reused while it holds them; callers never mutate them nor what
    ``make`` returned. ``snap`` ``None``: made each time.
    """
    if snap is None:
        return make()
    entry = snap.memo(kind, (name, *map(id, values)), lambda: (values, make()))
    if all(a is b for a, b in zip(entry[0], values, strict=True)):
        return entry[1]
    return make()


def held_digest(snap: Any, name: Any, values: tuple[Any, ...], shown: Callable[[], Any] | None = None) -> str:
    """The :func:`content_digest` of ``shown()`` (default: ``[name, *values]``), made once on snapshot ``snap``
    for these very objects ``values`` (what ``shown`` is made from: :func:`held`).

    A seat's view holds the pieces it shows alike with the table screen as the screen view's own objects
    (:func:`games.read.presenters.share_equal`), and the public part of a context is one object per snapshot,
    so the phones of a table digest the same piece once. ``snap`` ``None``: digested as is.
    """
    make = shown or (lambda: [name, *values])
    return held(snap, "digest", name, values, lambda: content_digest(make()))


def piece_digest(snap: Any, value: Any) -> list[Any]:
    """``value`` as a digest's input: a container as ``["d", digest]``, its content digested once per snapshot
    ``snap`` for this very object (:func:`held_digest`), anything else as ``["v", value]``. A piece several
    parts and regions read (a board's islands, a player's counts) is then encoded once per snapshot, not once
    per reader; the tag keeps a digest apart from a string that reads the same."""
    if isinstance(value, (dict, list, tuple)):
        return ["d", held_digest(snap, "piece", (value,))]
    return ["v", value]


def digest(origin: str, part_id: str, inputs: dict[str, Any], snap: Any = None) -> str:
    """The digest of a part: its template and id, the language, and its inputs (same digest, same HTML); made
    once per snapshot ``snap`` for the same input objects (:func:`held_digest`), each input container's content
    once per snapshot whatever reads it (:func:`piece_digest`)."""
    name = (origin, part_id, get_language(), *inputs)
    return held_digest(snap, name, tuple(inputs.values()),
                       lambda: [name, [piece_digest(snap, v) for v in inputs.values()]])


def made(snap: Any, origin: str, part_id: str, dom_id: str, element: str, inputs: dict[str, Any],
         draw: Callable[[], str]) -> Part:
    """The part ``part_id`` of template ``origin`` drawn from ``inputs`` (by ``draw()``, once per :func:`digest` on
    snapshot ``snap`` and the snapshots that follow it; every time without one), as DOM element ``element`` with id
    ``dom_id`` (escaped). The one way a part is made (``part(...)`` of a region's template: games/web/jinja2env.py).

    On ``snap``, the part made from these very input objects is made once: every phone's region that draws it
    from the same objects (a piece a seat's view shares with the table screen's, the public part) gets that
    ``Part`` back without digesting its inputs again (as :func:`held_digest` keeps a digest)."""

    def make() -> Part:
        key = digest(origin, part_id, inputs, snap)
        inner = draw() if snap is None else snap.memo("html", ("part", key), draw)
        return Part(dom_id, element, key, inner)

    return held(snap, "part", (origin, part_id, element, get_language(), *inputs), tuple(inputs.values()), make)


def placed(part: Part, sink: list[Part] | None) -> str:
    """What a region's template writes for ``part`` (HTML, safe as it is): its :func:`marker`, the part joining
    ``sink`` (a region drawn for a push), or the part itself without a sink (a whole page, a region drawn for a
    test)."""
    if sink is None:
        return part.html()
    sink.append(part)
    return marker(part.id)
