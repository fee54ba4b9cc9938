"""What a class table's page announces (railkit.ui.tables.table_announce): each new sentence of the table's story once, a
payout's summary without its worked steps, “your turn” when the turn begins, the end once; numbered, so the Voila
template's region appends each announcement a single time however often the feed is drawn again. The sentences are
the engines' own, sent as the table server sends them (``message_json``)."""

from __future__ import annotations

import html
import re
from typing import Any

from railkit.capecairo import new_game as kk_game
from railkit.capecairo.bots import HeuristicBot as KKBot
from railkit.tables.table import message_json
from railkit.ui.i18n import set_language
from railkit.ui.tables.table_announce import KEPT, Announcer
from railkit.unionpacific import new_game as up_game
from railkit.unionpacific.bots import HeuristicBot as UPBot

TURN, OVER = "Your turn! Choose your move below.", "The game is over."


def said(announcer: Announcer) -> list[tuple[int, str]]:
    """The feed's announcements, (number, text), as the template's script reads them."""
    found = re.findall(r"<li data-n='(\d+)'>(.*?)</li>", str(announcer.widget.value))
    return [(int(n), html.unescape(t)) for n, t in found]


def state(game: Any, seat: str | None, *, legal: bool = False) -> dict[str, Any]:
    narrative = [message_json(m) for m in game.narrative]
    return {"seat": seat, "narrative": narrative[-24:], "narrative_length": len(narrative), "is_over": game.is_over,
            "legal": [{"kind": "x"}] if legal else []}


def play(game: Any, bots: list[Any], moves: int) -> None:
    for _ in range(moves):
        if game.is_over:
            return
        player = game.current_player
        game.apply(bots[game.players.index(player)].choose(game, player))


def test_TABLES_a_table_that_opens_says_the_turn_not_its_history_and_each_new_move_once() -> None:
    set_language("en")
    game = kk_game(["Ann", "Ben"], seed=4)
    bots = [KKBot(seed=0), KKBot(seed=1)]
    play(game, bots, 3)
    voice = Announcer("Announcements from the table")
    assert voice.follow(state(game, "Ann", legal=True), True, TURN, OVER)  # the turn begins
    assert [t for _n, t in said(voice)] == [TURN]  # what happened before this page came is in the story only
    before = len(game.narrative)
    play(game, bots, 4)
    assert not voice.follow(state(game, "Ann", legal=True), True, TURN, OVER)  # still the turn: not said again
    told = [t for _n, t in said(voice)][1:]
    assert len(told) == len(game.narrative) - before >= 4
    assert any(t.startswith("You ") for t in told) and any(t.startswith("Ben ") for t in told)  # KK: “You”
    voice.follow(state(game, "Ann", legal=True), True, TURN, OVER)  # the same state drawn again: nothing new
    numbers = [n for n, _t in said(voice)]
    assert numbers == sorted(set(numbers)) and len(numbers) == 1 + len(told)
    assert "data-label='Announcements from the table'" in voice.widget.value  # the region's name, translated


def test_TABLES_the_turn_is_said_when_it_begins_and_the_end_once() -> None:
    game = kk_game(["Ann", "Ben"], seed=4)
    voice = Announcer("log")
    voice.follow(state(game, "Ann"), False, TURN, OVER)
    assert not said(voice)
    assert voice.follow(state(game, "Ann", legal=True), True, TURN, OVER)
    voice.follow(state(game, "Ann"), False, TURN, OVER)
    assert voice.follow(state(game, "Ann", legal=True), True, TURN, OVER)  # a new turn: said again
    assert [t for _n, t in said(voice)].count(TURN) == 2
    play(game, [KKBot(seed=0), KKBot(seed=1)], 2000)
    assert game.is_over
    for _ in range(2):
        voice.follow(state(game, "Ann"), False, TURN, OVER + " Ben wins!")
    ends = [t for _n, t in said(voice) if t.startswith(OVER)]
    assert ends == [OVER + " Ben wins!"]
    assert any("KK-E1" in t or "KK-B8" in t for _n, t in said(voice))  # the winning move, before the end


def test_TABLES_UP_D1_a_payout_is_said_by_its_summary_its_worked_steps_stay_in_the_story() -> None:
    game = up_game(["Ann", "Ben", "Cy"], seed=4)
    bots = [UPBot(seed=i) for i in range(3)]
    voice = Announcer("log")
    voice.follow(state(game, None), False, TURN, OVER)  # a spectator (the teacher's Watch): no turn of its own
    for _ in range(400):
        play(game, bots, 1)
        voice.follow(state(game, None), False, TURN, OVER)
        if any("Payout 1 of" in t for _n, t in said(voice)):
            break
    lines = [t for _n, t in said(voice)]
    assert any(t.startswith("Payout 1 of 4") for t in lines)
    assert not any("is worth" in t or "\n" in t for t in lines)  # UP-D2's steps: in the story, not read out
    assert len(said(voice)) <= KEPT


def test_TABLES_an_announcement_is_one_line_escaped_and_bounded() -> None:
    voice = Announcer("log")
    voice.say("<img src=x onerror=alert(1)>  says\nhello " + "x" * 2000)
    (_n, text), = said(voice)
    assert "<img" not in voice.widget.value and text.startswith("<img src=x onerror=alert(1)> says hello")
    assert len(text) <= 600
    voice.say("   ")
    assert len(said(voice)) == 1
