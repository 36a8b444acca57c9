"""config.txt as the Pi's firmware reads it: filter sections, the last value wins, dtparam lists."""

from __future__ import annotations

from companion.doctor.box import Box


def section_applies(section: str, model: str) -> bool:
    """Does a config.txt filter section apply to this model? ``[all]`` and ``[pi4]`` on a Pi 4 do, ``[pi5]``
    and ``[none]`` do not; other filters (``[hdmi:0]``, ``[edid=...]``) are taken as applying."""
    if section in ("all", "none"):
        return section == "all"
    if section.startswith("pi") and section[2:].isdigit():
        return f"Pi {section[2:]}" in model
    if section.startswith("cm") and section[2:].isdigit():
        return f"Compute Module {section[2:]}" in model
    return True


def boot_setting(box: Box, key: str, model: str) -> str | None:
    """The value config.txt gives ``key`` (``dtparam=spi``, ``enable_uart``) on this model: the last one
    that applies wins, ``dtparam=a=on,b=on`` sets both. None: not set, or no config.txt."""
    boot = box.boot_config()
    if boot is None:
        return None
    section, value = "all", None
    for raw in boot[1].splitlines():
        line = raw.split("#", 1)[0].strip().replace(" ", "")
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].lower()
            continue
        if not section_applies(section, model):
            continue
        settings = [f"dtparam={p}" for p in line[8:].split(",")] if line.startswith("dtparam=") else [line]
        for setting in settings:
            name, _, given = setting.rpartition("=")
            if name == key:
                value = given
    return value
