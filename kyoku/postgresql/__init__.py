"""Django's PostgreSQL backend, waiting out a database restart when it connects (see base)."""
