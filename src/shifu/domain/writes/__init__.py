"""Domain write ports: the only way a confirmed draft reaches a domain system.

Four ports (memory, practice assignment, review dispatch, work report), each with an
embedded adapter over the SQL store and an HTTP adapter for the company's systems. Both
adapters de-duplicate on the caller's idempotency key and answer with the domain's own
record id, time and status — the only thing a "done" message may quote.
"""
