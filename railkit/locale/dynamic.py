"""Messages the apps translate with ``tr(variable)`` that no module defines: the data files' words (the board's
track labels and company colours). Texts a module defines are marked with ``N_`` where they are defined; these
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
