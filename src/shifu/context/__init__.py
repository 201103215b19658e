"""Shifu context layer (see DESIGN.md)."""
