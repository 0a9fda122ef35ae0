"""The live tables' runtime: what a process keeps of its tables, and the one way a change
reaches the database and the sockets (docs/moves.md).

- ``state``: the table state (``STATE``), the steps of a change (read, engine, write,
  publish) and where they run (a thread or the socket's event loop);
- ``snapshots``: the built state the sockets send, once per version;
- ``kept_rows``: the rows of a table's newest version, for the next move;
- ``engines``: a hand's engine, kept per hand;
- ``rows``: the row storage, the lean SQL every move reads and writes, the one place the
  database's dialect is chosen;
- ``broadcast``: the news of a change to the table's sockets in every process;
- ``loop_db``: an event loop's own PostgreSQL connections.

The runtime sits below the services and never imports them; its refusals are in
``tables.errors``.
"""
