"""Messages the apps translate with ``tr(variable)``: pybabel cannot see them at the call, so they
are marked here for ``make messages``. tests/ui/test_i18n_catalogs.py checks this list against the
apps' data (a label changed there and not here fails the test).
"""

from railkit.messages import N_

# The apps' titles (App.title, shown through tr).
APP_TITLES = (
    N_("Union Pacific dividends"),
)

# railkit/ui/unionpacific/dividends/examples.py: the rulebook examples' labels and notes (UP-D5..UP-D11).
DIVIDEND_PRESETS = (
    N_("Three tied for most (UP-D5)"),
    N_("A company worth 7; three players tie for the most shares. Primary and secondary, 7 + 3, "
       "are pooled and split three ways, rounded down; the player with fewer shares gets nothing."),
    N_("Three tied for second (UP-D6)"),
    N_("A company worth 5; one primary shareholder, three tied for second. The secondary amount, "
       "2, split three ways rounds down to nothing."),
    N_("El Paso & Rio Grande, 3/2/1 (UP-D7)"),
    N_("EP&RG is worth 3 at the start (two starting trains + 1). Holdings 3, 2 and 1."),
    N_("Sioux Falls Royal Blue, 4/2/1 (UP-D7)"),
    N_("Sioux Falls Royal Blue has five trains on the board, so it is worth 6. Holdings 4, 2 and 1."),
    N_("UP, 2nd payout, three tied for 2nd (UP-D11)"),
    N_("Second payout. One player leads; three tie behind and occupy positions 2–4: "
       "(8 + 6 + 4) ÷ 3 = 6 each."),
    N_("UP, 3rd payout, three tied for 1st (UP-D11)"),
    N_("Third payout. Three tie for the most UP shares and occupy positions 1–3: "
       "(15 + 12 + 9) ÷ 3 = 12 each. The rulebooks stop there: that the next player takes position 4 "
       "is railkit's DECISION (the next player takes the next free position, UP-D11)."),
    N_("the next player takes the next free position"),
)
