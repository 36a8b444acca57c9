"""The RF groups a bridge is flashed with (``companion hardware flash``), and how they are named on the link.

The same groups are computed wherever they are needed: by the CLI that writes ``bridge_config.py``,
and by ``companion doctor``, which compares them with the digest a bridge reports in its HELLO
(protocol 4, ``serial_protocol.rf_digest``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.hardware.config import HardwareConfig


class NoRfGroups(ValueError):
    """Flashing would leave the bridge without RF groups: refused (see :func:`flash_groups`)."""


def flash_groups(
    config: HardwareConfig, adjacency: Mapping[str, Iterable[str]] | None = None, *, one_at_a_time: bool = False
) -> list[list[int]]:
    """The RF groups written to the Pico, never "none": the plan's ``[rf] groups`` (or the board's
    neighbours, ``--adjacency``), or one reader at a time. Without either, and without
    ``one_at_a_time``, :class:`NoRfGroups`: a bridge without groups used to switch every antenna on at
    once (the worst crosstalk, and 45 x 100 mA). ``[rf] rf_safe = false`` also means one at a time on
    the bridge: there is no "all on" sweep any more."""
    from companion.hardware.spi_readers import rf_scan_groups

    channels = sorted([*config.readers, *([config.card_channel] if config.card_channel is not None else [])])
    if one_at_a_time or not config.rf.rf_safe:
        return [[channel] for channel in channels]
    if not config.rf.groups and not adjacency:
        raise NoRfGroups(
            f"{config.path}: no RF groups: run `companion hardware plan --board-size WxH --config {config.path} "
            "--write-config` (groups from the antennas' distances on the print), or pass --one-at-a-time "
            "(safe, about 6 ms per reader per sweep)"
        )
    groups = rf_scan_groups(config, adjacency)
    assert groups is not None  # rf_safe is true here
    return groups
