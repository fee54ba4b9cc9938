"""Finishing the built site: relative links (so ``site/`` works from any folder of any web server),
the entry pages, no source maps, and a check that no page links another host."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

# A page must not load anything from another host: stylesheets, scripts, images, frames, imports,
# CSS urls. (Plain ``<a href>`` links to other sites are fine: following one is the learner's choice.)
REMOTE = re.compile(r"""(?:<(?:link|script|img|iframe|source|embed)\b[^>]*?\b(?:href|src)\s*=\s*["']"""
                    r"""|\bimport\s*\(?\s*["']|\burl\(\s*["']?)(?:https?:)?//""", re.I)
REDIRECT = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>railkit lessons</title>
<meta http-equiv="refresh" content="0; url={target}">
<script>location.replace({target_js} + location.search + location.hash)</script></head>
<body><a href="{target}">railkit lessons</a></body></html>
"""


def relative_root(page: Path, site: Path) -> str:
    return os.path.relpath(site, page.parent).replace(os.sep, "/")


def fix_page(page: Path, site: Path) -> None:
    """Point the page at the site's own copies with paths relative to the page.

    Voici writes ``"baseUrl": "/"`` into each page's configuration (and ``/voila/`` into the body),
    which works only at the root of a web server; relative, the site also works in a sub-folder
    (a GitHub Pages project site, a folder on a USB stick served by any web server)."""
    text = page.read_text(encoding="utf-8")
    root = relative_root(page, site)
    text = text.replace('"baseUrl": "/"', f'"baseUrl": "{root}/"')
    text = text.replace('data-base-url="/voila/"', f'data-base-url="{root}/voila/"')
    page.write_text(text, encoding="utf-8")


def remote_links(site: Path) -> list[str]:
    """``page: link`` for each reference to another host in the site's HTML and CSS."""
    found = []
    for path in sorted([*site.rglob("*.html"), *site.rglob("*.css")]):
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in REMOTE.finditer(text):
            snippet = text[m.start(): m.end() + 60].split()[0]
            found.append(f"{path.relative_to(site)}: {snippet}")
    return found


def finish(site: Path, start_page: str) -> None:
    for page in site.rglob("*.html"):
        fix_page(page, site)
    for source_map in site.rglob("*.map"):
        source_map.unlink()
    # The site opens on the lessons' index; Voici's own entry pages redirect with absolute paths.
    for entry, target in ((site / "index.html", f"voici/render/{start_page}"),
                          (site / "voici" / "index.html", f"render/{start_page}")):
        entry.write_text(REDIRECT.format(target=target, target_js=json.dumps(target)), encoding="utf-8")
    remote = remote_links(site)
    if remote:
        raise SystemExit("site: pages link other hosts (the site must work offline):\n  " + "\n  ".join(remote))
