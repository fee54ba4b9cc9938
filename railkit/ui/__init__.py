"""railkit's teaching layer: apps (ipywidgets), figures (plotly), translation.

Only this package imports ipywidgets and plotly; the engines never do. Each app is a class
(``railkit.ui.dividends.DividendsApp``, ...) built on ``railkit.ui.app.App`` and shown by a
one-line notebook cell. All user-facing text goes through ``railkit.ui.i18n.tr``.
"""
