"""Every number that counts something is a plural message (issue 22: "1 espacios", "1 ruutua", "1 spaces").

The catalog template (``railkit/locale/railkit.pot``, written by ``make messages``) is scanned: a msgid that
is not an ngettext message must not hold a placeholder named as a count (``COUNTS``), unless the number is
no count of things (``NOT_COUNTS``, each with its reason). A new sentence with ``{n} cards`` made with
``tr`` instead of ``trn`` fails here, naming it.
"""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from railkit.locale import LOCALE_DIR

# Placeholder names that hold a bare count of things wherever railkit uses them.
COUNTS = {"n", "k", "count", "bots", "rounds", "r"}

# (msgid, placeholder): numbers that are not counts, or counts with no counted noun, and why.
NUMBER_OF_A_THING = "a game's, auction's, payout's, step's or turn's number, not a count"
POSITION = "“{n} of {total}”: a place in a series, not a count of things"
LABEL = "a label and its number (“Track pile: 7”), no noun follows the number"
NO_NOUN = "a count with no counted noun after it (“3 each”): no plural form to choose"
ORDINAL = "an ordinal suffix (1st, 2nd), the number's own spelling"
NOT_COUNTS: dict[tuple[str, str], str] = {
    ("{n}th", "n"): ORDINAL, ("{n}st", "n"): ORDINAL, ("{n}nd", "n"): ORDINAL, ("{n}rd", "n"): ORDINAL,
    ("{n} {terrain}", "n"): "a card's number beside its terrain (card 12 Desert)",
    ("Player {n}", "n"): "a seat's name (Player 2)", ("Computer {n}", "n"): "a seat's name (Computer 1)",
    ("Game {n}", "n"): NUMBER_OF_A_THING, ("Turn {n}", "n"): NUMBER_OF_A_THING,
    ("The board, turn {n}", "n"): NUMBER_OF_A_THING, ("payout {n}", "n"): NUMBER_OF_A_THING,
    ("Union Pacific pays out: payout {n} of the game.", "n"): NUMBER_OF_A_THING,
    ("Each tied player receives, at payout {n} (UP-D11)", "n"): NUMBER_OF_A_THING,
    ("Auction {n}: the bids are revealed", "n"): NUMBER_OF_A_THING,
    ("The last auction (auction {n})", "n"): NUMBER_OF_A_THING,
    ("On sale in auction {n} (KK-A1)", "n"): NUMBER_OF_A_THING, ("{bid} (auction {n})", "n"): NUMBER_OF_A_THING,
    ("auction {n} — hand in your sealed bid (KK-A2).", "n"): NUMBER_OF_A_THING,
    ("Step {i} of {n}", "n"): POSITION, ("Move {k} of {n}:", "k"): POSITION, ("Move {k} of {n}:", "n"): POSITION,
    ("Payout {n} of {total}", "n"): POSITION, ("Payout {n} of {total} has just been paid.", "n"): POSITION,
    ("Payout {n} of {total} has been paid: who received what shows once you answer the payout exercise.", "n"):
        POSITION,
    ("Seats still open: {n}. Share this code:", "n"): LABEL, ("UP stack {n}", "n"): LABEL,
    ("Track pile {n}", "n"): LABEL, ("dividend pile {n}", "n"): LABEL, ("set aside: {n}", "n"): LABEL,
    ("six {n}", "n"): LABEL, ("Union Pacific stack ({n} left)", "n"): LABEL,
    ("Keep up to date (every {n} s)", "n"): "seconds as the unit's symbol (s), which has no plural",
    ("The building phase is over. Auction {n}: new cards are on sale; the computer players have bid, now it is your "
     "turn.", "n"): NUMBER_OF_A_THING,
    ("Auction {n}: the computer players have handed in sealed bids ({who}). Hand in yours: how much is choosing early "
     "worth to you? (KK-A2)", "n"): NUMBER_OF_A_THING,
    ("Auction {n}: it is your turn to choose a card (KK-A4).", "n"): NUMBER_OF_A_THING,
    ("Auction {n} is over: you chose first and open the building phase (KK-A7). Press “Next auction” to play the "
     "building phase quickly and go on.", "n"): NUMBER_OF_A_THING,
    ("Auction {n} is over: {winner} chose first and opens the building phase (KK-A7). Press “Next auction” to play the "
     "building phase quickly and go on.", "n"): NUMBER_OF_A_THING,
    ("Auction {n}: {handed} of {total} bids in. The amounts stay sealed until every bid is in (KK-A2).", "n"):
        NUMBER_OF_A_THING,
    ("Union Pacific pays by position from the table for payout {n}: {column} for the 1st to 5th (UP-D9, ties UP-D11). "
     "UP shares on the table: {shares}.", "n"): NUMBER_OF_A_THING,
    ("a game number is a whole number from 0 to {n}", "n"): "the largest game number, not a count",
    ("Payouts in this game: {n} ({rules}).", "n"): LABEL,
    ("you against {bots}; seats: {order}", "bots"): "the computer players' names, not their number",
    ("{players} tie with {count} each, so they occupy {positions} (UP-D11; positions past the 5th add 0): {sum} = "
     "{pool}; {split}.", "count"): NO_NOUN,
    ("{players} tie with {count} each, so they occupy {positions} (UP-D11): {sum} = {pool}; {split}.", "count"): NO_NOUN,
    ("{k} tied", "k"): "two or more players (UP-D11), always the plural",
    ("you gain {n}", "n"): "an amount of money in pounds with its sign, as the review's table shows it",
    ("you would be {n} poorer", "n"): "an amount of money in pounds, as the review's table shows it",
}
PAREN_COUNT = re.compile(r"\(\{count\}( each)?\)")  # “Ann (3) takes position 2”: the shares, in parentheses
SHARED_COUNT = "Split equally between the {count} of them: {split} (UP-D5)."


def single_msgids() -> list[str]:
    with open(LOCALE_DIR / "railkit.pot", "rb") as f:
        template = read_po(f)
    return [m.id for m in template if m.id and isinstance(m.id, str)]


def counts_without_plural(msgid: str) -> list[str]:
    names = {name for name in re.findall(r"\{(\w+)\}", PAREN_COUNT.sub("", msgid)) if name in COUNTS}
    if msgid == SHARED_COUNT:
        names.discard("count")  # “the 3 of them”: a tie (UP-D5) has two or more, no noun
    return sorted(name for name in names if (msgid, name) not in NOT_COUNTS)


def test_every_counted_number_is_a_plural_message():
    found = [(msgid, name) for msgid in single_msgids() for name in counts_without_plural(msgid)]
    assert not found, "use trn/nmessage (a plural message) for these counts, or add a reason to NOT_COUNTS:\n" + \
        "\n".join(f"{{{name}}} in {msgid!r}" for msgid, name in found)


def test_the_allow_list_names_only_messages_that_exist():
    msgids = set(single_msgids())
    gone = [key for key in NOT_COUNTS if key[0] not in msgids]
    assert not gone, f"remove the entries of messages that are gone (or now plural): {gone}"


def test_the_scan_catches_a_counted_number():
    assert counts_without_plural("{n} cards are on sale.") == ["n"]
    assert counts_without_plural("Game {n}") == []
    for fixed in ("{n} bytes", "{n} characters", "{n} shares set aside (UP-V2); {p} go on top of the deck after each "
                  "payout", "Build: {n} placements in all, with {cards}, for {k} companies. A train goes only where the "
                  "engine's six checks of UP-B2 all pass; for example, {move}:"):  # issue 22's, now plural messages
        assert fixed not in single_msgids() and counts_without_plural(fixed)
