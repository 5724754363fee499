"""The shelf: one folder per game.

A game is one folder here plus one registry line (``games.engines.REGISTRY``, ``"shelf.<slug>:Class"``).
The folder holds all of it: the engine (plain Python, the contract of ``games/engines/base.py``), its web
adapter (``web.py``), its board templates (``templates/<slug>/``), its stylesheet (``static/<slug>/``), its
rules at hand (``rules_at_hand/<lang>.txt``), its own words (``locale/``) and, if it has an edition editor,
the Django view of it (``editor.py``). Each folder is a Django app, installed from the registry
(``companion/settings.py``); the platform (``games/``) names no game.
"""
