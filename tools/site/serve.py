"""Serve the static site on the loopback interface with Python's own web server.

    python3 tools/site/serve.py [--dir site] [--host 127.0.0.1] [--port 8870]

The same as ``python3 -m http.server --bind 127.0.0.1 --directory site 8870``, but sure of the
content types a browser insists on for the site's files (JavaScript modules, WebAssembly), which
older Pythons' tables lack. Any static web server works the same way.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
from pathlib import Path

TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/octet-stream", ".woff2": "font/woff2",
         ".woff": "font/woff", ".ipynb": "application/json"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        if not getattr(self.server, "quiet", False):
            super().log_message(format, *args)


def make_server(directory: Path, host: str = "127.0.0.1", port: int = 0, quiet: bool = False) -> http.server.ThreadingHTTPServer:
    """A threading server for ``directory`` (port 0: a free one; see ``server.server_port``)."""
    server = http.server.ThreadingHTTPServer((host, port), functools.partial(Handler, directory=str(directory)))
    server.quiet = quiet  # type: ignore[attr-defined]
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the static site.")
    parser.add_argument("--dir", type=Path, default=Path("site"))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8870)
    args = parser.parse_args(argv)
    if not (args.dir / "index.html").is_file():
        print(f"{args.dir}/index.html not found: run `make site` first", file=sys.stderr)
        return 1
    server = make_server(args.dir, args.host, args.port)
    print(f"Serving {args.dir}/ at http://{args.host}:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
