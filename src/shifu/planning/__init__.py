"""Shifu planning layer (see DESIGN.md)."""
