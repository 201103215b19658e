"""SQL storage: the declarative base, engines, tables per area and Alembic migrations."""
