"""The series app: seasons, events on the calendar, results, standings, players and money."""
