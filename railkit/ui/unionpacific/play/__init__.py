"""The Union Pacific play lesson (``notebooks/up_play.ipynb``): ``PlayApp``, a whole game against computer
players or hot seat, built from panels around a ``railkit.session.Session``.

* ``app`` — the app: composes the panels and the session; starting, acting, undo, save and load;
* ``new_game`` — the “New game and options” form;
* ``moves`` and ``build`` — the move boxes of each step of a turn, the build pickers and the map;
* ``tables`` — what is shown of the game: status, hand, display and players, companies, latest moves,
  payouts, result, log;
* ``exercise`` — the payout exercise;
* ``html`` — the HTML and words those panels show (pure functions); ``screen`` — what they are shown.
"""

from railkit.ui.unionpacific.play.app import MAX_BOT_ACTIONS, PlayApp

__all__ = ["MAX_BOT_ACTIONS", "PlayApp"]
