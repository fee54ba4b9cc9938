"""Engine sentences as data: a message id (the English template) plus its parameters.

The engines explain themselves in English, and tests compare those sentences. A ``Message`` *is*
that English sentence (a ``str``), so nothing that reads it changes, and it also keeps what it was
made of, so that

* tests can assert on structure: ``m.msgid == "{player} holds none, ..."`` and ``m.params``;
* the teaching layer can put it into another language: ``m.render(translations)`` looks the id up
  in a gettext catalog (``ngettext`` when the message has a plural, ``pgettext`` with a context)
  and fills in the parameters, rendering parameters that are messages themselves the same way;
* the teaching layer can speak to the learner: a sentence about one player has, where the engine
  declares it with ``addressed``, a second-person message of its own ("{player} passes" / "You pass").
  ``m.render(translations, you="Kim")`` uses it when the sentence is about Kim, so no language ever
  puts the learner's name (or "You") into a sentence written about a third person;
* a sentence about a group of players has, declared with ``addressed_group``, a second-person plural
  message for a group the learner is part of ("Ann and Kim tie" / "You and Ann tie", Spanish "Ann y tú
  empatáis"): the others are its parameters, so each language puts the learner where it wants.

The engine side imports no UI code: ``render`` takes any object with gettext's methods (the
standard library's ``gettext.NullTranslations`` and ``GNUTranslations`` have them). ``N_`` marks a
msgid for extraction (``make messages``) where the engine builds a ``Message``.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from types import MappingProxyType
from typing import Any, ParamSpec, Protocol, TypeVar

__all__ = ["LIST_JOINS", "NC_", "QUIET_DEPTH", "Deferred", "Draft", "Fixed", "GroupForm", "Grouped", "Message", "N_",
           "Translations", "YouForm", "addressed", "addressed_group", "comma_list", "group_form", "is_quiet",
           "is_seat_name", "list_names", "loud", "naddressed", "names_message", "nmessage", "npmessage", "phrase",
           "pmessage", "quiet", "realize", "seat_name", "set_shown_language", "shown", "you_form"]

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")


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
    if not isinstance(message, Message | Draft) or _shown is None:
        return str(message)
    return message.render(*_shown)


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction; returns it unchanged."""
    return msgid


def NC_(context: str, msgid: str) -> str:  # noqa: N802 - gettext's marker style, as N_
    """Mark ``msgid`` for extraction in the meaning ``context`` (a ``Message`` made with ``context=`` the same);
    returns ``msgid`` unchanged."""
    return msgid


# Names the engines give to seats that are no player ("Imaginary third player", UP-2P2): a parameter equal to
# one is translated when a message is rendered, as a name typed by a player never is.
_seat_names: set[str] = set()


def is_seat_name(name: str) -> bool:
    """Whether ``name`` is a seat's name declared with ``seat_name`` (shown translated)."""
    return name in _seat_names


def seat_name(msgid: str) -> str:
    """Declare ``msgid`` (marked with ``N_``) a seat's name that messages translate; returns it unchanged."""
    _seat_names.add(msgid)
    return msgid


@dataclass(frozen=True)
class YouForm:
    """The second-person message that stands for a third-person one when its ``subject`` parameter is the
    learner: ``msgid`` (and ``plural``, an ngettext pair counted by the message's own ``n``). It has the same
    parameters but the subject's."""

    msgid: str
    plural: str | None = None
    subject: str = "player"


# third-person msgid -> its second-person form; filled when the engines' modules are imported
_you_forms: dict[str, YouForm] = {}


def addressed(third: str, you: str, /, subject: str = "player") -> str:
    """Declare ``you`` the learner's own message for ``third`` (a msgid whose ``subject`` parameter names one
    player): "{player} passes (KK-B3)." / "You pass (KK-B3).". Returns ``third``, so a module declares its
    messages once, where it defines them. ``make messages`` extracts both (``N_`` and ``addressed:2``)."""
    _you_forms[third] = YouForm(you, None, subject)
    return third


def naddressed(third: str, you: str, you_plural: str, /, subject: str = "player") -> str:
    """``addressed`` for a message with plural forms: ``you``/``you_plural`` are chosen by the message's
    ``n`` ("You hold 1 share …" / "You hold 2 shares …")."""
    _you_forms[third] = YouForm(you, you_plural, subject)
    return third


def you_form(msgid: str) -> YouForm | None:
    """The second-person form declared for ``msgid``, if any."""
    return _you_forms.get(msgid)


@dataclass(frozen=True)
class GroupForm:
    """The second-person plural message that stands for a third-person one when its ``subject`` parameter lists
    several players, the learner among them: ``one`` when one other player is with the learner (parameter
    ``{other}``), ``many`` when several are (``{others}``, all but the last of them, and ``{last}``), chosen as
    ngettext forms by the number of others. The other parameters are the message's own."""

    one: str
    many: str
    subject: str = "players"


# third-person msgid -> its second-person plural form, for a group with the learner in it
_group_forms: dict[str, GroupForm] = {}


def addressed_group(third: str, one: str, many: str, /, subject: str = "players") -> str:
    """Declare ``one``/``many`` the learner's messages for ``third`` when its ``subject`` parameter (a list made by
    ``names_message``) names the learner and others: "{players} tie …" / "You and {other} tie …" / "You, {others}
    and {last} tie …". The learner's place in the group is the language's: a translation writes "Ann y tú
    empatáis" ("{other} y tú"), "{others}, {last} y tú". Returns ``third``. ``make messages`` extracts the pair
    (``addressed_group:2,3``)."""
    _group_forms[third] = GroupForm(one, many, subject)
    return third


def group_form(msgid: str) -> GroupForm | None:
    """The second-person plural form declared for ``msgid``, if any."""
    return _group_forms.get(msgid)


# The messages lists of names are made of (``names_message``, ``comma_list`` and the engines' ``listing``): the
# parameters that hold the list's parts, in order.
LIST_JOINS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "{names} and {last}": ("names", "last"), "{names}, {name}": ("names", "name"), "{first}, {next}": ("first", "next")})


def list_names(value: object) -> list[str] | None:
    """The names in ``value`` when it is a name or a list of names (``names_message``): ["Ann", "Kim"]; ``None``
    when it is anything else (a list of phrases, a number)."""
    if isinstance(value, Message | Draft):
        parts = LIST_JOINS.get(value.msgid)
        if parts is None:
            return None
        names: list[str] = []
        for part in parts:
            found = list_names((value.params or {}).get(part))
            if found is None:
                return None
            names += found
        return names
    if isinstance(value, str):
        return [value]
    return None


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

    Inside ``quiet()`` (a game nobody narrates performing a move) the constructor returns a ``Draft``
    instead: the same parts, not rendered until someone reads it.
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
        if _quiet.depth:  # read as a Message: a Draft has the same parts and renders on demand
            return _new_draft(Draft, (msgid, params, plural, n, context))  # type: ignore[return-value]
        return _english(cls, msgid, dict(params) if params else {}, plural, n, context)

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        # copy and pickle rebuild the message from its parts, not from the English text.
        return (self.msgid, dict(self.params)), {"plural": self.plural, "n": self.n, "context": self.context}

    def __reduce_ex__(self, protocol: Any) -> Any:
        args, kwargs = self.__getnewargs_ex__()
        return (_rebuild, (args, kwargs))

    def render(self, translations: Translations | None = None, number: NumberFormat | None = None,
               you: str | None = None) -> str:
        """This message through ``translations`` (English without), numbers through ``number``; a sentence
        about the player named ``you`` (the learner) in its second-person form where one is declared."""
        if translations is None and number is None and (you is None or not _about(self, you)):
            return str.__str__(self)  # the English, rendered when the message was made
        return _render(self.msgid, self.params, self.plural, self.n, self.context, translations or ENGLISH, number,
                       you)

    def __repr__(self) -> str:
        return f"Message({self.msgid!r}, {dict(self.params)!r})"


def _english(cls: type[Message], msgid: str, params: dict[str, object], plural: str | None, n: int | None,
             context: str | None) -> Message:
    """A ``Message`` (of ``cls``) with its English text; ``params`` is owned by the message from now on.

    The same text as ``_render(..., ENGLISH, None)``, made faster: a nested message is already its English
    text (a ``str``), so it goes into ``format`` as it is instead of being rendered again, and only ``Fixed``
    needs converting."""
    template = msgid if n is None or n == 1 else plural
    values = params
    for value in params.values():
        if isinstance(value, Fixed):
            values = {k: str(v) if isinstance(v, Fixed) else v for k, v in params.items()}
            break
    if n is not None and "n" not in values:
        values = {**values, "n": n}
    english = template.format_map(values) if values else template.format()  # type: ignore[union-attr]
    self = str.__new__(cls, english)
    self.msgid, self.params, self.plural, self.n, self.context = msgid, MappingProxyType(params), plural, n, context
    return self


class _Quiet(threading.local):
    depth = 0  # > 0 inside ``quiet()``, per thread


_quiet = _Quiet()
QUIET_DEPTH = _quiet  # ``depth`` > 0 while quiet: ``Game.apply`` raises and lowers it itself (cheaper than ``with``)


class quiet:  # noqa: N801 - used like a function: ``with quiet():``
    """While inside, ``Message(...)`` makes ``Draft``s: sentences kept as their parts, rendered only when read.

    ``railkit.game.Game.apply`` performs the moves of a game whose ``narrate`` is ``False`` inside it (bots'
    games, benchmarks): the events cost one small object each instead of an English sentence. Re-entrant, per
    thread. (A class, not a ``contextmanager`` generator: it is entered once per move.)"""

    __slots__ = ()

    def __enter__(self) -> None:
        _quiet.depth += 1

    def __exit__(self, *exc: object) -> None:
        _quiet.depth -= 1


def is_quiet() -> bool:
    """Whether ``Message(...)`` makes ``Draft``s here (inside ``quiet()``, not inside ``loud()``): nobody narrates,
    so text may be left unmade until someone reads it."""
    return _quiet.depth > 0


class loud:  # noqa: N801 - used like a function: ``with loud():``
    """Inside ``quiet()``, a stretch where ``Message(...)`` makes rendered messages again: for sentences a
    game keeps in its state (a payout's explanation, an auction's steps), which a view may show later."""

    __slots__ = ("depth",)

    def __enter__(self) -> None:
        self.depth, _quiet.depth = _quiet.depth, 0

    def __exit__(self, *exc: object) -> None:
        _quiet.depth = self.depth


def phrase(func: Callable[P, R]) -> Callable[P, R]:
    """Memoize a phrase function whose ``Message`` depends on its (hashable) arguments alone, such as
    "3 track pieces" (arguments of one type each: ``1`` and ``True`` are one key). Each distinct phrase is made
    once, always as a rendered ``Message`` (inside ``quiet()`` too), and shared after that (messages never
    change). The memo is cleared when it reaches 4096 phrases."""
    memo: dict[Any, R] = {}

    @functools.wraps(func)
    def cached(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(kwargs.items())) if kwargs else args
        try:
            return memo[key]
        except KeyError:
            pass
        depth, _quiet.depth = _quiet.depth, 0
        try:
            made = func(*args, **kwargs)
        finally:
            _quiet.depth = depth
        if len(memo) >= 4096:
            memo.clear()
        memo[key] = made
        return made

    return cached


class Draft(tuple):  # type: ignore[type-arg]
    """A ``Message`` not rendered yet: its parts only. ``message()`` makes the ``Message`` it stands for (the
    same English, msgid and parameters as if it had been made outside ``quiet()``); ``str()`` and ``render``
    read it like a message. (A tuple of its parts: made in C, without an ``__init__`` call.)"""

    __slots__ = ()

    def __new__(cls, msgid: str, params: Mapping[str, object] | None = None, plural: str | None = None,
                n: int | None = None, context: str | None = None) -> Draft:
        return tuple.__new__(cls, (msgid, params, plural, n, context))

    msgid = property(itemgetter(0), doc="the English template")
    params = property(itemgetter(1), doc="the parameters (None: none)")
    plural = property(itemgetter(2))
    n = property(itemgetter(3))
    context = property(itemgetter(4))

    def message(self) -> Message:
        params = {k: v.message() if isinstance(v, Draft) else v for k, v in (self.params or {}).items()}
        return _english(Message, self.msgid, params, self.plural, self.n, self.context)

    def render(self, translations: Translations | None = None, number: NumberFormat | None = None,
               you: str | None = None) -> str:
        return self.message().render(translations, number, you)

    def __str__(self) -> str:
        return str.__str__(self.message())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Draft):
            other = other.message()
        return self.message() == other if isinstance(other, str) else NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.message())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Draft, tuple(self))

    def __repr__(self) -> str:
        return f"Draft({self.msgid!r}, {dict(self.params or {})!r})"


_new_draft = tuple.__new__


class Deferred(tuple):  # type: ignore[type-arg]
    """Narrative text that a quiet game (see ``quiet``) has not made yet: ``text()`` is ``make(*args)``, made
    when someone reads it (``railkit.game.Game.narrative`` replaces it by that text). Compares, hashes and
    pickles as that text."""

    __slots__ = ()

    def __new__(cls, make: Callable[..., str], *args: object) -> Deferred:
        return tuple.__new__(cls, (make, args))

    def text(self) -> str:
        return self[0](*self[1])  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return self.text()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Deferred):
            other = other.text()
        return self.text() == other if isinstance(other, str) else NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.text())

    def __reduce__(self) -> tuple[Any, ...]:
        return (str, (self.text(),))

    def __repr__(self) -> str:
        return f"Deferred({self.text()!r})"


def realize(item: T) -> T:
    """``item``, or the ``Message`` a ``Draft`` stands for (for code that reads what a quiet game kept)."""
    return item.message() if isinstance(item, Draft) else item  # type: ignore[return-value]


def _rebuild(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Message:
    return Message(*args, **kwargs)


def _about(message: Message, you: str) -> bool:
    """Does ``message`` (or a message inside it) speak about the player ``you`` where it has a form for that?"""
    form = _you_forms.get(message.msgid)
    if form is not None and message.params.get(form.subject) == you:
        return True
    group = _group_forms.get(message.msgid)
    if group is not None and _others(message.params.get(group.subject), you) is not None:
        return True
    return any(isinstance(v, Message) and _about(v, you) for v in message.params.values())


def _render(msgid: str, params: Mapping[str, object], plural: str | None, n: int | None, context: str | None,
            translations: Translations, number: NumberFormat | None, you: str | None = None) -> str:
    form = _you_forms.get(msgid) if you is not None else None
    if form is not None and params.get(form.subject) == you:  # the learner's own message, same parameters
        msgid, plural, context = form.msgid, form.plural, None
    group = _group_forms.get(msgid) if you is not None else None
    others = None if group is None else _others(params.get(group.subject), you)
    if group is not None and others is not None:  # the learner among several: "you and Ann", in the plural
        msgid, plural, n, context = group.one, group.many, len(others), None
        params = {**{k: v for k, v in params.items() if k != group.subject and k != "n"},
                  "other": others[0], "others": _and_list(others[:-1]), "last": others[-1]}
    if plural is not None and n is not None:
        template = (translations.npgettext(context, msgid, plural, n) if context
                    else translations.ngettext(msgid, plural, n))
        english = msgid if n == 1 else plural
    else:
        template = translations.pgettext(context, msgid) if context else translations.gettext(msgid)
        english = msgid
    values = {k: _value(v, translations, number, you) for k, v in params.items()}
    if n is not None:
        values.setdefault("n", _value(n, translations, number))
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation falls back to English
        return english.format(**values)


def _others(subject: object, you: str | None) -> list[str] | None:
    """The players other than ``you`` in the list ``subject`` when ``you`` is one of two or more; else ``None``."""
    names = list_names(subject) if you is not None else None
    if not names or len(names) < 2 or you not in names:
        return None
    return [name for name in names if name != you]


def _and_list(names: Sequence[str]) -> object:
    """All the others but the last, joined by commas ("Ann", "Ann, Ben"); "" for none. Each name stays a
    parameter (a seat's name is translated)."""
    if not names:
        return ""
    joined: object = names[0]
    for name in names[1:]:
        joined = Message("{names}, {name}", {"names": joined, "name": name})
    return joined


def _value(value: object, translations: Translations, number: NumberFormat | None, you: str | None = None) -> object:
    if isinstance(value, Message | Draft):
        return value.render(translations, number, you)
    if isinstance(value, str) and value in _seat_names:
        return translations.gettext(value)
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


def comma_list(items: Sequence[object]) -> object:
    """"A, B, C": ``items`` (names, numbers or messages) each a parameter of its own, joined by commas (a label's
    list: "Ann +35, Ben +30"); ``None`` when there are none."""
    if not items:
        return None
    joined = items[0]
    for item in items[1:]:
        joined = Message("{first}, {next}", {"first": joined, "next": item})
    return joined


def pmessage(context: str, msgid: str, /, params: Mapping[str, object] | None = None) -> Message:
    """A message in the meaning ``context`` (pgettext): one English word or sentence with two meanings, such as
    Kap bis Kairo's terrain "river" and Union Pacific's river track, translated apart."""
    return Message(msgid, params, context=context)


def npmessage(context: str, singular: str, plural: str, n: int, /, params: Mapping[str, object] | None = None
              ) -> Message:
    """``nmessage`` in the meaning ``context`` (npgettext): a count phrase in one role of a sentence, such as
    the object of "receives" ("1 punnan", Hungarian "7 fontot")."""
    return Message(singular, params, plural=plural, n=n, context=context)


def names_message(items: Sequence[str]) -> Message | str:
    """"Ann", "Ann and Ben", "Ann, Ben and Cy" (as ``railkit.words.names``), translatable."""
    items = [str(i) for i in items]
    if not items:
        return Message("nobody")
    if len(items) == 1:
        return items[0]
    # Each name stays a parameter of its own (never joined into one string), so a seat's name declared with
    # ``seat_name`` ("Imaginary third player", UP-2P2) is translated wherever it stands in the list.
    names: Message | str = items[0]
    for item in items[1:-1]:
        names = Message("{names}, {name}", {"names": names, "name": item})
    return Message("{names} and {last}", {"names": names, "last": items[-1]})
