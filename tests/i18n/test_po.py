"""The .po reader: what translators' tools write is read back exactly; anything else names file and line."""

from __future__ import annotations

import pytest

from companion.table.messages.po import PoEntry, PoError, parse_po, quote, tables_of, unquote, write_po

GOOD = r"""# Czech texts.
msgid ""
msgstr ""
"Language: cs\n"
"Content-Type: text/plain; charset=UTF-8\n"

# A translator's comment
#: companion/games/on_the_way/table/view.py:92
#, python-brace-format
msgctxt "prompt.turn"
msgid "{player}: {steps} left — "
"lift a marker"
msgstr ""
"{player}: zbývá {steps} — "
"zvedni figurku"
msgctxt "message.quoted"
msgid "Say \"hi\"\tthen\\go\n"
msgstr "Řekni \"ahoj\"\tpak\\jdi\n"

#, fuzzy
msgctxt "menu.old"
msgid "Old"
msgstr "Staré"

msgctxt "menu.todo"
msgid "Not yet"
msgstr ""
#~ msgctxt "menu.gone"
#~ msgid "Gone"
#~ msgstr "Pryč"
"""


def test_multi_line_strings_escapes_flags_and_comments() -> None:
    po = parse_po(GOOD, "cs.po")
    assert po.header["Language"] == "cs"
    turn = po.entries["prompt.turn"]
    assert turn.msgid == "{player}: {steps} left — lift a marker"
    assert turn.msgstr == "{player}: zbývá {steps} — zvedni figurku"
    assert "python-brace-format" in turn.flags and turn.comment == "A translator's comment"
    assert turn.line == 10
    assert po.entries["message.quoted"].msgstr == 'Řekni "ahoj"\tpak\\jdi\n'  # no blank line needed between
    assert po.entries["menu.old"].fuzzy
    assert "menu.gone" not in po.entries  # obsolete entries are ignored


def test_fuzzy_and_untranslated_entries_fall_back_to_english() -> None:
    tables = tables_of(parse_po(GOOD, "cs.po"))
    assert "menu" not in tables and tables["prompt"]["turn"].startswith("{player}: zbývá")
    assert tables_of(parse_po(GOOD, "cs.po"), english=True)["menu"] == {"old": "Old", "todo": "Not yet"}


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ('msgctxt "a.b"\nmsgid "x"\nmsgstr "y\n', 3, "expected a string in double quotes"),
        ('msgctxt "a.b"\nmsgid "x"\nmsgstr "a "quote""\n', 3, 'unescaped "'),
        ('msgctxt "a.b"\nmsgid "x"\nmsgstr "\\q"\n', 3, "unknown escape \\q"),
        ('msgctxt "a.b"\nmsgid "x"\n\nmsgctxt "c.d"\nmsgid "y"\nmsgstr ""\n', 1, "without msgstr"),
        ('msgid "x"\nmsgstr "y"\n', 1, "has no msgctxt"),
        (
            'msgctxt "a.b"\nmsgid "x"\nmsgstr "y"\n\nmsgctxt "a.b"\nmsgid "z"\nmsgstr "w"\n',
            5,
            "again (first on line 1)",
        ),
        ('msgctxt "ab"\nmsgid "x"\nmsgstr "y"\n', 1, "is not section.name"),
        ('"dangling"\n', 1, "continues nothing"),
        ('msgctxt "a.b"\nmsgid "x"\nmsgid_plural "xs"\nmsgstr[0] "y"\n', 3, "plural entries are not used"),
        ('msgctxt "a.b"\nmsgid "x"\nmsgtxt "y"\n', 3, "unknown keyword 'msgtxt'"),
        ('msgctxt "a.b"\nmsgstr "y"\n', 2, "msgstr without a msgid"),
    ],
)
def test_a_malformed_file_names_the_file_and_the_line(text: str, line: int, problem: str) -> None:
    with pytest.raises(PoError) as caught:
        parse_po(text, "companion/kiosk/messages/de.po")
    assert caught.value.line == line, str(caught.value)
    assert str(caught.value).startswith(f"companion/kiosk/messages/de.po:{line}: ")
    assert problem in str(caught.value)


def test_writing_and_reading_back_is_exact() -> None:
    entries = [
        PoEntry("a.b", 'Say "hi"\\n', 'Řekni "ahoj"\n\tx', 0, frozenset({"python-brace-format"}), "note\nmore"),
        PoEntry("a.c", "{n} trucks", "{n} LKW", 0),
    ]
    po = parse_po(write_po(entries, "de", "German texts."), "de.po")
    assert po.header["Language"] == "de"
    assert [(e.context, e.msgid, e.msgstr, e.flags, e.comment) for e in po.entries.values()] == [
        (e.context, e.msgid, e.msgstr, e.flags, e.comment) for e in entries
    ]
    assert unquote(quote('a"b\\c\nd'), "x", 1) == 'a"b\\c\nd'
