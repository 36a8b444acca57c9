"""``companion setup-box``: digitise a printed box (board, roads, cards and their tags) on the box.

A pure wizard state machine over the table's intents (``machine.step``), saved after every intent
(``store``), an automatic screen map (``layout``), and named data sets in the box's state directory
that the kiosk and the simulator choose from (``datasets.DataSets``). See docs/setup-box.md.
"""
