"""What every app may use, and which imports none of them: who may do what (directors),
the home game's bounds on money and chips, reading request values, names in reading order
and CSV cells safe to open in a spreadsheet."""
