"""English dates and times as the site writes them, over Django's own English formats.

Templates name a format (``{{ event.starts_at|date:"DATETIME_FORMAT" }}``) instead of writing
one, so each language can order and punctuate it its own way (see ``fr/formats.py``).
"""

DATE_FORMAT = "l j F Y"  # Friday 27 November 2026
TIME_FORMAT = "H:i"  # 19:30
DATETIME_FORMAT = "l j F Y · H:i"  # Friday 27 November 2026 · 19:30
SHORT_DATE_FORMAT = "j M Y"  # 27 Nov 2026
SHORT_DATETIME_FORMAT = "D j M, H:i"  # Fri 27 Nov, 19:30
MONTH_DAY_FORMAT = "D j M"  # Fri 27 Nov
YEAR_MONTH_FORMAT = "F Y"  # November 2026
