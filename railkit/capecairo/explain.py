"""Why a build is (not) possible, in numbers and words (KK-B2, KK-C3, KK-C5)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from railkit.capecairo.checks import TRACK_PRICE, build_numbers
from railkit.capecairo.phrases import card_words, cards, crossing, pounds, track_pieces
from railkit.capecairo.state import KKGameLike
from railkit.errors import RuleError
from railkit.game import not_playing
from railkit.messages import Message, addressed

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} has no terrain in front of the train, so there is nothing to build (KK-B2).",
          "You have no terrain in front of your train, so there is nothing to build (KK-B2).")
addressed("{player}'s next terrain is {card}: {crossing} needs {need} tracks (KK-C3).",
          "Your next terrain is {card}: {crossing} needs {need} tracks (KK-C3).")
addressed("{player}'s own uncrossed cards: {cards} with {pieces}, the one being crossed included (KK-B2 "
           "2).",
          "Your own uncrossed cards: {cards} with {pieces}, the one being crossed included (KK-B2 2).")
addressed("{player} has {money} and can afford it.",
          "You have {money} and can afford it.")
addressed("{player} has only {money} and cannot afford it; money never goes below 0 (KK-C5).",
          "You have only {money} and cannot afford it; money never goes below 0 (KK-C5).")
addressed("It is not {player}'s turn to build now.",
          "It is not your turn to build now.")


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
        raise RuleError("KK-S1", not_playing(player, table.players))
    nums = build_numbers(table, state, player)
    your_turn = state.phase == "build" and state.turn == player
    card = nums.card
    said: list[str] = []
    if card is None:
        said.append(Message("{player} has no terrain in front of the train, so there is nothing to build (KK-B2).",
                            {"player": player}))
    else:
        said.append(Message("{player}'s next terrain is {card}: {crossing} needs {need} tracks (KK-C3).",
                            {"player": player, "card": card_words(card), "crossing": crossing(card.terrain),
                             "need": nums.need}))
        turned = len(state.flipped)
        said.append(Message("Turned-up cards this round: {cards} with {pieces} (KK-B2 1).",
                            {"cards": cards(turned), "pieces": track_pieces(nums.flipped)}) if turned else
                    Message("Turned-up cards this round: none (KK-B2 1)."))
        said.append(Message("{player}'s own uncrossed cards: {cards} with {pieces}, the one being crossed included "
                            "(KK-B2 2).", {"player": player, "cards": cards(len(state.queues[player])),
                                           "pieces": track_pieces(nums.own)}))
        said.append(Message("Bonus tracks held: {bonus} (KK-B2 3, KK-R2).", {"bonus": nums.bonus}))
        total = nums.free + nums.bonus
        if nums.min_buy == 0:
            said.append(Message("That makes {total}: enough, nothing to buy.", {"total": total}))
        else:
            said.append(Message("That makes {total}, so {pieces} must be bought at {price} pounds each: {cost} (KK-B2 4).",
                                {"total": total, "pieces": track_pieces(nums.min_buy), "price": TRACK_PRICE,
                                 "cost": pounds(nums.cost)}))
            if nums.can_afford:
                said.append(Message("{player} has {money} and can afford it.",
                                    {"player": player, "money": pounds(nums.money)}))
            else:
                said.append(Message("{player} has only {money} and cannot afford it; money never goes below 0 (KK-C5).",
                                    {"player": player, "money": pounds(nums.money)}))
        if nums.can_afford:
            said.append(Message("Crossing it pays the card's coin: {coin} (KK-B4).", {"coin": pounds(card.coin)}))
    if not your_turn:
        said.append(Message("It is not {player}'s turn to build now.", {"player": player}))
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

