"""Shifu domain layer (see DESIGN.md)."""
