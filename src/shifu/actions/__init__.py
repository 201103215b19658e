"""Shifu actions layer (see DESIGN.md)."""
