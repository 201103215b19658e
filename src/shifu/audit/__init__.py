"""Shifu audit layer (see DESIGN.md)."""
