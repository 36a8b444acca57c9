"""The intent vocabulary: every input at the table becomes one of these values.

Hardware backends (RFID readers, the card reader, gpiozero buttons), the touchscreen and the
simulator's keyboard all produce these; the table controller consumes them from one queue
(``../shared/design/table.md``, principle 2). UIDs are upper-case hex strings without separators
(``"04A1B2C3D4E5F6"`` for a 7-byte NTAG), which is also how hardware TOML files spell them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ButtonName(StrEnum):
    OK = "ok"
    BACK = "back"
    PLUS = "plus"
    MINUS = "minus"
    MENU = "menu"


@dataclass(frozen=True, slots=True)
class TagPlaced:
    """A tag has settled on the reader under ``city`` (debounced by the reader layer)."""

    city: str
    uid: str


@dataclass(frozen=True, slots=True)
class TagLifted:
    """The tag that was on the reader under ``city`` is gone (debounced)."""

    city: str
    uid: str


@dataclass(frozen=True, slots=True)
class CardScanned:
    """A tag was presented to the card reader."""

    uid: str


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """One of the five buttons; ``long`` is a long press (MENU long = admin)."""

    button: ButtonName
    long: bool = False


@dataclass(frozen=True, slots=True)
class CityTapped:
    """A touch or mouse click on a city of the on-screen map (``SelectCity`` in table.md)."""

    city: str


@dataclass(frozen=True, slots=True)
class DeviceFault:
    """A device stopped answering or came back; reported once, never fatal."""

    device: str
    message: str
    recovered: bool = False


Intent = TagPlaced | TagLifted | CardScanned | ButtonPressed | CityTapped | DeviceFault


def normalise_uid(uid: bytes | bytearray | list[int] | str) -> str:
    """Spell a tag UID the one way the whole product uses: upper-case hex, no separators."""
    if isinstance(uid, str):
        cleaned = uid.replace(":", "").replace(" ", "").replace("-", "").upper()
        int(cleaned, 16)  # raises ValueError on anything that is not hex
        return cleaned
    return bytes(uid).hex().upper()
