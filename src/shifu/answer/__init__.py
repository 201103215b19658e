"""Shifu answer layer (see DESIGN.md)."""
