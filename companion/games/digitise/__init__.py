"""What a game tells the set-up wizard (``companion setup-box``) so an owner can digitise his printed
box: the wizard's data model, road-graph helpers, and the ``GameProfile`` a game's plug-in gives
(``plugin.setup_profile()``: its card forms, printed price scales, rulebook facts and file spelling).
The wizard itself (``companion/setup_box``) is game-neutral."""
