"""The Union Pacific building lesson (``notebooks/up_building.ipynb``, UP-B1..UP-B6, UP-B2a–f): ``BuildingApp``."""

from railkit.ui.unionpacific.building.app import BuildingApp

__all__ = ["BuildingApp"]
