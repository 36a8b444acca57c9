"""The kiosk's own texts (``companion/kiosk/messages/<language>.po``) over the platform's."""

from __future__ import annotations

from companion.table.messages import Catalogue

KIOSK_MESSAGES = "companion.kiosk"  # the package whose ``messages/`` hold the kiosk's own texts


def kiosk_texts(language: str) -> Catalogue:
    """The kiosk's catalogue in ``language``: its own texts over the platform's (colours, language names)."""
    return Catalogue(language, KIOSK_MESSAGES)
