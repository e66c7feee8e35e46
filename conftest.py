"""The doctests of a module whose optional extra is missing are not collected (the rest of the
suite runs without the extras; the tests of that module skip)."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("numpy") else ["smallworld_rules/selfplay.py"]
