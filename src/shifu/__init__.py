"""Shifu (师傅): a grounded, constrained business agent for property-management frontline staff."""

__version__ = "0.1.0"
