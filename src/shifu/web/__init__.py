"""Shifu web layer (see DESIGN.md)."""
