"""Tournaments and the blind clock: models come with the tournaments issue."""
