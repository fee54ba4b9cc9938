"""Why a build is (not) possible, in numbers and words (KK-B2, KK-C3, KK-C5)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from railkit.capecairo.brief import brief
from railkit.capecairo.rules_check import TRACK_PRICE, build_numbers
from railkit.capecairo.state import KKGameLike
from railkit.errors import RuleError
from railkit.words import a, count


@dataclass(frozen=True)
class BuildExplanation:
    player: str
    terrain: str | None  # the next terrain in front of the train
    card_id: str | None
    requirement: int  # KK-C3
    flipped_tracks: int  # KK-B2 (1)
    flipped_cards: int
    own_tracks: int  # KK-B2 (2)
    own_cards: int
    bonus_tracks: int  # KK-B2 (3)
    to_buy: int  # KK-B2 (4): the fewest pieces to buy after spending bonus tracks
    cost: int
    money: int
    can_afford: bool
    your_turn: bool
    sentences: list[str] = field(default_factory=list)

    @property
    def can_build(self) -> bool:
        """Allowed to build right now: the player's turn, a terrain to cross, enough money."""
        return self.your_turn and self.can_afford

    def __str__(self) -> str:
        return "\n".join(self.sentences)

    def __repr__(self) -> str:
        if self.card_id is None:
            return f"<BuildExplanation {self.player}: no terrain to cross>"
        verdict = "can build" if self.can_build else "can afford it" if self.can_afford else "cannot afford it"
        return (f"<BuildExplanation {self.player}: {self.card_id} {self.terrain} needs {self.requirement}, "
                f"buy {self.to_buy} for {self.cost}; {verdict}>")

    def _repr_html_(self) -> str:
        return "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in self.sentences) + "</ul>"


def explain_build(game: KKGameLike, player: str | None = None) -> BuildExplanation:
    """The four track sources for ``player`` (default: whoever is to act) and what is missing."""
    table, state = game.table, game.state
    player = player or game.current_player or table.players[0]
    if player not in state.money:
        raise RuleError("KK-S1", f"{brief(player)} is not playing; the players are {', '.join(table.players)}")
    nums = build_numbers(table, state, player)
    your_turn = state.phase == "build" and state.turn == player
    card = nums.card
    said: list[str] = []
    if card is None:
        said.append(f"{player} has no terrain in front of the train, so there is nothing to build (KK-B2).")
    else:
        said.append(f"{player}'s next terrain is {card}: crossing {_terrain(card.terrain)} needs {nums.need} tracks (KK-C3).")
        turned = len(state.flipped)
        said.append(f"Turned-up cards this round: {count(turned, 'card')} with "
                    f"{count(nums.flipped, 'track piece')} (KK-B2 1)." if turned else
                    "Turned-up cards this round: none (KK-B2 1).")
        said.append(
            f"{player}'s own uncrossed cards: {count(len(state.queues[player]), 'card')} with "
            f"{count(nums.own, 'track piece')}, the one being crossed included (KK-B2 2)."
        )
        said.append(f"Bonus tracks held: {nums.bonus} (KK-B2 3, KK-R2).")
        total = nums.free + nums.bonus
        if nums.min_buy == 0:
            said.append(f"That makes {total}: enough, nothing to buy.")
        else:
            said.append(
                f"That makes {total}, so {count(nums.min_buy, 'track piece')} must be bought at "
                f"{TRACK_PRICE} pounds each: {count(nums.cost, 'pound')} (KK-B2 4)."
            )
            if nums.can_afford:
                said.append(f"{player} has {count(nums.money, 'pound')} and can afford it.")
            else:
                said.append(f"{player} has only {count(nums.money, 'pound')} and cannot afford it; "
                            "money never goes below 0 (KK-C5).")
        if nums.can_afford:
            said.append(f"Crossing it pays the card's coin: {count(card.coin, 'pound')} (KK-B4).")
    if not your_turn:
        said.append(f"It is not {player}'s turn to build now.")
    return BuildExplanation(
        player=player,
        terrain=card.terrain if card else None,
        card_id=card.id if card else None,
        requirement=nums.need,
        flipped_tracks=nums.flipped,
        flipped_cards=len(state.flipped),
        own_tracks=nums.own,
        own_cards=len(state.queues[player]),
        bonus_tracks=nums.bonus,
        to_buy=nums.min_buy,
        cost=nums.cost,
        money=nums.money,
        can_afford=nums.can_afford,
        your_turn=your_turn,
        sentences=said,
    )


def _terrain(terrain: str) -> str:
    """"a river", "a village", but "mountains"."""
    return terrain if terrain.endswith("s") else a(terrain)
