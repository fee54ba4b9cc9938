"""Messages the apps translate with ``tr(variable)``: pybabel cannot see them at the call, so they
are marked here for ``make messages``. tests/ui/test_i18n_catalogs.py checks this list against the
apps' data (a label changed there and not here fails the test), and tests/ui/test_i18n_apps.py builds
every app in every language and fails on English left in its widgets.
"""

from railkit.lessons import LESSONS
from railkit.messages import N_

# The apps' titles (App.title, shown through tr) and the index's lesson links (railkit/ui/index.py):
# marked in the lesson registry, railkit/lessons.py, where a lesson is added.
APP_TITLES = tuple(lesson.title for lesson in LESSONS)
LESSON_LINKS = tuple(lesson.link for lesson in LESSONS)

# Union Pacific's board (railkit/data/union_pacific/board.json): track labels and company colours.
TRACK_LABELS = (N_("Plains"), N_("Hills"), N_("Mountain"), N_("River valley"), N_("General"))
COMPANY_COLOURS = (
    N_("red"), N_("green"), N_("black"), N_("yellow"), N_("dark blue"), N_("white"), N_("orange"), N_("brown"),
    N_("light blue"), N_("grey"),
)

# The payout's reason (railkit/unionpacific/dividends.py), shown by ui/unionpacific/play/html.py.
PAYOUT_REASONS = (N_("dividend card"),)

# Club files (railkit/ui/club_files.py): the kind of file a lesson takes.
CLUB_FILE_NOUNS = (N_("board"), N_("deck"))

# ui/unionpacific/setup/steps.py STEPS: the step pills; setup/deck.py: the piles table's heads.
SETUP_STEPS = (
    N_("Starting trains"), N_("Track cards"), N_("Union Pacific shares"), N_("Company shares"),
    N_("The first investment"), N_("The display"), N_("The share deck"), N_("Who starts"),
)
PILE_TABLE_HEADS = (N_("pile, top first"), N_("positions"), N_("shares"), N_("dividend cards"))

# ui/unionpacific/building/position.py PRESETS: the rulebook examples' labels and notes (UP-B2b, UP-B2e).
BUILDING_PRESETS = (
    N_("Billings Northern Lights: Denver–El Paso refused (UP-B2e)"),
    N_("The Hungarian rulebook's example. Red trains run Billings–Casper–Salt Lake City, but no red train "
       "reaches Denver or El Paso, so Denver–El Paso is not linked to Billings. The rulebook refuses it "
       "until Denver–Casper or Denver–Salt Lake City carries a red train."),
    N_("… and allowed once Denver–Salt Lake City carries red (UP-B2e)"),
    N_("The same example one build later: a red train on Denver–Salt Lake City links Denver to Billings, "
       "so a red train may now go on Denver–El Paso."),
    N_("Denver Midland may not use Denver–El Paso (UP-B2b)"),
    N_("Denver–El Paso touches Denver, the Denver Midland's headquarters, and even a general card matches "
       "its track; but the Denver Midland may not build on that track type at all."),
)

# ui/capecairo/auction/app.py: the built-in deck's note.
KK_DECK_NOTES = (N_("The rulebook does not list the 50 terrain cards: this deck is railkit's reconstruction."),)

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
