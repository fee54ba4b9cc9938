"""The setup lesson's step pills (UP-S1..UP-S8) as real buttons: a step already reached can be opened
again (going back only re-shows it; the setup itself is not undone), later steps are disabled and look
it: pills that look clickable must be clickable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as widgets

from railkit.ui.i18n import tr


class StepPills:
    """One button per step; ``show(step, reached)`` marks the current one and enables those reached."""

    def __init__(self, steps: Sequence[tuple[str, str]], on_go: Callable[[int], object]) -> None:
        self.buttons: list[widgets.Button] = []
        for i, (rule, name) in enumerate(steps, 1):
            b = widgets.Button(description=f"{i}. {rule} {tr(name)}", disabled=True,
                               layout=widgets.Layout(width="auto", height="30px"))
            b.add_class("railkit-step-pill")
            b.on_click(lambda _b, step=i: on_go(step))
            self.buttons.append(b)
        self.widget = widgets.HBox(self.buttons, layout=widgets.Layout(flex_flow="row wrap"))
        self.widget.add_class("railkit-step-pills")

    def show(self, step: int, reached: int) -> None:
        for i, b in enumerate(self.buttons, 1):
            b.disabled = i > reached or i == step
            b.button_style = "primary" if i == step else ("success" if i <= reached else "")
            b.tooltip = (tr("You are here") if i == step else
                         tr("Show this step again") if i <= reached else tr("Press “Next step” to get here"))
