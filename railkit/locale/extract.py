"""A pybabel extractor for railkit's Python: reads the syntax tree, so it also finds the calls inside
f-strings (``f"<b>{tr('Quiz')}</b>"``), which Babel's token-based extractor cannot see on Python 3.11.

babel.cfg names it (``[extractors]``). Like Babel's own it yields every positional argument of a
keyword call (string constants as text, anything else as ``None``) and lets the keyword spec
(``trn:1,2``, ``trc:1c,2``) pick the message, plural and context. A ``Message(msgid, ..., context="...")`` with
a constant context is given as ``pmessage(context, msgid)`` (``pmessage:1c,2``), so the catalog holds it in its
context.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def extract_python(fileobj: IO[bytes], keywords: Mapping[str, Any] | Collection[str], comment_tags: Collection[str],
                   options: Mapping[str, Any]) -> Iterator[tuple[int, str, str | tuple[str | None, ...], list[str]]]:
    tree = ast.parse(fileobj.read())
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset))
    for node in calls:  # in source order, as Babel's own extractor yields them
        name = _name(node.func)
        if name is None or name not in keywords:
            continue
        args = tuple(a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args)
        if not args or all(a is None for a in args):
            continue
        context = _constant_keyword(node, "context")
        if name == "Message" and context is not None and "pmessage" in keywords:
            yield node.lineno, "pmessage", (context, args[0]), []
            continue
        yield node.lineno, name, args if len(args) > 1 else args[0] or "", []


def _constant_keyword(node: ast.Call, keyword: str) -> str | None:
    for item in node.keywords:
        if item.arg == keyword and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str):
            return item.value.value
    return None
