"""Shifu runtime layer (see DESIGN.md)."""
