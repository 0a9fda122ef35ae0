"""A server shutting down exits: a broadcast sent after its sockets' loop stopped returns."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async

from tables.runtime import broadcast

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def test_a_broadcast_after_the_sockets_loop_stopped_returns_at_once(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CHANNEL_LAYERS = IN_MEMORY
    loop = asyncio.new_event_loop()
    serving = threading.Thread(target=loop.run_forever, daemon=True)
    serving.start()
    working, stopped, done = threading.Event(), threading.Event(), threading.Event()

    def database_work() -> None:
        # A socket's database thread, as a move's after-commit hook runs on it.
        working.set()
        stopped.wait(5)
        broadcast.table_changed(1, 2)
        done.set()

    async def socket() -> None:
        broadcast.remember_socket_loop()
        await sync_to_async(database_work, thread_sensitive=False)()

    asyncio.run_coroutine_threadsafe(socket(), loop)
    try:
        assert working.wait(5)
        loop.call_soon_threadsafe(loop.stop)  # daphne stops its loop on SIGTERM
        serving.join(5)
        stopped.set()
        # Before, the send waited for the stopped loop for ever, and the process with it.
        assert done.wait(5), "the broadcast waited for a loop that had stopped"
    finally:
        stopped.set()
        left = asyncio.all_tasks(loop)
        loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
        loop.close()
