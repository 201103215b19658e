"""The demo deployment: tenant, actors, their work and the company knowledge base."""
