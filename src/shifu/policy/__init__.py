"""Shifu policy layer (see DESIGN.md)."""
