"""Engine sentences as data: a message id (the English template) plus its parameters.

The engines explain themselves in English, and tests compare those sentences. A ``Message`` *is*
that English sentence (a ``str``), so nothing that reads it changes, and it also keeps what it was
made of, so that

* tests can assert on structure: ``m.msgid == "{player} holds none, ..."`` and ``m.params``;
* the teaching layer can put it into another language: ``m.render(translations)`` looks the id up
  in a gettext catalog (``ngettext`` when the message has a plural, ``pgettext`` with a context)
  and fills in the parameters, rendering parameters that are messages themselves the same way.

The engine side imports no UI code: ``render`` takes any object with gettext's methods (the
standard library's ``gettext.NullTranslations`` and ``GNUTranslations`` have them). ``N_`` marks a
msgid for extraction (``make messages``) where the engine builds a ``Message``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

__all__ = ["Fixed", "Grouped", "Message", "N_", "Translations", "names_message", "nmessage", "set_shown_language",
           "shown"]


class Translations(Protocol):
    def gettext(self, message: str, /) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...
    def pgettext(self, context: str, message: str, /) -> str: ...
    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str: ...


class _English:
    """The identity catalog: the msgid is the English text."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


ENGLISH = _English()
NumberFormat = Callable[..., str]


# What ``shown`` renders through: the notebook cards of a game (``_repr_html_``) speak the language the
# teaching layer chose (``railkit.ui.i18n.set_language`` calls ``set_shown_language``); English until then.
_shown: tuple[Translations, NumberFormat | None] | None = None


def set_shown_language(translations: Translations | None, number: NumberFormat | None = None) -> None:
    """The catalog (and number format) ``shown`` uses from now on; ``None``: English."""
    global _shown
    _shown = None if translations is None else (translations, number)


def shown(message: str) -> str:
    """``message`` in the language set by ``set_shown_language`` (a plain string as it is)."""
    if not isinstance(message, Message) or _shown is None:
        return str(message)
    return message.render(*_shown)


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction; returns it unchanged."""
    return msgid


@dataclass(frozen=True)
class Fixed:
    """A number shown with ``places`` decimals ("2.33"); the UI formats it for the language."""

    value: float
    places: int = 2

    def __str__(self) -> str:
        return f"{self.value:.{self.places}f}"


@dataclass(frozen=True)
class Grouped:
    """A large whole number in English with thousands commas ("1,000,000"); the UI formats it for the
    language (Finnish "1 000 000", Spanish "1.000.000")."""

    value: int

    def __str__(self) -> str:
        return f"{self.value:,}"


class Message(str):
    """An English sentence that remembers its msgid and parameters (see the module docstring).

    ``plural`` and ``n`` make it an ngettext message (``msgid`` is the singular); ``context`` a
    pgettext one. Parameters are strings, numbers, ``Fixed`` or other ``Message``s.
    """

    msgid: str
    params: Mapping[str, object]
    plural: str | None
    n: int | None
    context: str | None

    def __new__(cls, msgid: str, /, params: Mapping[str, object] | None = None, *, plural: str | None = None,
                n: int | None = None, context: str | None = None) -> Message:
        if (plural is None) != (n is None):
            raise TypeError("a plural message needs both plural= and n=")
        frozen = MappingProxyType(dict(params or {}))
        english = _render(msgid, frozen, plural, n, context, ENGLISH, None)
        self = super().__new__(cls, english)
        self.msgid, self.params, self.plural, self.n, self.context = msgid, frozen, plural, n, context
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        # copy and pickle rebuild the message from its parts, not from the English text.
        return (self.msgid, dict(self.params)), {"plural": self.plural, "n": self.n, "context": self.context}

    def __reduce_ex__(self, protocol: Any) -> Any:
        args, kwargs = self.__getnewargs_ex__()
        return (_rebuild, (args, kwargs))

    def render(self, translations: Translations | None = None, number: NumberFormat | None = None) -> str:
        """This message through ``translations`` (English without), numbers through ``number``."""
        return _render(self.msgid, self.params, self.plural, self.n, self.context, translations or ENGLISH, number)

    def __repr__(self) -> str:
        return f"Message({self.msgid!r}, {dict(self.params)!r})"


def _rebuild(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Message:
    return Message(*args, **kwargs)


def _render(msgid: str, params: Mapping[str, object], plural: str | None, n: int | None, context: str | None,
            translations: Translations, number: NumberFormat | None) -> str:
    if plural is not None and n is not None:
        template = (translations.npgettext(context, msgid, plural, n) if context
                    else translations.ngettext(msgid, plural, n))
        english = msgid if n == 1 else plural
    else:
        template = translations.pgettext(context, msgid) if context else translations.gettext(msgid)
        english = msgid
    values = {k: _value(v, translations, number) for k, v in params.items()}
    if n is not None:
        values.setdefault("n", _value(n, translations, number))
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation falls back to English
        return english.format(**values)


def _value(value: object, translations: Translations, number: NumberFormat | None) -> object:
    if isinstance(value, Message):
        return value.render(translations, number)
    if number is not None:
        if isinstance(value, Fixed):
            return number(value.value, places=value.places)
        if isinstance(value, Grouped):
            return number(value.value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return number(value)
    return str(value) if isinstance(value, Fixed) else value


def nmessage(singular: str, plural: str, n: int, /, params: Mapping[str, object] | None = None) -> Message:
    """A message with plural forms: ``singular`` for n == 1 in English, ``plural`` otherwise (ngettext)."""
    return Message(singular, params, plural=plural, n=n)


def names_message(items: Sequence[str]) -> Message | str:
    """"Ann", "Ann and Ben", "Ann, Ben and Cy" (as ``railkit.words.names``), translatable."""
    items = [str(i) for i in items]
    if not items:
        return Message("nobody")
    if len(items) == 1:
        return items[0]
    return Message("{names} and {last}", {"names": ", ".join(items[:-1]), "last": items[-1]})
