"""What the command-line tools share: ``python -m railkit.unionpacific check-board FILE`` and
``python -m railkit.capecairo check-deck FILE`` speak the language ``RAILKIT_LANG`` names,
their ``--help`` and argparse's own words ("usage:", "options", "the following arguments are
required") included, so a club checking its board file reads one language from start to end.

argparse looks its words up through its module's ``_`` and ``ngettext``; ``speaking`` points them at
railkit's catalog while a tool builds its parser and reads its arguments, and puts them back after.
"""

from __future__ import annotations

import argparse
import gettext
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from railkit.locale import cli_language, cli_translations, format_number
from railkit.messages import N_, Message
from railkit.patches import argparse_speaking

__all__ = ["ARGPARSE_WORDS", "Voice", "parser", "run_tools", "speaking", "tools_usage"]

# argparse's own words that a railkit tool can show (Python 3.11's argparse, word for word): they are
# in railkit's catalog so that ``speaking`` can translate them.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("expected one argument"),
    N_("ignored explicit argument %r"),
    N_("argument %(argument_name)s: %(message)s"),
)


@dataclass(frozen=True)
class Voice:
    """The language a tool speaks (``cli_language``: its argument, else ``RAILKIT_LANG``, else English)."""

    language: str = "en"

    @classmethod
    def chosen(cls, language: str | None = None) -> Voice:
        return cls(cli_language(language))

    @property
    def translations(self) -> gettext.NullTranslations | None:
        return cli_translations(self.language)

    def number(self, value: float, places: int | None = None) -> str:
        """``value`` as the language writes it ("1 000 000" in Finnish)."""
        return format_number(value, self.language, places)

    def say(self, text: str) -> str:
        """``text`` in this language: a ``Message`` is translated, a plain ``str`` (a key typed in the
        club's file, such as ``track_deck``) stays as it is."""
        return text.render(self.translations, self.number) if isinstance(text, Message) else text


@contextmanager
def speaking(voice: Voice) -> Iterator[None]:
    """argparse's words in ``voice``'s language inside the block (nothing changes for English)."""
    translations = voice.translations
    if translations is None:
        yield
        return
    with argparse_speaking(translations.gettext, translations.ngettext):  # argparse's globals (railkit.patches)
        yield


def parser(prog: str, description: Message, voice: Voice) -> argparse.ArgumentParser:
    """An ``ArgumentParser`` whose description is in ``voice``'s language (build it inside ``speaking``)."""
    return argparse.ArgumentParser(prog=prog, description=voice.say(description))


def tools_usage(command: str, tool: str, what: Message) -> Message:
    """The text ``python -m railkit.<game> --help`` prints: the command line and what its tool does."""
    return Message(N_("usage: {command}\n\ntools:\n  {tool}   {what}"), {"command": command, "tool": tool, "what": what})


def run_tools(argv: Sequence[str] | None, usage: Message, tools: Mapping[str, Callable[[list[str]], int]]) -> int:
    """``python -m railkit.<game> TOOL ARGS``: run ``tools[TOOL]`` on ARGS; ``--help`` prints ``usage``
    (exit 0), anything else prints it to stderr (exit 2, argparse's code for a wrong command line)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in tools:
        return tools[args[0]](args[1:])
    text = Voice.chosen().say(usage)
    if args and args[0] in ("-h", "--help"):
        print(text)
        return 0
    print(text, file=sys.stderr)
    return 2
