"""The colours of Vom Kap bis Kairo on screen, in one place: the players' trains (KK-S1), the five terrains
(KK-C3) and the map of Africa. The cards, chips and race grid (``common``) and the race map (``race_map``) draw
with these; ``tests/ui/test_ui_palettes.py`` checks every pair below against the background it is drawn on.

* Text: at least 4.5:1 against its background (WCAG 1.4.3); shapes and lines at least 3:1 (1.4.11). A colour
  too light for that on its background (the yellow train on the map's land) is drawn with a dark edge.
* Colour is never the only cue (1.4.1): every terrain has its name in words and its own marker shape on the map,
  every train its player's name beside it. The players' colours also stay apart, with a CIEDE2000 difference of
  at least 18 in each of protanopia, deuteranopia and tritanopia (Machado 2009): the game's green is a blue-green
  for that, since a leaf green and the red look alike without red-green vision.
"""

from __future__ import annotations

__all__ = ["LABEL_BOX", "LAND", "MAP_BORDER", "PLAYER_EDGE", "PLAYER_HEX", "PLAYER_INK", "PLAYER_TEXT", "ROUTE_COLOUR",
           "TERRAINS", "TERRAIN_INK", "TERRAIN_PAPER", "TERRAIN_SIGN", "TERRAIN_SYMBOL", "TOWN_TEXT", "WATER", "player_ink",
           "player_text", "terrain_css"]

# The trains (KK-S1): their fill on the race grid and the map.
PLAYER_HEX = {"red": "#c62828", "yellow": "#f2b705", "green": "#16806e", "blue": "#283593"}
PLAYER_TEXT = {"yellow": "#222222"}  # text on the player's colour (the race grid's crossed cells); else white
PLAYER_INK = {"yellow": "#8a6a00"}  # the player's colour as text or a thin line on white or the land
PLAYER_EDGE = "#1a1a1a"  # the dark edge under a player's crossed lane (the yellow one is too light on its own)

# The terrains (KK-C3): the ink of names, edges and map markers, and the paper of cards and chips.
TERRAINS = ("river", "mountains", "desert", "village", "savanna")
TERRAIN_INK = {"river": "#0067a5", "mountains": "#5d4e3f", "desert": "#8a5a00", "village": "#a23b1c",
               "savanna": "#3f6e1c"}
TERRAIN_PAPER = {"river": "#e1f2fc", "mountains": "#ebe4dc", "desert": "#fcf0cf", "village": "#f8e1d8",
                 "savanna": "#e6f1da"}
TERRAIN_SYMBOL = {"river": "diamond", "mountains": "triangle-up", "desert": "circle", "village": "square",
                  "savanna": "star"}  # plotly marker symbols: the shape tells the terrain without its colour
TERRAIN_SIGN = {"river": "◆", "mountains": "▲", "desert": "●", "village": "■", "savanna": "★"}  # the same, as text

# The map of Africa (race_map).
LAND, MAP_BORDER, WATER = "#f4f1e8", "#cfc7b3", "#e3eef7"
ROUTE_COLOUR = "#8d8577"  # the route's dotted line
TOWN_TEXT = "#615b50"  # the names of towns that are no stop in a short game (small type on the land)
LABEL_BOX = ("#ffffff", 0.85)  # the train labels' box: white at this opacity over the map


def player_text(colour: str) -> str:
    """Text on the player's colour."""
    return PLAYER_TEXT.get(colour, "#ffffff")


def player_ink(colour: str) -> str:
    """The player's colour for text and thin lines on a light background."""
    return PLAYER_INK.get(colour, PLAYER_HEX.get(colour, "#555555"))


def terrain_css() -> str:
    """The CSS classes ``kk-<terrain>``: ``--kk-c`` (ink) and ``--kk-bg`` (paper) for cards, chips and the race."""
    return "\n".join(f".railkit-app .kk-{t} {{ --kk-c: {TERRAIN_INK[t]}; --kk-bg: {TERRAIN_PAPER[t]}; }}"
                     for t in TERRAINS)
