from typing import Any

from django.http import HttpRequest

from core.permissions import is_director


def roles(request: HttpRequest) -> dict[str, Any]:
    return {"is_director": is_director(request.user)}
