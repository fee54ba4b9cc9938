"""``python -m railkit.tables``: serve class tables on this machine (loopback unless told otherwise)."""

from __future__ import annotations

import argparse
import logging

import uvicorn

from railkit.tables.protocol import MAX_MESSAGE_BYTES, Limits
from railkit.tables.server import create_app
from railkit.tables.store import Store, database_url


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m railkit.tables", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    parser.add_argument("--port", type=int, default=8867)
    parser.add_argument("--db", default=None, help="database URL: sqlite:///PATH or postgresql://...; default "
                                                   "$RAILKIT_DB, else tables.sqlite in $RAILKIT_DATA")
    parser.add_argument("--max-tables", type=int, default=Limits.max_tables)
    parser.add_argument("--actions-per-second", type=float, default=Limits.actions_per_second)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    limits = Limits(max_tables=args.max_tables, actions_per_second=args.actions_per_second)
    app = create_app(Store(database_url(args.db)), limits)
    # The WebSocket frame limit sits above the protocol's own, so a message a little too big gets an
    # answer in words (TABLES-SIZE) and only a much bigger one closes the connection (1009).
    # No per-message compression: the clients are the lessons' kernels on the same machine or network, and
    # deflating every state for every seat cost the server more than sending it (benchmarks/tables.py).
    uvicorn.run(app, host=args.host, port=args.port, ws="websockets-sansio", ws_max_size=4 * MAX_MESSAGE_BYTES,
                ws_per_message_deflate=False, log_level="warning", lifespan="on")


if __name__ == "__main__":
    main()
