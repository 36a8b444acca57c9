"""A small valid data set (10 cities) that tests break one line at a time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

# A path Aa-Bb-...-Ii-Žilina: the distance between two cities is the difference of their places.
SMALL_BOARD = """\
# a small test board
[board]
name = "Test"
game = "on-the-way"

[[cities]]
name = "Aa"
x = 0.1
y = 0.1

[[cities]]
name = "Bb"
x = 0.2
y = 0.1

[[cities]]
name = "Cc"
x = 0.3
y = 0.1

[[cities]]
name = "Dd"
x = 0.4
y = 0.1

[[cities]]
name = "Ee"
x = 0.5
y = 0.1

[[cities]]
name = "Ff"
x = 0.6
y = 0.1

[[cities]]
name = "Gg"
x = 0.7
y = 0.1

[[cities]]
name = "Hh"
x = 0.8
y = 0.1

[[cities]]
name = "Ii"
x = 0.9
y = 0.1

[[cities]]
name = "Žilina"
x = 0.9
y = 0.9

[[roads]]
between = ["Aa", "Bb"]

[[roads]]
between = ["Bb", "Cc"]

[[roads]]
between = ["Cc", "Dd"]

[[roads]]
between = ["Dd", "Ee"]

[[roads]]
between = ["Ee", "Ff"]

[[roads]]
between = ["Ff", "Gg"]

[[roads]]
between = ["Gg", "Hh"]

[[roads]]
between = ["Hh", "Ii"]

[[roads]]
between = ["Ii", "Žilina"]

[setup]
players_2 = ["Aa", "Bb", "Cc", "Dd", "Ee", "Ff"]
players_3 = ["Aa", "Bb", "Cc", "Dd", "Ee", "Ff", "Gg", "Hh"]
players_4 = [
    "Aa", "Bb", "Cc", "Dd", "Ee", "Ff", "Gg", "Hh",
    "Ii",
    "Žilina",
]
"""

SMALL_CONTRACTS = """\
[[contracts]]
id = "B01"
tier = "basic"
from = "Aa"
to = "Cc"
distance = 2
trucks = 1
pay = 1000

[[contracts]]
id = "X01"
tier = "extended"
from = "Dd"
to = "Gg"
distance = 3
trucks = 2
pay = 2000
vp = 0

[[contracts]]
id = "P01"
tier = "professional"
from = "Ee"
to = "Žilina"
distance = 5
trucks = 2
pay = 3000
vp = 1

# Enough cards of each tier for OTW-4 at every player count (board check counts them).
[[contracts]]
id = "B02"
tier = "basic"
from = "Bb"
to = "Dd"
distance = 2
trucks = 1
pay = 1000

[[contracts]]
id = "B03"
tier = "basic"
from = "Cc"
to = "Ee"
distance = 2
trucks = 1
pay = 1000

[[contracts]]
id = "B04"
tier = "basic"
from = "Dd"
to = "Ff"
distance = 2
trucks = 1
pay = 1000

[[contracts]]
id = "B05"
tier = "basic"
from = "Ee"
to = "Gg"
distance = 2
trucks = 1
pay = 1000

[[contracts]]
id = "X02"
tier = "extended"
from = "Aa"
to = "Dd"
distance = 3
trucks = 1
pay = 1500

[[contracts]]
id = "X03"
tier = "extended"
from = "Bb"
to = "Ee"
distance = 3
trucks = 1
pay = 1500

[[contracts]]
id = "X04"
tier = "extended"
from = "Cc"
to = "Ff"
distance = 3
trucks = 1
pay = 1500

[[contracts]]
id = "X05"
tier = "extended"
from = "Ee"
to = "Hh"
distance = 3
trucks = 1
pay = 1500

[[contracts]]
id = "P02"
tier = "professional"
from = "Aa"
to = "Ee"
distance = 4
trucks = 1
pay = 2000

[[contracts]]
id = "P03"
tier = "professional"
from = "Bb"
to = "Ff"
distance = 4
trucks = 1
pay = 2000
"""

SMALL_EVENTS = """\
[[events]]
id = "E01"
kind = "bonus"
amount = 500

[[events]]
id = "E02"
kind = "extra_step"

[[events]]
id = "E03"
kind = "traffic_jam"
road = ["Bb", "Cc"]

# One event card per step of the longest time track (OTW-31: 14 for 2 players).
[[events]]
id = "E04"
kind = "cheaper_build"
amount = 500

[[events]]
id = "E05"
kind = "extra_step"

[[events]]
id = "E06"
kind = "malus"
amount = 500

[[events]]
id = "E07"
kind = "cheaper_build"
amount = 500

[[events]]
id = "E08"
kind = "extra_step"

[[events]]
id = "E09"
kind = "malus"
amount = 500

[[events]]
id = "E10"
kind = "cheaper_build"
amount = 500

[[events]]
id = "E11"
kind = "extra_step"

[[events]]
id = "E12"
kind = "malus"
amount = 500

[[events]]
id = "E13"
kind = "cheaper_build"
amount = 500

[[events]]
id = "E14"
kind = "extra_step"
"""

WriteFile = Callable[[str, str], Path]


@pytest.fixture
def write(tmp_path: Path) -> WriteFile:
    """Write ``text`` to ``tmp_path/name`` and return the path."""

    def write_file(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write_file
