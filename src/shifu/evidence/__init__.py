"""Shifu evidence layer (see DESIGN.md)."""
