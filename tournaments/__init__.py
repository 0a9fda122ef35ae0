"""Blind structures, tournaments, entries, seating and the blind clock."""
