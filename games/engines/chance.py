"""The table's random source: seeded, replay-free (shared/STYLE.md principle 5)."""

from __future__ import annotations

import random


def table_rng(seed: int, sequence: int) -> random.Random:
    """The RNG for the chance step that becomes action number ``sequence`` of a table.

    Deriving it from (seed, sequence) keeps no RNG state between requests:
    the outcome is stored in the logged action, so replay never calls it.
    Sequence 0 is the set-up shuffle.
    """
    return random.Random(f"{seed}:{sequence}")
