"""Views of the tournaments, one module per area; each module lists its own URLs."""
