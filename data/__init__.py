"""The project's data files (game content, fonts, translations), installed as the package ``meeple_data``.

This directory is mapped to that package name in pyproject.toml, so that ``pip install .`` ships
the files inside the distribution and ``engine.resources`` finds them with ``importlib.resources``
whether the project is installed from a wheel or in editable mode. There is no code here.
"""
