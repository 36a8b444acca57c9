"""Race to ten: a third game, small enough to read in one sitting, that plugs into the platform.

Two to four players take turns adding 1, 2 or 3 to a shared counter; whoever brings it to ten wins
and the bank pays him 100 (R-10). It exists to prove that a game plugs in without touching the
platform: ``companion play``, the journal (resume, export), the kiosk, the simulator, ``companion
games`` and the leaderboard all run it through the registry (tests/games/test_third_game.py).

Everything a game needs is here, in one small package: engine (state, commands, reducer, codec),
table controller, screen, simulator props, messages, and the plug-in object ``PLUGIN``.
"""
