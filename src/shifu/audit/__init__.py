"""Run audit and structured logs: hashes, codes, counts and timings — never personal text."""
