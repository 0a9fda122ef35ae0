"""Workflows of the live tables, one module per job (docs/style.md: ``<thing>_<verb>``):

- ``seats``: open a table, sit with a buy-in, sit out and in, options, leave, sockets, bots;
- ``play``: a player's move, the moves nobody waits for, the end of a hand;
- ``dealing``: what is due (time-outs, run-out streets, the next hand) and who is dealt in;
- ``chat``: a line of chat;
- ``hosting``: the host's controls (pause, resume, close, remove a seat);
- ``forced_bets``: the straddle and the bomb pot (the host's options and call, a player's
  straddle and vote, what the next deal is told);
- ``showing``: a player shows their cards after the hand, until the next one;
- ``preactions``: a player's move chosen before their turn, set or cleared;
- ``servers``: the processes serving sockets and their heartbeats;
- ``tournament``: what a tournament asks of its tables (open, stakes, hold, release, moves);
- ``bot_turns``: a house bot's move made at once (the bots' frame, a one-process harness);
- ``common``: the checks and helpers every workflow shares on the rows it reads.

Every change to a table is one call of the table state's face,
``STATE.change(table_id, version, decide)`` (``tables.runtime.state``): a workflow's
``decide`` says what it changes on the rows read (``Moved``, ``CHANGED`` or nothing), the
runtime reads, locks, writes and publishes (the refusal, ``TableError``, is
``tables.errors``').

The tables' public hooks are here too: ``hand_ended``, the signal a tournament table sends
after each hand (``tables.signals``), and ``table_panels_register``, how another app adds
its panels to a table's page (``tables.panels``).

Callers use the names below (``services.table_act(...)``); the modules import downwards
only (``make lint`` checks it): common <- play <- dealing, seats, bot_turns; common <-
forced_bets <- dealing, seats; common <- chat, hosting, preactions, showing, tournament;
servers <- seats; seats, tournament <- sockets.
"""

from tables.errors import TableError
from tables.panels import register as table_panels_register
from tables.services.bot_turns import bot_act, bot_to_act
from tables.services.chat import chat_post
from tables.services.common import may_host, require_user, rule_words
from tables.services.dealing import table_tick, tables_due, tables_waiting_on_bots
from tables.services.forced_bets import (
    bomb_pot_call,
    bomb_pot_vote,
    seat_straddle,
    table_forced_bets_set,
)
from tables.services.hosting import seat_remove, table_close, table_pause, table_resume
from tables.services.play import (
    ActResult,
    hand_summary,
    run_twice_vote,
    table_act,
    table_act_on_loop,
)
from tables.services.preactions import pre_action_set
from tables.services.seats import (
    bot_user,
    default_buy_ins,
    may_open_table,
    players_may_open_tables,
    seat_connection,
    seat_leave,
    seat_options,
    seat_rebuy,
    seat_request,
    seat_request_decide,
    seat_sit_in,
    seat_sit_out,
    seat_take,
    table_add_bots,
    table_create,
)
from tables.services.servers import SERVER_NAME, server_heartbeat, servers_forget_gone
from tables.services.showing import cards_show
from tables.services.sockets import SocketOpened, socket_open
from tables.services.tournament import (
    SeatMoved,
    Sitter,
    Stakes,
    bot_style_of,
    house_bot_user,
    seat_chips_add,
    seat_elsewhere,
    seat_move,
    seat_place,
    seat_remove_for,
    seat_sit_out_for,
    seat_vacate,
    table_hold,
    table_release,
    table_stakes_set,
    tournament_table_close,
    tournament_table_open,
)
from tables.signals import hand_ended

__all__ = [
    "SERVER_NAME",
    "ActResult",
    "bot_act",
    "bot_to_act",
    "hand_ended",
    "rule_words",
    "table_panels_register",
    "SeatMoved",
    "SocketOpened",
    "Sitter",
    "Stakes",
    "bot_style_of",
    "house_bot_user",
    "seat_chips_add",
    "seat_remove_for",
    "seat_sit_out_for",
    "seat_elsewhere",
    "seat_move",
    "seat_place",
    "seat_vacate",
    "table_hold",
    "table_release",
    "table_stakes_set",
    "tournament_table_close",
    "tournament_table_open",
    "TableError",
    "bomb_pot_call",
    "bomb_pot_vote",
    "bot_user",
    "cards_show",
    "chat_post",
    "default_buy_ins",
    "hand_summary",
    "may_host",
    "may_open_table",
    "players_may_open_tables",
    "pre_action_set",
    "require_user",
    "run_twice_vote",
    "seat_connection",
    "seat_leave",
    "seat_options",
    "seat_rebuy",
    "seat_remove",
    "seat_request",
    "seat_request_decide",
    "seat_sit_in",
    "seat_sit_out",
    "seat_straddle",
    "seat_take",
    "server_heartbeat",
    "servers_forget_gone",
    "socket_open",
    "table_act",
    "table_act_on_loop",
    "table_add_bots",
    "table_close",
    "table_pause",
    "table_resume",
    "table_create",
    "table_forced_bets_set",
    "table_tick",
    "tables_due",
    "tables_waiting_on_bots",
]
