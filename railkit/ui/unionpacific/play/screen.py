"""What every panel of the play lesson is shown: ``Screen``, one snapshot per refresh."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from railkit.session import Session
from railkit.unionpacific import UnionPacificGame


@dataclass(frozen=True)
class Screen:
    """The session, the engine's view for whoever may see the screen now (``session.viewer()``), and
    the payouts whose breakdown the exercise still hides."""

    session: Session[UnionPacificGame]
    view: Mapping[str, Any]
    hidden_payouts: frozenset[int] = frozenset()

    @classmethod
    def of(cls, session: Session[UnionPacificGame], hidden_payouts: frozenset[int] = frozenset()) -> Screen:
        return cls(session, session.game.view(session.viewer()), hidden_payouts)

    @property
    def game(self) -> UnionPacificGame:
        return self.session.game

    @property
    def phase(self) -> str:
        return str(self.view["phase"])

    @property
    def acting(self) -> str | None:
        return self.session.acting

    @property
    def you(self) -> str | None:
        return self.session.you

    @property
    def may_act(self) -> bool:
        """The move controls show: a human is to act and (hot seat) has shown their hand."""
        return self.session.may_act
