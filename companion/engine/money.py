"""How money is written, for every game and every screen: ``12 500 R``, ``−3 000 DM``.

One formatter (thousands grouped with a space, the minus sign U+2212 as typeset on the cards), so
the engine's refusal sentences, the table's messages and the screen never disagree.
"""

from __future__ import annotations

MINUS = "\N{MINUS SIGN}"


def format_money(amount: int, unit: str, *, signed: bool = False) -> str:
    """``format_money(-1500, "R") == "−1 500 R"``; with ``signed`` a gain gets a leading ``+``."""
    text = f"{abs(amount):,}".replace(",", " ") + f" {unit}"
    if amount < 0:
        return MINUS + text
    return ("+" + text) if signed and amount > 0 else text
