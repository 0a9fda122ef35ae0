"""URLs of the tournaments: each view module lists its own."""

from tournaments.views import (
    blind_structures,
    clock,
    console,
    console_chips,
    console_online,
    console_ops,
    console_pins,
    console_requests,
    lobby,
    night,
    night_pin,
    pages,
    sheets,
)

app_name = "tournaments"

urlpatterns = [
    *pages.urlpatterns,
    *blind_structures.urlpatterns,
    *clock.urlpatterns,
    *console.urlpatterns,
    *console_ops.urlpatterns,
    *console_chips.urlpatterns,
    *console_online.urlpatterns,
    *console_pins.urlpatterns,
    *lobby.urlpatterns,
    *sheets.urlpatterns,
    *night_pin.urlpatterns,
    *night.urlpatterns,
    *console_requests.urlpatterns,
]
