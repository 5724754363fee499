"""Board geometry of Sorry! (rules file sorry.md, section 1).

Locations are small ints so move generation stays cheap:

* ``START`` = -1, ``HOME`` = 66;
* ``0..59``: absolute track square ``A`` (clockwise, ``A = 0`` is the corner
  before Red's side, section 1.2);
* ``61..65``: safety square ``S1..S5`` of the pawn's *own* colour (the colour
  is carried by the pawn, so two colours' ``S2`` are both 62).

Colours are indexes into :data:`COLOURS` (clockwise order Red, Blue,
Yellow, Green, section 1.1).
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
LETTERS: tuple[str, ...] = ("R", "B", "Y", "G")
TRACK_LEN = 60
SAFETY_LEN = 5
START = -1
HOME = 66
SAFE0 = 60  # SAFE(k) is SAFE0 + k
BASE: tuple[int, ...] = (0, 15, 30, 45)
JUNCTION_R = 2
START_EXIT_R = 4
SHORT_SLIDE = (1, 4)
LONG_SLIDE = (9, 13)
PARTNER: tuple[int, ...] = (2, 3, 0, 1)  # Red/Yellow, Blue/Green sit opposite (section 1.1, 3.1)


def is_track(loc: int) -> bool:
    """True when ``loc`` is an outer-track square (0..59)."""
    return 0 <= loc < TRACK_LEN


def is_safe(loc: int) -> bool:
    """True when ``loc`` is a safety square S1..S5."""
    return SAFE0 < loc < HOME


def junction(colour: int) -> int:
    """The absolute square from which ``colour`` turns into its safety zone (section 1.1, r = 2)."""
    return BASE[colour] + JUNCTION_R


def start_exit(colour: int) -> int:
    """The absolute square where a pawn of ``colour`` leaving START is put (section 1.1, r = 4)."""
    return BASE[colour] + START_EXIT_R


def forward(loc: int, n: int, colour: int) -> int | None:
    """Where a ``colour`` pawn on ``loc`` ends after ``n`` forward steps, or ``None``.

    Section 1.4: a pawn turns into its safety zone at its junction and never
    passes it on the track; HOME needs the exact count (overshoot is
    ``None``); pawns in START or HOME do not move by count.
    """
    if 0 <= loc < TRACK_LEN:
        r = (loc - BASE[colour]) % TRACK_LEN
        to_junction = JUNCTION_R - r if r <= JUNCTION_R else TRACK_LEN + JUNCTION_R - r
        if n <= to_junction:
            return (loc + n) % TRACK_LEN
        k = n - to_junction
    elif SAFE0 < loc < HOME:
        k = loc - SAFE0 + n
    else:
        return None
    if k <= SAFETY_LEN + 1:
        return SAFE0 + k  # SAFE0 + 6 == HOME
    return None


def backward(loc: int, n: int, colour: int) -> int | None:
    """Where a ``colour`` pawn on ``loc`` ends after ``n`` backward steps, or ``None``.

    Section 1.4 / 2.3: backward moves never enter a safety zone, but leave it
    (S1 back one is the junction); START and HOME pawns cannot move back.
    """
    if 0 <= loc < TRACK_LEN:
        return (loc - n) % TRACK_LEN
    if SAFE0 < loc < HOME:
        k = loc - SAFE0
        if n < k:
            return loc - n
        return (junction(colour) - (n - k)) % TRACK_LEN
    return None


def slide_at(square: int) -> tuple[int, int, int] | None:
    """``(owner colour, triangle, end)`` when ``square`` is a slide triangle, else ``None`` (section 1.3)."""
    colour, r = divmod(square, 15)
    if r == SHORT_SLIDE[0]:
        return colour, square, square + SHORT_SLIDE[1] - SHORT_SLIDE[0]
    if r == LONG_SLIDE[0]:
        return colour, square, square + LONG_SLIDE[1] - LONG_SLIDE[0]
    return None


def slide_squares() -> dict[int, tuple[int, str]]:
    """Every slide square -> (owner colour, ``"triangle"`` / ``"middle"`` / ``"end"``), for drawing."""
    out: dict[int, tuple[int, str]] = {}
    for colour in range(4):
        for a, b in (SHORT_SLIDE, LONG_SLIDE):
            for r in range(a, b + 1):
                part = "triangle" if r == a else "end" if r == b else "middle"
                out[BASE[colour] + r] = (colour, part)
    return out


def distance_to_home(loc: int, colour: int) -> int | None:
    """Forward steps from ``loc`` to HOME (section 1.2 progress metric); ``None`` in START."""
    if loc == START:
        return None
    if loc == HOME:
        return 0
    if is_safe(loc):
        return HOME - loc
    r = (loc - BASE[colour]) % TRACK_LEN
    return (JUNCTION_R - r if r <= JUNCTION_R else TRACK_LEN + JUNCTION_R - r) + SAFETY_LEN + 1


# -- drawing coordinates (section 1.3 laid out as a 16 x 16 square loop) -------

CELL = 22
MARGIN = 8


def _rotate(x: float, y: float, colour: int) -> tuple[float, float]:
    for _ in range(colour):
        x, y = 15 - y, x
    return x, y


def _px(x: float, y: float) -> tuple[int, int]:
    return round(MARGIN + x * CELL + CELL / 2), round(MARGIN + y * CELL + CELL / 2)


def track_xy(square: int) -> tuple[int, int]:
    """Pixel centre of track square ``square`` (Red's side along the top, clockwise)."""
    colour, r = divmod(square, 15)
    return _px(*_rotate(r, 0, colour))


def safe_xy(colour: int, k: int) -> tuple[int, int]:
    """Pixel centre of ``colour``'s safety square S``k``."""
    return _px(*_rotate(JUNCTION_R, k, colour))


def start_xy(colour: int, i: int) -> tuple[int, int]:
    """Pixel centre of pawn slot ``i`` (0..3) in ``colour``'s START area."""
    return _px(*_rotate(START_EXIT_R - 0.5 + (i % 2), 1.5 + (i // 2), colour))


def home_xy(colour: int, i: int) -> tuple[int, int]:
    """Pixel centre of pawn slot ``i`` (0..3) in ``colour``'s HOME area."""
    return _px(*_rotate(JUNCTION_R - 0.5 + (i % 2), 6.3 + (i // 2), colour))


def loc_xy(loc: int, colour: int, i: int) -> tuple[int, int]:
    """Pixel centre of pawn ``i`` of ``colour`` standing on ``loc``."""
    if loc == START:
        return start_xy(colour, i)
    if loc == HOME:
        return home_xy(colour, i)
    if is_safe(loc):
        return safe_xy(colour, loc - SAFE0)
    return track_xy(loc)


VIEWBOX = f"0 0 {2 * MARGIN + 16 * CELL} {2 * MARGIN + 16 * CELL}"
