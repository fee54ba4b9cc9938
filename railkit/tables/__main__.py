"""``python -m railkit.tables``: serve class tables on this machine (loopback unless told otherwise)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import uvicorn

from railkit.classroom.records import RecordLimits
from railkit.classroom.teacher import KEY_FILE_NAME, KeyProblem, load_key
from railkit.tables.hub import HubProblem, HubSignIn
from railkit.tables.limits import Limits
from railkit.tables.server import create_app
from railkit.tables.store import Store, database_url
from railkit.wire import MAX_MESSAGE_BYTES


def key_file_beside(url: str) -> Path | None:
    """A SQLite database's folder keeps the teacher key too; elsewhere the default place does."""
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return Path(url[len("sqlite:///"):]).parent / KEY_FILE_NAME
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m railkit.tables", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    parser.add_argument("--port", type=int, default=8867)
    parser.add_argument("--db", default=None, help="database URL: sqlite:///PATH or postgresql://...; default "
                                                   "$RAILKIT_DB, else tables.sqlite in $RAILKIT_TABLES_DATA")
    parser.add_argument("--teacher-key-file", type=Path, default=None,
                        help="where the teacher key is kept (made there on first start); default teacher.key beside a SQLite "
                             "database, else in $RAILKIT_TABLES_DATA; $RAILKIT_TEACHER_KEY overrides it")
    parser.add_argument("--max-tables", type=int, default=Limits.max_tables)
    parser.add_argument("--actions-per-second", type=float, default=Limits.actions_per_second)
    parser.add_argument("--stand-in-after", type=float, default=Limits.stand_in_after,
                        help="seconds a learner must have been away before the table's creator may put a computer "
                             "player in their seat (TABLES-STAND-IN; the teacher may at any time)")
    parser.add_argument("--records-per-second", type=float, default=RecordLimits.per_learner_per_second,
                        help="learning records a learner may send a second (RECORDS-RATE)")
    parser.add_argument("--records-per-client", type=float, default=RecordLimits.per_client_per_second,
                        help="learning records one client (a hub user, else an address) may send a second")
    parser.add_argument("--spectators-per-table", type=int, default=Limits.spectators_per_table,
                        help="spectators' connections one table takes (TABLES-WATCHERS; its learners always get in)")
    parser.add_argument("--spectators-per-client", type=int, default=Limits.spectators_per_client,
                        help="spectators' connections to one table from one client (a hub user, else an address)")
    parser.add_argument("--outbox-messages", type=int, default=Limits.outbox_messages,
                        help="messages waiting for one connection before it counts as fallen behind and is closed "
                             "(4408: the client connects again and takes the whole state)")
    parser.add_argument("--chosen-deals", action="store_true",
                        help="let a table's creator choose its deal (\"seed\", a stacked deck): for tests and "
                             "demonstrations only; such a table tells everyone at it (TABLES-DEAL)")
    parser.add_argument("--hub-auth", action="store_true",
                        help="run as a managed service of JupyterHub: every request signs in with a hub API token "
                             "(learners are the hub's users; its admins and teachers group are the teachers)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    limits = Limits(max_tables=args.max_tables, actions_per_second=args.actions_per_second,
                    stand_in_after=max(0.0, args.stand_in_after), spectators_per_table=args.spectators_per_table,
                    spectators_per_client=args.spectators_per_client, outbox_messages=max(1, args.outbox_messages),
                    chosen_deals=args.chosen_deals)
    try:
        key = load_key(args.teacher_key_file or key_file_beside(database_url(args.db)))
        hub = HubSignIn() if args.hub_auth else None
    except (KeyProblem, HubProblem) as exc:
        parser.exit(2, f"{exc}\n")
    app = create_app(Store(database_url(args.db)), limits, teacher_key=key,
                     record_limits=RecordLimits(per_learner_per_second=args.records_per_second,
                                                per_client_per_second=args.records_per_client), hub=hub)
    # The WebSocket frame limit sits above the protocol's own, so a message a little too big gets an
    # answer in words (TABLES-SIZE) and only a much bigger one closes the connection (1009).
    # No per-message compression: the clients are the lessons' kernels on the same machine or network, and
    # deflating every state for every seat cost the server more than sending it (benchmarks/tables.py).
    uvicorn.run(app, host=args.host, port=args.port, ws="websockets-sansio", ws_max_size=4 * MAX_MESSAGE_BYTES,
                ws_per_message_deflate=False, log_level="warning", lifespan="on")


if __name__ == "__main__":
    main()
