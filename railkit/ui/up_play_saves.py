"""Undo, save and load in the Union Pacific game app (``railkit.ui.up_play``).

The engine's action log is the game: undo replays it up to just before the last human move
(``game.replay``); a save is the engine's save format (``to_dict`` / ``load_game``) plus which seats are
human, under ``SEATS_KEY``. A broken save is refused with the reason and nothing changes.
"""

from __future__ import annotations

import base64
import json

import ipywidgets as widgets

from railkit.ui.app import InputError, guarded
from railkit.ui.i18n import tr
from railkit.ui.up_common import row
from railkit.unionpacific import SaveFileError, load_game

MAX_SAVE_CHARS = 2_000_000
SEATS_KEY = "railkit_play"  # extra key in a save: which seats are human (the engine ignores it)


class SaveLoad:
    """The undo button's callback and the “Save and load” panel of ``PlayApp``.

    Uses the app's ``game``, ``humans``, ``acting``, ``_install()``, ``refresh()`` and ``_next_words()``,
    and resets the view and exercise state an undone move leaves behind.
    """

    def _build_saveload(self) -> widgets.Widget:
        self.save_button = widgets.Button(description=tr("Save"), icon="download", button_style="info",
                                          tooltip=tr("Write this game into the box below and offer it as a file"))
        self.save_button.add_class("railkit-save")
        self.save_button.on_click(lambda _b: self.on_save())
        self.load_button = widgets.Button(description=tr("Load"), icon="upload", button_style="warning",
                                          tooltip=tr("Replace this game by the one pasted in the box below"))
        self.load_button.add_class("railkit-load")
        self.load_button.on_click(lambda _b: self.on_load())
        self.download = widgets.HTML("")
        self.download.add_class("railkit-download")
        self.save_area = widgets.Textarea(value="", placeholder=tr("Press Save to get this game as text, or paste "
                                                                    "a saved game here and press Load."),
                                          layout=widgets.Layout(width="100%", height="120px"))
        self.save_area.add_class("railkit-save-area")
        return widgets.VBox([
            widgets.HTML(tr("A saved game is the list of moves from a numbered deal; loading replays it, so the "
                            "same game comes back exactly.")),
            row([self.save_button, self.load_button, self.download]), self.save_area])

    # ------------------------------------------------------------------ undo
    def _undo_point(self) -> int | None:
        for i in range(len(self.game.log) - 1, -1, -1):
            if self.game.log[i].player in self.humans:
                return i
        return None

    @guarded
    def on_undo(self) -> bool:
        if self.game is None:
            raise InputError(tr("Start a game first."))
        point = self._undo_point()
        if point is None:
            raise InputError(tr("There is nothing to undo: no human move has been made yet."))
        game = self.game.replay(point)  # the engine rebuilds the game from its log
        self.game = game
        self.bots_paused = False
        done = len(game.payout_history)
        if self.question is not None and self.question.number > done:
            self.question = None
        self.hidden_payouts = {n for n in self.hidden_payouts if n <= done}
        self.recent_from = self.mine_from = min(self.recent_from, len(game.narrative))
        self.hand_for = None
        self._controls_key = None
        self.refresh()
        self.show_info(tr("Undone: back to just before the last move by {player}. {next}",
                          player=self.acting or "", next=self._next_words()))
        return True

    # ------------------------------------------------------------------ save and load
    def save_text(self) -> str:
        data = self.game.to_dict()
        data[SEATS_KEY] = {"humans": list(self.humans)}
        return json.dumps(data)

    @guarded
    def on_save(self) -> str:
        if self.game is None:
            raise InputError(tr("Start a game first."))
        text = self.save_text()
        self.save_area.value = text
        payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
        filename = f"union_pacific_game_{self.game.seed}_move_{len(self.game.log)}.json"
        self.download.value = (f"<a download='{filename}' href='data:application/json;base64,{payload}'>"
                               f"{tr('Download as a file')}</a>")
        self.show_ok(tr("Saved after {n} moves: the game is in the box below, and “Download as a file” keeps a "
                        "copy. Paste it back and press Load to continue later.", n=len(self.game.log)))
        return text

    @guarded
    def on_load(self) -> bool:
        raw = self.save_area.value.strip()
        if not raw:
            raise InputError(tr("The box is empty: paste a saved game into it, then press Load."))
        if len(raw) > MAX_SAVE_CHARS:
            raise InputError(tr("That text is far too long to be a saved game. Nothing was changed."))
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(tr("That is not a saved game: the text is not valid JSON ({error}). Nothing was "
                                "changed.", error=str(exc))) from None
        if not isinstance(data, dict):
            raise InputError(tr("That is not a saved game: it should be one JSON object. Nothing was changed."))
        options = data.get("options")
        if isinstance(options, dict) and options.get("board") is not None:
            raise InputError(tr("This save uses its own board file; only the shipped board can be loaded here. "
                                "Nothing was changed."))
        try:
            game = load_game(data)
        except SaveFileError as exc:
            raise InputError(tr("This save cannot be loaded: {error}. Nothing was changed.", error=str(exc))) from None
        except Exception as exc:  # noqa: BLE001 - any broken save is refused the same way
            raise InputError(tr("This save cannot be loaded ({error}). Nothing was changed.",
                                error=str(exc) or type(exc).__name__)) from None
        seats = data.get(SEATS_KEY)
        humans: tuple[str, ...] = tuple(game.players)
        if isinstance(seats, dict) and isinstance(seats.get("humans"), list):
            named = tuple(h for h in seats["humans"] if isinstance(h, str) and h in game.players)
            if named:
                humans = named
        self._install(game, humans)
        self.show_ok(tr("Loaded: {n} moves replayed. {next}", n=len(game.log), next=self._next_words()))
        return True
