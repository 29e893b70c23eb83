"""Referee: the pure ruling engine lives in ``referee.engine``; the Django app wraps it."""
