"""French dates and times as a French player writes them, over Django's French formats.

"vendredi 27 novembre 2026 · 19 h 30": the day and month in words, and the hour written with
"h" as French typography wants it. Numbers keep Django's French separators: a non-breaking
space between thousands ("10 000 jetons") and a decimal comma.
"""

DATE_FORMAT = "l j F Y"  # vendredi 27 novembre 2026
TIME_FORMAT = r"G \h i"  # 19 h 30
DATETIME_FORMAT = r"l j F Y · G \h i"  # vendredi 27 novembre 2026 · 19 h 30
SHORT_DATE_FORMAT = "j N Y"  # 27 nov. 2026
SHORT_DATETIME_FORMAT = r"D j N · G \h i"  # ven. 27 nov. · 19 h 30
MONTH_DAY_FORMAT = "D j N"  # ven. 27 nov.
YEAR_MONTH_FORMAT = "F Y"  # novembre 2026
THOUSAND_SEPARATOR = "\u00a0"
DECIMAL_SEPARATOR = ","
NUMBER_GROUPING = 3
