"""The four Vom Kap bis Kairo actions. Each is a frozen dataclass with a ``player``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from railkit.actions import ActionRegistry

registry: ActionRegistry[KKAction] = ActionRegistry("cape_to_cairo")


@registry.register("bid")
@dataclass(frozen=True)
class Bid:
    """A sealed bid for the right to choose first (KK-A2); paid win or lose (KK-A3)."""

    player: str
    amount: int


@registry.register("choose")
@dataclass(frozen=True)
class Choose:
    """Take one card from the auction offer, in choosing order (KK-A4, KK-A6)."""

    player: str
    card_id: str


@registry.register("build")
@dataclass(frozen=True)
class Build:
    """Cross the first terrain in front of the train (KK-B2, KK-B6).

    ``buy`` is how many track pieces to buy at 10 pounds each; ``None`` buys the fewest
    needed after spending bonus tracks. Buying more lets a player keep bonus tracks.
    """

    player: str
    buy: Optional[int] = None


@registry.register("pass")
@dataclass(frozen=True)
class Pass:
    """Do not build now; the turn goes to the left (KK-B3)."""

    player: str


KKAction = Union[Bid, Choose, Build, Pass]
