"""Shifu knowledge layer (see DESIGN.md)."""
