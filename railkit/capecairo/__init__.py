"""Vom Kap bis Kairo: the rules engine (rule IDs KK-* from the rules digest).

    >>> from railkit.capecairo import new_game, Bid
    >>> game = new_game(["Ann", "Bob"], seed=1)
    >>> game.players_to_act()
    ('Ann', 'Bob')

A game is a fixed ``KKTable`` plus a mutable ``KKState`` (``game.table``, ``game.state``); the
rules are functions over the two (``checks``, ``perform``, ``views``, ``explain``).
"""

from railkit.capecairo.actions import Bid, Build, Choose, KKAction, Pass, registry
from railkit.capecairo.auction import AuctionExplanation, auction_order, explain_auction_order
from railkit.capecairo.deck import REQUIREMENT, Card, load_deck, parse_deck
from railkit.capecairo.explain import BuildExplanation, explain_build
from railkit.capecairo.game import CapeToCairoGame, load_game, new_game
from railkit.capecairo.state import AuctionRecord, KKState, KKTable
from railkit.capecairo.views import KKView, Result

__all__ = [
    "KKAction",
    "AuctionExplanation",
    "AuctionRecord",
    "Bid",
    "Build",
    "BuildExplanation",
    "CapeToCairoGame",
    "Card",
    "Choose",
    "KKState",
    "KKView",
    "Pass",
    "REQUIREMENT",
    "Result",
    "KKTable",
    "auction_order",
    "explain_auction_order",
    "explain_build",
    "load_deck",
    "load_game",
    "new_game",
    "parse_deck",
    "registry",
]
