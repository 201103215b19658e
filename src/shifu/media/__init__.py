"""Shifu media layer (see DESIGN.md)."""
