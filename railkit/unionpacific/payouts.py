"""Union Pacific dividend payouts (UP-D2..UP-D11).

Two kinds of functions live here:

* ``company_payout`` / ``union_pacific_payout`` are the fast path the engine calls at
  every payout of every (simulated) game. They return ``{player: money}`` and build no
  strings unless the input is invalid.
* ``explain_company_payout`` / ``explain_union_pacific_payout`` are for the lessons. They
  compute the same amounts by a separate, deliberately plain route (sorting players into
  groups of equal holdings) and record each step in words with its rule ID. The tests
  check that both routes agree on every input. Each step (and the title) is a
  ``railkit.messages.Message``: the English sentence as a ``str``, plus its msgid and
  parameters, so a lesson can show it in the learner's language (``railkit.ui.i18n.render``).

``shares`` maps every player to the number of shares of one company they have on the
table (UP-I4: hands never count). Players with 0 shares are not shareholders; they still
appear in the result with 0, and the result keeps the input's player order.
"""

from __future__ import annotations

import html
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Generic, TypeVar

from railkit.brief import brief
from railkit.errors import RuleError
from railkit.messages import N_, Fixed, Message, addressed, addressed_group, comma_list, names_message, nmessage

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{players} holds none, so is not a shareholder and gets nothing.",
          "You hold none, so you are not a shareholder and get nothing.", subject="players")
addressed("{players} holds fewer shares and gets nothing ({rule}).",
          "You hold fewer shares and get nothing ({rule}).", subject="players")
addressed("{player} is the only shareholder ({count}), so {player} is both primary and secondary (UP-D4).",
          "You are the only shareholder ({count}), so you are both primary and secondary (UP-D4).")
addressed("{amounts}; {player} receives both: {value} + {half} = {total}.",
          "{amounts}; you receive both: {value} + {half} = {total}.")
addressed("{player} holds the most ({count}): primary shareholder, receives the value, {value} (UP-D3).",
          "You hold the most ({count}): primary shareholder, you receive the value, {value} (UP-D3).")
addressed("{player} holds the second most ({count}): secondary shareholder, receives half the value "
           "rounded down, {value} ÷ 2 = {half} (UP-D3).",
          "You hold the second most ({count}): secondary shareholder, you receive half the value rounded "
           "down, {value} ÷ 2 = {half} (UP-D3).")
addressed("{player} ({count}) comes at position {position}, past the 5th, and gets nothing (UP-D9).",
          "You ({count}) come at position {position}, past the 5th, and get nothing (UP-D9).")
addressed("{player} ({count}) takes position {position} and receives {amount} (UP-D9).",
          "You ({count}) take position {position} and receive {amount} (UP-D9).")
# The learner among several players: the second person plural (railkit.messages.addressed_group).
addressed_group("{players} holds none, so is not a shareholder and gets nothing.",
                "You and {other} hold none, so you are not shareholders and get nothing.",
                "You, {others} and {last} hold none, so you are not shareholders and get nothing.")
addressed_group("{players} holds fewer shares and gets nothing ({rule}).",
                "You and {other} hold fewer shares and get nothing ({rule}).",
                "You, {others} and {last} hold fewer shares and get nothing ({rule}).")
addressed_group("{players} tie for the most shares ({count} each), so they share the primary and secondary places "
                "(UP-D5).",
                "You and {other} tie for the most shares ({count} each), so you share the primary and secondary "
                "places (UP-D5).",
                "You, {others} and {last} tie for the most shares ({count} each), so you share the primary and "
                "secondary places (UP-D5).")
addressed_group("{players} tie for the second most ({count} each), so they split the secondary amount, {value} ÷ 2 "
                "rounded down = {half} (UP-D6): {split}.",
                "You and {other} tie for the second most ({count} each), so you split the secondary amount, "
                "{value} ÷ 2 rounded down = {half} (UP-D6): {split}.",
                "You, {others} and {last} tie for the second most ({count} each), so you split the secondary "
                "amount, {value} ÷ 2 rounded down = {half} (UP-D6): {split}.")
addressed_group("{players} ({count} each) come at {positions}, past the 5th, and get nothing (UP-D9).",
                "You and {other} ({count} each) come at {positions}, past the 5th, and get nothing (UP-D9).",
                "You, {others} and {last} ({count} each) come at {positions}, past the 5th, and get nothing "
                "(UP-D9).")
addressed_group("{players} tie with {count} each, so they occupy {positions} (UP-D11; positions past the 5th add 0): "
                "{sum} = {pool}; {split}.",
                "You and {other} tie with {count} each, so you occupy {positions} (UP-D11; positions past the 5th "
                "add 0): {sum} = {pool}; {split}.",
                "You, {others} and {last} tie with {count} each, so you occupy {positions} (UP-D11; positions past "
                "the 5th add 0): {sum} = {pool}; {split}.")
addressed_group("{players} tie with {count} each, so they occupy {positions} (UP-D11): {sum} = {pool}; {split}.",
                "You and {other} tie with {count} each, so you occupy {positions} (UP-D11): {sum} = {pool}; "
                "{split}.",
                "You, {others} and {last} tie with {count} each, so you occupy {positions} (UP-D11): {sum} = "
                "{pool}; {split}.")

__all__ = [
    "UP_TABLE",
    "PayoutExplanation",
    "company_payout",
    "company_value",
    "explain_company_payout",
    "explain_union_pacific_payout",
    "union_pacific_payout",
]

P = TypeVar("P", bound=Hashable)

# UP-D9: payout number -> amounts for positions 1..5. The Hungarian text scrambles the
# 5th row; the digest reads it as 0, 2, 3, 4 (each column steps down evenly), which the
# Finnish example 4 + 6 + 8 for the 2nd payout bears out. See docs/rulings.md.
UP_TABLE: Mapping[int, tuple[int, int, int, int, int]] = MappingProxyType(
    {
        1: (0, 0, 0, 0, 0),
        2: (10, 8, 6, 4, 2),
        3: (15, 12, 9, 6, 3),
        4: (20, 16, 12, 8, 4),
    }
)
UP_POSITIONS = 5


# -- validation (strings are only built once something is wrong) ------------------------
def _is_whole(x: object) -> bool:
    # bool is an int subclass but "True shares" is always a bug; reject it.
    return type(x) is int


def _check_value(value: object) -> None:
    if not _is_whole(value):
        raise RuleError("UP-D2", f"a company's value must be a whole number of millions, not {brief(value)}")
    if value < 0:  # type: ignore[operator]
        raise RuleError("UP-D2", f"a company's value cannot be negative ({value}); it is trains on the board + 1")


def _bad_count(rule: str, player: object, count: object) -> RuleError:
    if _is_whole(count):
        return RuleError(rule, f"{player} has {count} shares; a share count cannot be negative (use 0 for none)")
    return RuleError(rule, f"{player}'s share count must be a whole number, not {brief(count)}")


def _check_shares(rule: str, shares: object) -> None:
    if not isinstance(shares, Mapping):
        raise RuleError(rule, f"shares must map each player to a share count, not {type(shares).__name__}")


def _table_row(payout_number: object) -> tuple[int, int, int, int, int]:
    row = UP_TABLE.get(payout_number) if isinstance(payout_number, int) and _is_whole(payout_number) else None
    if row is None:
        raise RuleError(
            "UP-D9", f"the payout number must be 1, 2, 3 or 4 (four payouts a game, UP-D12), not {brief(payout_number)}"
        )
    return row


# -- the fast path -------------------------------------------------------------------
def company_value(trains_on_board: int) -> int:
    """UP-D2: a company is worth one per train on the board plus one for its headquarters."""
    if not _is_whole(trains_on_board) or trains_on_board < 0:
        raise RuleError(
            "UP-D2", f"the number of trains on the board must be a whole number ≥ 0, not {brief(trains_on_board)}"
        )
    return trains_on_board + 1


def company_payout(value: int, shares: Mapping[P, int]) -> dict[P, int]:
    """Money each player receives from one railway company worth ``value`` (UP-D3..UP-D6)."""
    _check_value(value)
    _check_shares("UP-D3", shares)
    # One pass finds the largest and second-largest holdings and how many players hold each.
    best = second = n_best = n_second = 0
    for player, n in shares.items():
        if type(n) is not int or n < 0:
            raise _bad_count("UP-D3", player, n)
        if n == 0:
            continue  # not a shareholder
        if n > best:
            second, n_second = best, n_best
            best, n_best = n, 1
        elif n == best:
            n_best += 1
        elif n > second:
            second, n_second = n, 1
        elif n == second:
            n_second += 1
    result = dict.fromkeys(shares, 0)
    if best == 0:
        return result
    half = value // 2  # UP-D3: the secondary amount, rounded down
    if n_best > 1:
        # UP-D5: tied for most -> primary + secondary pooled and split, rounded down.
        each = (value + half) // n_best
        for player, n in shares.items():
            if n == best:
                result[player] = each
        return result
    if second == 0:
        # UP-D4: a sole shareholder is both primary and secondary.
        for player, n in shares.items():
            if n == best:
                result[player] = value + half
        return result
    each = half // n_second  # UP-D6: tied secondaries split the secondary amount
    for player, n in shares.items():
        if n == best:
            result[player] = value
        elif n == second:
            result[player] = each
    return result


def union_pacific_payout(payout_number: int, shares: Mapping[P, int]) -> dict[P, int]:
    """Money each player receives from Union Pacific at payout ``payout_number`` (UP-D9..UP-D11)."""
    row = _table_row(payout_number)
    _check_shares("UP-D9", shares)
    holders = []
    for player, n in shares.items():
        if type(n) is not int or n < 0:
            raise _bad_count("UP-D9", player, n)
        if n:
            holders.append((n, player))
    result = dict.fromkeys(shares, 0)
    # Most shares first; sort on the count only (players need not be comparable).
    holders.sort(key=lambda h: h[0], reverse=True)
    position, i, count = 0, 0, len(holders)
    while i < count and position < UP_POSITIONS:  # past the 5th position nobody is paid
        n = holders[i][0]
        j = i + 1
        while j < count and holders[j][0] == n:
            j += 1
        tied = j - i
        # UP-D11: a tie occupies `tied` consecutive positions; slicing past the 5th adds 0.
        each = sum(row[position : position + tied]) // tied
        for k in range(i, j):
            result[holders[k][1]] = each
        position += tied
        i = j
    return result


# -- explanations for the lessons ----------------------------------------------------
@dataclass(frozen=True)
class PayoutExplanation(Generic[P]):
    """One payout worked through in words, for a lesson or a game log (title and steps are
    ``Message``s: English ``str``s that keep their msgid and parameters)."""

    title: str
    amounts: Mapping[P, int]
    steps: tuple[str, ...]

    def __str__(self) -> str:
        lines = [self.title]
        lines += [f"{i}. {step}" for i, step in enumerate(self.steps, 1)]
        return "\n".join(lines)

    def message(self) -> str:
        """The whole explanation as one ``Message`` (the same English as ``str``): the title, then each step
        numbered on a line of its own, every part translatable (the table's story and the play lesson's log
        show it so)."""
        text = self.title
        for i, step in enumerate(self.steps, 1):
            text = Message("{lines}\n{number}. {step}", {"lines": text, "number": i, "step": step})
        return text

    def _repr_html_(self) -> str:
        esc = html.escape
        items = "".join(f"<li>{esc(step)}</li>" for step in self.steps)
        rows = "".join(
            f"<tr><td>{esc(str(player))}</td><td style='text-align:right'>{amount}</td></tr>"
            for player, amount in self.amounts.items()
        )
        return (
            f"<div class='railkit-payout'><strong>{esc(self.title)}</strong>"
            f"<ol>{items}</ol>"
            f"<table><tr><th>player</th><th>receives (millions)</th></tr>{rows}</table></div>"
        )


def _names(players: Sequence[object]) -> Message | str:
    return names_message([str(p) for p in players])


def _split(total: int, ways: int) -> Message | int:
    """``total`` shared by ``ways`` players, rounded down, in words."""
    each = total // ways
    if ways == 1:
        return total
    if total % ways == 0:
        return Message("{total} ÷ {ways} = {each} each", {"total": total, "ways": ways, "each": each})
    return Message("{total} ÷ {ways} = {exact}, rounded down to {each} each",
                   {"total": total, "ways": ways, "exact": Fixed(total / ways), "each": each})


def _groups(shares: Mapping[P, int]) -> list[tuple[int, list[P]]]:
    """Shareholders grouped by holding, largest holding first (input order within a group)."""
    by_count: dict[int, list[P]] = {}
    for player, n in shares.items():
        if n > 0:
            by_count.setdefault(n, []).append(player)
    return sorted(by_count.items(), key=lambda g: g[0], reverse=True)


def _holdings_step(shares: Mapping[P, int], what: Message | str) -> list[Message]:
    held = [Message("{name} {value}", {"name": str(p), "value": n}) for p, n in shares.items() if n > 0]
    none = [p for p, n in shares.items() if n == 0]
    if held:
        steps = [Message("Shares of {company} on the table (only these count, UP-I4): {holdings}.",
                         {"company": what, "holdings": comma_list(held)})]
    else:
        steps = [Message("Nobody has shares of {company} on the table.", {"company": what})]
    if none:
        steps.append(nmessage("{players} holds none, so is not a shareholder and gets nothing.",
                              "{players} hold none, so are not shareholders and get nothing.",
                              len(none), {"players": _names(none)}))
    return steps


def _fewer(players: list[P], rule: str) -> list[Message]:
    if not players:
        return []
    return [nmessage("{players} holds fewer shares and gets nothing ({rule}).",
                     "{players} hold fewer shares and get nothing ({rule}).",
                     len(players), {"players": _names(players), "rule": rule})]


def _validated(rule: str, shares: Mapping[P, int]) -> None:
    _check_shares(rule, shares)
    for player, n in shares.items():
        if type(n) is not int or n < 0:
            raise _bad_count(rule, player, n)


def explain_company_payout(value: int, shares: Mapping[P, int], company: str | None = None) -> PayoutExplanation[P]:
    """``company_payout`` with every step written out (UP-D3..UP-D6); each step is a ``Message``."""
    _check_value(value)
    _validated("UP-D3", shares)
    name = company or Message("The company")  # at the start of a sentence
    inner = company or Message("the company")  # inside one
    title = (Message("{company}, value {value}", {"company": company, "value": value}) if company
             else Message("A company worth {value}", {"value": value}))
    half = value // 2
    amounts: dict[P, int] = dict.fromkeys(shares, 0)
    steps = [Message("{company} is worth {value}: one per train on the board plus one for its headquarters (UP-D2).",
                     {"company": name, "value": value})]
    steps += _holdings_step(shares, inner)
    groups = _groups(shares)
    if not groups:
        steps.append(Message("With no shareholders, {company} pays nothing.", {"company": inner}))
    else:
        top_n, top = groups[0]
        both = Message("The primary amount is the value, {value}; the secondary amount is half of it, "
                       "{value} ÷ 2 rounded down = {half} (UP-D3)", {"value": value, "half": half})
        if len(top) > 1:
            pool = value + half
            steps.append(Message("{players} tie for the most shares ({count} each), so they share the "
                                 "primary and secondary places (UP-D5).", {"players": _names(top), "count": top_n}))
            steps.append(Message("{amounts}; together {value} + {half} = {pool}.",
                                 {"amounts": both, "value": value, "half": half, "pool": pool}))
            steps.append(Message("Split equally between the {count} of them: {split} (UP-D5).",
                                 {"count": len(top), "split": _split(pool, len(top))}))
            for p in top:
                amounts[p] = pool // len(top)
            steps += _fewer([q for _, qs in groups[1:] for q in qs], "UP-D5")
        elif len(groups) == 1:
            (p,) = top
            steps.append(Message("{player} is the only shareholder ({count}), so {player} is both primary and "
                                 "secondary (UP-D4).", {"player": str(p), "count": top_n}))
            steps.append(Message("{amounts}; {player} receives both: {value} + {half} = {total}.",
                                 {"amounts": both, "player": str(p), "value": value, "half": half,
                                  "total": value + half}))
            amounts[p] = value + half
        else:
            (p,) = top
            amounts[p] = value
            steps.append(Message("{player} holds the most ({count}): primary shareholder, receives the value, "
                                 "{value} (UP-D3).", {"player": str(p), "count": top_n, "value": value}))
            second_n, second = groups[1]
            if len(second) == 1:
                steps.append(Message("{player} holds the second most ({count}): secondary shareholder, receives "
                                     "half the value rounded down, {value} ÷ 2 = {half} (UP-D3).",
                                     {"player": str(second[0]), "count": second_n, "value": value, "half": half}))
            else:
                steps.append(Message("{players} tie for the second most ({count} each), so they split the "
                                     "secondary amount, {value} ÷ 2 rounded down = {half} (UP-D6): {split}.",
                                     {"players": _names(second), "count": second_n, "value": value, "half": half,
                                      "split": _split(half, len(second))}))
            for q in second:
                amounts[q] = half // len(second)
            steps += _fewer([q for _, qs in groups[2:] for q in qs], "UP-D3")
    steps.append(Message("Paid in total: {total}.", {"total": sum(amounts.values())}))
    return PayoutExplanation(title=title, amounts=amounts, steps=tuple(steps))


def _sum(parts: Sequence[int]) -> object:
    """"10 + 8 + 6", each number a parameter (formatted for the language)."""
    total: object = parts[0]
    for part in parts[1:]:
        total = Message("{sum} + {part}", {"sum": total, "part": part})
    return total


def _positions(start: int, count: int) -> Message:
    if count == 1:
        return Message("position {start}", {"start": start})
    return Message("positions {start}–{end}", {"start": start, "end": start + count - 1})


def explain_union_pacific_payout(payout_number: int, shares: Mapping[P, int]) -> PayoutExplanation[P]:
    """``union_pacific_payout`` with every step written out (UP-D9..UP-D11); each step is a ``Message``."""
    row = _table_row(payout_number)
    _validated("UP-D9", shares)
    title = Message("Union Pacific, payout {number}", {"number": payout_number})
    amounts: dict[P, int] = dict.fromkeys(shares, 0)
    steps = _holdings_step(shares, "Union Pacific")
    column = comma_list(list(row))
    if payout_number == 1:
        steps.append(Message("At the first payout every position of the table pays 0 (UP-D9): {column}.",
                             {"column": column}))
    else:
        steps.append(Message("Payout {number} pays positions 1–5 from the table: {column} (UP-D9).",
                             {"number": payout_number, "column": column}))
    position = 1  # 1-based for the text
    for n, group in _groups(shares):
        k = len(group)
        if position > UP_POSITIONS:
            steps.append(
                Message("{players} ({count} each) come at {positions}, past the 5th, and get nothing (UP-D9).",
                        {"players": _names(group), "count": n, "positions": _positions(position, k)})
                if k > 1
                else Message("{player} ({count}) comes at position {position}, past the 5th, and gets nothing (UP-D9).",
                             {"player": str(group[0]), "count": n, "position": position})
            )
        elif k == 1:
            amount = row[position - 1]
            amounts[group[0]] = amount
            steps.append(Message("{player} ({count}) takes position {position} and receives {amount} (UP-D9).",
                                 {"player": str(group[0]), "count": n, "position": position, "amount": amount}))
        else:
            parts = [row[i] if i < UP_POSITIONS else 0 for i in range(position - 1, position - 1 + k)]
            pool = sum(parts)
            tie = (N_("{players} tie with {count} each, so they occupy {positions} (UP-D11; positions past the "
                      "5th add 0): {sum} = {pool}; {split}.") if position - 1 + k > UP_POSITIONS
                   else N_("{players} tie with {count} each, so they occupy {positions} (UP-D11): {sum} = {pool}; "
                           "{split}."))
            steps.append(Message(tie, {"players": _names(group), "count": n, "positions": _positions(position, k),
                                       "sum": _sum(parts), "pool": pool, "split": _split(pool, k)}))
            for p in group:
                amounts[p] = pool // k
        position += k
    if position == UP_POSITIONS:
        steps.append(Message("Position {start} is unused and not paid (UP-D10).", {"start": position}))
    elif position < UP_POSITIONS:
        steps.append(Message("Positions {start}–{end} are unused and not paid (UP-D10).",
                             {"start": position, "end": UP_POSITIONS}))
    steps.append(Message("Paid in total: {total}.", {"total": sum(amounts.values())}))
    return PayoutExplanation(title=title, amounts=amounts, steps=tuple(steps))
