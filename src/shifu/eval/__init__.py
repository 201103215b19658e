"""Shifu eval layer (see DESIGN.md)."""
