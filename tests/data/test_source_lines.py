"""Line lookup in the raw TOML text (tomllib gives no positions)."""

from __future__ import annotations

from companion.data.source import SourceFile

TEXT = """\
# comment with [[contracts]] in it
title = "x"

[[contracts]]   # first card
id = "B01"
notes = \"\"\"
[[contracts]]
\"\"\"

[[contracts]]
"id" = "B02"
  tier = "basic"

[setup]
players_4 = [
    "Oss",
    "Žilina",
]
"""


def test_nth_block_and_key() -> None:
    source = SourceFile.parse(TEXT, "t.toml")
    assert source.problems == []
    assert source.locate("contracts", occurrence=1) == 4
    assert source.locate("contracts", "id", occurrence=1) == 5
    assert source.locate("contracts", occurrence=2) == 10  # the header inside a multi-line string is text
    assert source.locate("contracts", "id", occurrence=2) == 11  # quoted key
    assert source.locate("contracts", "tier", occurrence=2) == 12  # indented key
    assert source.locate("contracts", "trucks", occurrence=2) == 10  # missing key: the header
    assert source.locate("", "title") == 2


def test_entry_of_a_multi_line_list() -> None:
    source = SourceFile.parse(TEXT, "t.toml")
    assert source.locate("setup", "players_4", needle="Žilina") == 17


def test_inline_array_falls_back_to_its_key_line() -> None:
    source = SourceFile.parse('# x\ncontracts = [\n  {id = "B01"},\n]\n', "t.toml")
    assert source.locate("contracts", "id", occurrence=1) == 2


def test_syntax_error_line_from_tomllib() -> None:
    source = SourceFile.parse("a = 1\nb = \n", "t.toml")
    assert source.data is None
    assert [(p.line, p.field) for p in source.problems] == [(2, "syntax")]
