"""Live tables: models come with the live-tables issue."""
