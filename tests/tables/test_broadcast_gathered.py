"""Players' sockets open in bursts; the table's news of them goes out once per burst."""

from __future__ import annotations

import asyncio

from channels.layers import get_channel_layer

from tables.runtime import broadcast


def test_a_burst_of_connections_is_one_broadcast_at_the_latest_version(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()

    async def scenario() -> list[dict]:
        broadcast.remember_socket_loop()
        mine = await layer.new_channel()
        await layer.group_add(broadcast.table_group(9), mine)
        # Six players' sockets open at once, each flip from a thread of its own (as
        # ``seat_connection`` runs), each with the version it wrote.
        await asyncio.gather(
            *(asyncio.to_thread(broadcast.table_changed_soon, 9, v) for v in range(11, 17))
        )
        got = [await asyncio.wait_for(layer.receive(mine), 2)]
        try:
            got.append(await asyncio.wait_for(layer.receive(mine), broadcast.GATHER_SECONDS * 3))
        except TimeoutError:
            pass
        # A later burst is news of its own.
        await asyncio.to_thread(broadcast.table_changed_soon, 9, 20)
        got.append(await asyncio.wait_for(layer.receive(mine), 2))
        await layer.group_discard(broadcast.table_group(9), mine)
        return got

    got = asyncio.run(scenario())
    assert got == [
        {"type": "table.changed", "version": 16},
        {"type": "table.changed", "version": 20},
    ]
