# railkit on The Littlest JupyterHub: copy to /opt/tljh/config/jupyterhub_config.d/railkit.py
# (install-railkit.sh does, filling in the checkout), then `sudo tljh-config reload hub`.
# TLJH loads this after its own settings, so it wins over `user_environment.default_app`.
from pathlib import Path

NOTEBOOKS = Path("@RAILKIT_CHECKOUT@") / "notebooks"  # read-only for learners

c = get_config()  # noqa: F821 - provided by JupyterHub
c.Spawner.notebook_dir = str(NOTEBOOKS)
# Learners land on the lesson index (or Voila's list of lessons when there is no index).
c.Spawner.default_url = "/voila/render/index.ipynb" if (NOTEBOOKS / "index.ipynb").exists() else "/voila/tree"
