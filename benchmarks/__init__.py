"""Benchmarks of smallworld_rules (run ``python -m benchmarks``)."""
