"""The ASGI process tunes the garbage collector only while ``settings.GC_TUNING`` is on (companion/asgi.py)."""

from __future__ import annotations

import gc

import pytest

from companion import asgi


@pytest.fixture
def default_collector():
    """Python's default collector for the test (nothing frozen, thresholds 700/10/10), and the test's own back after."""
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    if frozen:
        gc.freeze()


@pytest.mark.parametrize("on", [True, False])
def test_the_collector_is_tuned_only_when_gc_tuning_is_on(settings, default_collector, on):
    settings.GC_TUNING = on
    assert asgi.tune_garbage_collector() is on
    if on:
        assert gc.get_threshold() == (20000, 50, 100) and gc.get_freeze_count() > 0
    else:
        assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0
