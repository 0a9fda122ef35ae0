"""The shared Omaha engine: pure Python, no Django import, usable on its own."""
