"""Scripted campaigns and helpers shared by the tracker's tests (tests/test_campaign*.py)."""
