"""Confirmation cards: drafts of writes that run only after the user confirms them.

A draft tool never writes; it builds a validated payload, stores it behind an opaque
30-minute ticket and shows it as an `ActionDraftCard`. `ActionService.confirm` executes
exactly the shown (possibly edited, re-validated) payload once per idempotency key,
through a domain write port, and only then may any text say the thing is done.
"""
