"""The kiosk's environment (``/etc/companion/kiosk.env``), validated at start: one message per setting.

Every ``COMPANION_*`` variable the kiosk reads is listed in ``SETTINGS`` with its default and what it
accepts. ``read_environment`` never raises: a bad value is replaced by the setting's default and a
warning naming the setting says so (``COMPANION_LANGUAGE='xx' is not a language of this box (en, cs,
de, pl): using en``). The warnings go to the log at start and to the admin screen, and in safe mode
to the screen itself, so one typo in the environment file never stops the box (issue 20).

No setting is required: the box plays with every default (the reference data, no leaderboard, a
generated admin PIN, every game). The hardware file is read by ``kiosk.hardware``; only its name is
checked here.
"""

from __future__ import annotations

import logging
import socket
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from companion import games
from companion.table.messages import LANGUAGES
from companion.text import printable, text_problem

log = logging.getLogger(__name__)

BOOLEANS = {"1": True, "yes": True, "true": True, "on": True, "0": False, "no": False, "false": False, "off": False}
MAX_VALUE = 2048  # characters of any setting: a path or URL is far shorter

# name -> what it is (the example file and docs/pi-install.md say more)
SETTINGS: dict[str, str] = {
    "COMPANION_ADMIN_PIN": "the admin PIN: 4-12 digits 0-9 (default: generated, in the state directory)",
    "COMPANION_ADMIN_REQUIRES_CARD": "1/0: the admin card alone does not open the admin menu (default 0)",
    "COMPANION_HARDWARE_FILE": "the hardware TOML (default: none, the screen only)",
    "COMPANION_GAMES": "the games offered, comma-separated registry names (default: all)",
    "COMPANION_LANGUAGE": f"the kiosk's language: {', '.join(LANGUAGES)} (default en)",
    "COMPANION_DATA_SET": "the data set played (default: the box digitised last, else the reference data)",
    "COMPANION_MQTT_BROKER": "the leaderboard's broker URL, mqtt://host[:port] (default: no leaderboard)",
    "COMPANION_TABLE_ID": "this table's name on the leaderboard (default: the host name)",
    "COMPANION_MQTT_PASSWORD": "the broker password (default: none, or the one in the URL)",
}


@dataclass(frozen=True)
class KioskEnvironment:
    """The settings the kiosk starts with, every one valid; ``warnings``: what was replaced and why."""

    admin_pin: str | None = None  # None: the generated PIN of the state directory
    admin_requires_card: bool = False
    hardware_file: str | None = None
    games: tuple[str, ...] = ()
    language: str = "en"
    data_set: str | None = None
    mqtt_broker: str | None = None
    table_id: str | None = None
    warnings: tuple[str, ...] = field(default=())

    def screen_lines(self, limit: int = 2) -> tuple[str, ...]:
        """The warnings short enough for the admin screen (at most ``limit`` lines; the log has them whole)."""
        short = [w.split(" ", 1)[0].split("=", 1)[0] + " → " + w.rsplit(": using ", 1)[-1] if ": using " in w
                 else w for w in self.warnings]  # fmt: skip
        if len(short) <= limit:
            return tuple(short)
        return (*short[: limit - 1], f"+ {len(short) - limit + 1} more bad settings (journalctl -u companion)")


def _shown(value: str) -> str:
    return repr(printable(value, 60))


def read_environment(environ: Mapping[str, str], state_dir: Path | None = None) -> KioskEnvironment:
    """The kiosk's settings from ``environ``; never raises (see the module's docstring)."""
    warnings: list[str] = []

    def warn(name: str, value: str, problem: str, fallback: str) -> None:
        shown = " (value hidden)" if name in ("COMPANION_ADMIN_PIN", "COMPANION_MQTT_PASSWORD") else f"={_shown(value)}"
        warnings.append(f"{name}{shown} {problem}: using {fallback}")

    def raw(name: str) -> str:
        value = environ.get(name, "")
        if len(value) > MAX_VALUE:
            warn(name, value[:60], f"is {len(value)} characters long (at most {MAX_VALUE})", "the default")
            return ""
        value = value.strip(" \t")  # what an editor may leave around a value; a newline is never one
        problem = text_problem(value, limit=MAX_VALUE, what="the value") if value else None
        if problem is not None:
            warn(name, value, problem.removeprefix("the value "), "the default")
            return ""
        return value

    from companion.kiosk.admin import PIN_LENGTHS, PUBLISHED_PINS, valid_pin

    pin: str | None = raw("COMPANION_ADMIN_PIN") or None
    if pin is not None and pin in PUBLISHED_PINS:
        warn("COMPANION_ADMIN_PIN", pin, "is the published example PIN", "the generated PIN")
        pin = None
    elif pin is not None and not valid_pin(pin):
        warn("COMPANION_ADMIN_PIN", pin, f"is not {PIN_LENGTHS[0]}-{PIN_LENGTHS[1]} digits 0-9 (the buttons enter "
             "only those)", "the generated PIN")  # fmt: skip
        pin = None

    card_text = raw("COMPANION_ADMIN_REQUIRES_CARD").lower()
    requires_card = False
    if card_text:
        if card_text in BOOLEANS:
            requires_card = BOOLEANS[card_text]
        else:
            warn("COMPANION_ADMIN_REQUIRES_CARD", card_text, "is not 1 or 0", "0")

    hardware = raw("COMPANION_HARDWARE_FILE") or None  # raw() has refused control characters (NUL too)

    offered: list[str] = []
    games_text = raw("COMPANION_GAMES")
    for name in (n.strip() for n in games_text.split(",")):
        if not name:
            continue
        if name not in games.names():
            warn("COMPANION_GAMES", name, f"is not a game of this box ({', '.join(games.names())})", "the others")
        elif name not in offered:
            offered.append(name)
    if games_text and not offered:
        warn("COMPANION_GAMES", games_text, "names no game of this box", "every game")

    language = raw("COMPANION_LANGUAGE").lower() or "en"
    if language not in LANGUAGES:
        warn("COMPANION_LANGUAGE", language, f"is not a language of this box ({', '.join(LANGUAGES)})", "en")
        language = "en"

    data_set = raw("COMPANION_DATA_SET") or None
    if data_set is not None and state_dir is not None:
        from companion.setup_box.datasets import DataSetError, DataSets

        game = offered[0] if offered else games.DEFAULT_GAME
        try:
            DataSets(state_dir).get(game, data_set)
        except DataSetError as exc:
            warn("COMPANION_DATA_SET", data_set, f"cannot be played ({printable(str(exc), 200)})",
                 "the box digitised last, else the reference data")  # fmt: skip
            data_set = None

    broker = raw("COMPANION_MQTT_BROKER") or None
    if broker is not None:
        from companion.leaderboard.broker import BrokerSettings
        from companion.leaderboard.errors import LeaderboardError

        try:
            BrokerSettings.from_url(broker, environ=dict(environ))
        except LeaderboardError as exc:
            warn("COMPANION_MQTT_BROKER", broker, f"is not a broker URL ({printable(str(exc), 200)})",
                 "no leaderboard")  # fmt: skip
            broker = None

    table = raw("COMPANION_TABLE_ID") or None
    from companion.leaderboard.errors import BadTableId
    from companion.leaderboard.topics import check_table_id

    if table is not None:
        try:
            check_table_id(table)
        except BadTableId as exc:
            warn("COMPANION_TABLE_ID", table, printable(str(exc), 200), "the host name")
            table = None
    if broker is not None and table is None:
        table = host_table_id()

    for name in environ:
        if name.startswith("COMPANION_") and name not in SETTINGS and name not in IGNORED:
            warnings.append(f"{printable(name, 60)} is not a setting of the kiosk (a typo?): ignored")
    for message in warnings:
        log.warning("%s", message)
    return KioskEnvironment(pin, requires_card, hardware, tuple(offered), language, data_set, broker, table,
                            tuple(warnings))  # fmt: skip


# Variables of other commands that may share the environment: not the kiosk's, not a typo.
IGNORED = frozenset({"COMPANION_STATE_DIR", "COMPANION_HARDWARE", "COMPANION_TEST_BROKER"})


def host_table_id() -> str:
    """The host name as a table id (letters, digits, '-', '_', '.'; at most 32): ``table`` if none is left."""
    name = unicodedata.normalize("NFKD", socket.gethostname())
    kept = "".join(c for c in name if c.isascii() and (c.isalnum() or c in "-_."))[:32].lstrip("-_.")
    return kept or "table"
