"""railkit: rules engines and teaching apps for Union Pacific and Vom Kap bis Kairo.

The engines (``railkit.unionpacific``, ``railkit.capecairo``) never import widgets or
plotly; the teaching layer lives in ``railkit.ui``.
"""

from railkit.errors import DataError, GameOverError, NotYourTurnError, RuleError

__all__ = ["DataError", "GameOverError", "NotYourTurnError", "RuleError"]
# The one place the version is written: pyproject.toml reads it (setuptools dynamic version).
__version__ = "0.1.0"
