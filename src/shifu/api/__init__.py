"""Shifu api layer (see DESIGN.md)."""
