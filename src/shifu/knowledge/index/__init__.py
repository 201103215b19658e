"""The governed vector index: one adapter Protocol, an embedded engine and a client engine."""
