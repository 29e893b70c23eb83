"""Scoring: the pure engine lives in ``scoring.engine``; the Django app wraps it."""
