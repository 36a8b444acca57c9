"""Game statistics from the bank's ledger, for every game: each player's balance over the rounds,
contracts paid out, money earned and spent, the biggest payout (the end-of-game screen and
``companion export --stats``).

Pure: built from the states of a played game (each has a ``ledger``) and the round each state is in.
Undone payments and their reversal entries cancel out and count for nothing; the starting money
counts as neither earned nor spent.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass

from companion.engine.ledger import Ledger, LedgerEntry


@dataclass(frozen=True, slots=True)
class PlayerStats:
    colour: str
    balances: tuple[int, ...]  # the balance at the end of each round in ``GameStats.rounds``
    delivered: int  # payouts for a card (contracts fulfilled / delivered)
    earned: int  # money received from the bank, starting money aside
    spent: int  # money paid (a positive number)
    biggest_payout: int
    biggest_card: str | None  # the card of the biggest payout


@dataclass(frozen=True, slots=True)
class GameStats:
    game: str  # the registry name
    title: str
    currency: str
    rounds: tuple[int, ...]
    players: tuple[PlayerStats, ...]
    standings: tuple[Mapping[str, object], ...]

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "title": self.title,
            "currency": self.currency,
            "rounds": list(self.rounds),
            "players": [{**asdict(p), "balances": list(p.balances)} for p in self.players],
            "standings": [dict(s) for s in self.standings],
        }


def live_entries(ledger: Ledger) -> list[LedgerEntry]:
    """The entries that still count: neither undone nor themselves a reversal."""
    entries = ledger.entries()
    reversed_seqs = {e.reverses for e in entries if e.reverses is not None}
    return [e for e in entries if e.reverses is None and e.seq not in reversed_seqs]


def is_starting_money(entry: LedgerEntry) -> bool:
    return entry.seq <= 0 or entry.reason == "starting money"


def game_stats(
    *,
    game: str,
    title: str,
    currency: str,
    colours: Sequence[str],
    history: Iterable[tuple[int, Ledger]],  # (round, ledger) after each command, in order, the start first
    standings: Iterable[Mapping[str, object]],
) -> GameStats:
    rounds: list[int] = []
    per_round: list[dict[str, int]] = []
    ledger = Ledger()
    running = dict.fromkeys(colours, 0)
    for round_, ledger_now in history:
        # Each state's ledger extends the one before (undo books reversals): add only the new entries.
        for entry in ledger_now.since(ledger.size):
            if entry.player in running:
                running[entry.player] += entry.amount
        ledger = ledger_now
        balances = dict(running)
        if rounds and rounds[-1] == round_:
            per_round[-1] = balances
        else:
            rounds.append(round_)
            per_round.append(balances)
    players = []
    counted = [e for e in live_entries(ledger) if not is_starting_money(e)]
    for colour in colours:
        mine = [e for e in counted if e.player == colour]
        payouts = [e for e in mine if e.amount > 0 and e.card is not None]
        best = max(payouts, key=lambda e: e.amount, default=None)
        players.append(
            PlayerStats(
                colour,
                tuple(b[colour] for b in per_round),
                len(payouts),
                sum(e.amount for e in mine if e.amount > 0),
                -sum(e.amount for e in mine if e.amount < 0),
                0 if best is None else best.amount,
                None if best is None else best.card,
            )
        )
    return GameStats(game, title, currency, tuple(rounds), tuple(players), tuple(standings))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a rate of ``wins`` in ``n`` (ties may count half):
    the advisor's win chances and the bot benchmarks' win rates, for every game."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)  # exact at the ends (no rounding to 0.9999…)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return low, high
