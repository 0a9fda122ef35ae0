"""One-time tokens for the console's forms: a double tap, or a form sent twice, records once.

Every console form renders ``{% once_token %}`` (``tournaments.templatetags.once_token``), a
hidden input with a fresh random token. Every console POST view is wrapped by ``once`` (the
director's actions by ``console_action``, which is ``director_action`` plus ``once``): it runs
the view inside ``services.undo.action_token``, so the workflow's logged action carries the
token, and a second post with the same token is refused by the workflow itself ("That was
already recorded"), answered by each view as any other refusal (its section with the
message under htmx, the console with the message without JavaScript).

The token is spent only by an action that is recorded: a refused post (a stack above the
limit, say) leaves the same form usable once corrected. A post without a token is accepted:
every console form renders one, so only a script or a page older than the tokens sends
none, and neither double-taps. A token that is not one we render is refused with 400.
Posts that record no action carry a token too, which changes nothing for them: Undo names
the action it reverses (``services.undo.action_undo``), a deal proposal changes nothing,
and a deal offer or its withdrawal is guarded by the offer's own state.

The players' own online rebuy is guarded by the count of rebuys the screen showed
(``services.purchases``); that check fits one kind of action only, where a token fits every
form alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext as _

from tournaments.permissions import director_action
from tournaments.services import undo

View = Callable[..., HttpResponse]

# The form field, and what a token looks like (``secrets.token_urlsafe`` and the like).
FIELD = "once_token"
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def once(view: View) -> View:
    """Run ``view`` so the action it records carries the form's one-time token."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        token = request.POST.get(FIELD, "")
        if token and not TOKEN.fullmatch(token):
            return HttpResponseBadRequest(
                _("This form's one-time key is not valid: reload the console and try again."),
                content_type="text/plain; charset=utf-8",
            )
        with undo.action_token(token or None):
            return view(request, *args, **kwargs)

    return wrapper


def console_action(view: View) -> View:
    """A director's console action: POST only, directors only (``director_action``), and
    recorded once per form (``once``)."""
    return director_action(once(view))
