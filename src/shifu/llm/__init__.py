"""Shifu llm layer (see DESIGN.md)."""
