"""Shifu tools layer (see DESIGN.md)."""
