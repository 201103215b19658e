"""Deterministic Chinese language analysis shared by context, planning, knowledge and evidence."""
