"""The games on the table: one package each, with one plug-in object registered under the ``iwgt.games`` entry
point group (``pyproject.toml``). Nothing here registers a game: the core registry reads the entry points."""
