"""Serve the static site on the loopback interface with Python's own web server.

    python3 tools/site/serve.py [--dir site] [--host 127.0.0.1] [--port 8870]

Like ``python3 -m http.server --bind 127.0.0.1 --directory site 8870`` (which works too), plus:
* the content types a browser insists on for the site's files (JavaScript modules, WebAssembly),
  which older Pythons' tables lack;
* gzip for text and WebAssembly, as most web hosts do (GitHub Pages, nginx, Apache): it more than
  halves Pyodide's runtime and the JavaScript. Each file is compressed once and kept in memory;
* ``Cache-Control`` as GitHub Pages sends it (``max-age=600``): a lesson opened after another takes
  Pyodide, the wheels and the JavaScript from the browser's cache without asking the server again
  (then with ``If-Modified-Since``, answered 304). Files named by their content (``?v=<hash>``,
  ``name.<hash>.js``) never change: ``immutable``, a year.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import os
import re
import sys
from pathlib import Path

TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/octet-stream", ".woff2": "font/woff2",
         ".woff": "font/woff", ".ipynb": "application/json"}


COMPRESSIBLE = (".js", ".mjs", ".wasm", ".css", ".html", ".json", ".ipynb", ".svg")  # not .whl or .zip: compressed already


MAX_AGE = 600  # seconds, GitHub Pages' value
HASHED = re.compile(r"[?&]v=[0-9a-f]{8,}|\.[0-9a-f]{16,}\.(?:js|css)(?:$|\?)")


def cache_control(url: str) -> str:
    """The ``Cache-Control`` header for a request path (with its query)."""
    if HASHED.search(url):
        return "public, max-age=31536000, immutable"
    return f"public, max-age={MAX_AGE}"


@functools.lru_cache(maxsize=256)
def _gzipped(path: str, mtime_ns: int) -> bytes:
    with open(path, "rb") as f:
        return gzip.compress(f.read(), compresslevel=6, mtime=0)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def send_head(self):  # noqa: ANN201 - the base class's signature
        path = self.translate_path(self.path)
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts_gzip and path.endswith(COMPRESSIBLE) and os.path.isfile(path)):
            return super().send_head()
        if self.headers.get("If-Modified-Since") or self.headers.get("If-None-Match"):
            return super().send_head()  # a revalidation: 304 as usual
        stat = os.stat(path)
        body = _gzipped(path, stat.st_mtime_ns)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self) -> None:
        if getattr(self, "_send_cache_control", False):
            self.send_header("Cache-Control", cache_control(self.path))
        super().end_headers()

    def send_response(self, code: int, message: str | None = None) -> None:
        self._send_cache_control = code in (200, 304)
        super().send_response(code, message)

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
