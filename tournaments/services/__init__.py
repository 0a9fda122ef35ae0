"""Workflows of the tournaments, one module per job (docs/style.md: ``<thing>_<verb>``):

- ``blind_structures``: blind structures, templates, the generator and the editor's edits;
- ``clock``: the blind clock, a package split by job (its controls, tonight's levels,
  hand-for-hand, the sweep, the screens' payload);
- ``lifecycle``: a tournament's settings and its start;
- ``entries``: registration, walk-ins, late entries, rebuys, re-entries, add-ons, undo;
- ``seating``: the seat draw, balancing, breaking tables, the final table, buttons;
- ``results``: eliminations, places, prizes, deals, finishing and its signal.
"""
