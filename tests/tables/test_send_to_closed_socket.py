"""A frame on its way to a socket its reader has just closed is no failure."""

from __future__ import annotations

import asyncio
import logging

import pytest
from autobahn.exception import Disconnected

from tables.consumers import TableConsumer


def test_a_broadcast_to_a_socket_just_closed_logs_no_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    consumer = TableConsumer()
    consumer.table_id = 7

    async def closed(message: object) -> None:
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed  # what daphne does once the reader has gone
    with caplog.at_level(logging.INFO, logger="tables.consumers"):
        asyncio.run(consumer.dispatch({"type": "table.chat", "frame": {}}))
    assert [r.levelname for r in caplog.records] == ["INFO"]
    assert "closed socket" in caplog.records[0].getMessage()
