"""People's names in the order a reader expects, on every database.

A list of players reads by name the way a phone book does: accents and case do not move a
name to the end ("Élodie" between "Eddie" and "Fanny"; "eddie" beside "Eddie"). Databases
do not do that by themselves: SQLite compares bytes, and PostgreSQL follows the database's
collation (often "C", bytes again). Lists already in memory sort with ``name_key``; querysets
order by ``NameOrder("name")`` (or ``NameOrder("player__name")``), which gives the same order
in SQL.

>>> sorted(["Zoé", "Fanny", "Élodie", "eddie"], key=name_key)
['eddie', 'Élodie', 'Fanny', 'Zoé']
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db.models import CharField, Func

# The SQLite collation registered on each connection (``sqlite_collation_register``).
SQLITE_COLLATION = "series_name"
# PostgreSQL's language-neutral ICU collation: base letters first, then accents, then case.
POSTGRESQL_COLLATION = "und-x-icu"


def name_key(name: str) -> tuple[str, str, str]:
    """Sort key of a name: its letters without accents or case first, so only names that
    read the same are told apart by their accents, then by their case (lower case first,
    as PostgreSQL's ICU collation does: hence the swapped case)."""
    folded = unicodedata.normalize("NFKD", name).casefold()
    bare = "".join(c for c in folded if not unicodedata.combining(c))
    return bare, folded, name.swapcase()


def _compare(a: str, b: str) -> int:
    key_a, key_b = name_key(a), name_key(b)
    return (key_a > key_b) - (key_a < key_b)


def sqlite_collation_register(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Give each new SQLite connection the collation ``NameOrder`` uses (connected to
    ``connection_created`` in ``SeriesConfig.ready``)."""
    if connection.vendor == "sqlite":
        connection.connection.create_collation(SQLITE_COLLATION, _compare)


class NameOrder(Func):
    """A name column to order by as a reader expects: ``order_by(NameOrder("name"), "pk")``.

    SQLite uses the collation built on ``name_key``; PostgreSQL its ICU collation, which
    gives the same order for names. Other databases fall back to the lower-cased name.
    """

    template = "LOWER(%(expressions)s)"
    output_field = CharField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        template = f"%(expressions)s COLLATE {SQLITE_COLLATION}"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        template = f'%(expressions)s COLLATE "{POSTGRESQL_COLLATION}"'
        return self.as_sql(compiler, connection, template=template, **extra)
