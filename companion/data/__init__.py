"""Reading owner-editable TOML data files for any game: exact line numbers, field readers, problems.

Each game's own file formats (boards, decks) live with the game, e.g. ``companion.games.on_the_way.data``.
"""
