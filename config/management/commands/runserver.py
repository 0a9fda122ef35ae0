"""``manage.py runserver``: daphne's, which serves the live tables' WebSockets as well as HTTP
(``manage.py serve`` is the way to host a night: daphne and, embedded, Celery as well).

Daphne's app would bring this command too, but it imports daphne's server when Django starts,
in every process; this module is imported only when the command runs.
"""

from daphne.management.commands.runserver import Command as DaphneRunserver


class Command(DaphneRunserver):
    help = DaphneRunserver.help
