"""The strategy lab: fair computer players, search players, rated ladders (see ``railkit.lab.ladder``)."""
