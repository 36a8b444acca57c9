"""A small reader for gettext ``.po`` catalogues (the standard library only, no ``polib``/``babel``).

What the companion's catalogues use, and what translators' tools (Poedit, Weblate, Lokalize,
``msgfmt --check``) write: ``#`` comments and ``#,`` flags, ``msgctxt`` / ``msgid`` / ``msgstr``
entries, strings continued over several lines (``"..."`` on the next line), and the C escapes
``\\n \\t \\" \\\\``. Plural entries (``msgid_plural``) are not used: counted words have one key per
form (``words.trucks_one``/``_few``/``_many``). A file that is not like that raises
:class:`PoError` naming the file and the line.

Entries are keyed by their ``msgctxt`` (``prompt.turn``); ``msgid`` is the English text, ``msgstr``
the translation (empty: not translated yet). Fuzzy entries are read but flagged, as ``msgfmt`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
KEYWORDS = ("msgctxt", "msgid", "msgstr")


class PoError(ValueError):
    """A malformed ``.po`` file: ``str(error)`` is ``file:line: problem``."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        super().__init__(f"{path}:{line}: {problem}")
        self.path = path
        self.line = line
        self.problem = problem


@dataclass(frozen=True, slots=True)
class PoEntry:
    context: str  # msgctxt: the key, "prompt.turn"
    msgid: str  # the English text
    msgstr: str  # the translation ("" when not translated yet)
    line: int  # where the entry starts
    flags: frozenset[str] = frozenset()  # "fuzzy", "python-brace-format", ...
    comment: str = ""  # the translators' comments ("# ..."), one line each

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


@dataclass(frozen=True, slots=True)
class PoFile:
    path: str
    header: dict[str, str]  # "Language" -> "cs", "Content-Type" -> ...
    entries: dict[str, PoEntry]  # by msgctxt, in file order


def unquote(literal: str, path: str, line: int) -> str:
    """The text of one ``"..."`` string literal, its escapes resolved."""
    if len(literal) < 2 or not literal.startswith('"') or not literal.endswith('"'):
        raise PoError(path, line, f"expected a string in double quotes, found {literal!r}")
    body = literal[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            if i + 1 >= len(body):
                raise PoError(path, line, "a backslash ends the string")
            code = body[i + 1]
            if code not in ESCAPES:
                raise PoError(path, line, f"unknown escape \\{code}")
            out.append(ESCAPES[code])
            i += 2
        elif ch == '"':
            raise PoError(path, line, 'an unescaped " inside a string (write \\")')
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def quote(text: str) -> str:
    """``text`` as one ``.po`` string literal (the inverse of :func:`unquote`)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def parse_po(text: str, path: str = "<string>") -> PoFile:
    """Read a whole catalogue; every problem names ``path`` and the line."""
    entries: dict[str, PoEntry] = {}
    header: dict[str, str] = {}
    fields: dict[str, list[str]] = {}
    flags: set[str] = set()
    comments: list[str] = []
    start = 0
    current: str | None = None  # the keyword the last string belongs to

    def finish(end_line: int) -> None:
        nonlocal fields, flags, comments, current
        if not fields:
            if flags or comments:  # comments after the last entry: nothing to keep
                flags, comments = set(), []
            return
        if "msgid" not in fields or "msgstr" not in fields:
            missing = "msgid" if "msgid" not in fields else "msgstr"
            raise PoError(path, start, f"an entry without {missing}")
        msgid, msgstr = "".join(fields["msgid"]), "".join(fields["msgstr"])
        if "msgctxt" not in fields:
            if msgid != "":
                raise PoError(path, start, f"entry {msgid!r} has no msgctxt (the key, such as prompt.turn)")
            if entries or header:
                raise PoError(path, start, 'the header (msgid "") must be the first entry')
            for row in msgstr.splitlines():
                name, sep, value = row.partition(":")
                if sep:
                    header[name.strip()] = value.strip()
        else:
            context = "".join(fields["msgctxt"])
            if context in entries:
                raise PoError(path, start, f"key {context!r} again (first on line {entries[context].line})")
            if not context or "." not in context:
                raise PoError(path, start, f"key {context!r} is not section.name")
            entries[context] = PoEntry(context, msgid, msgstr, start, frozenset(flags), "\n".join(comments))
        fields, flags, comments, current = {}, set(), [], None

    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            finish(number)
            continue
        if line.startswith("#"):
            if fields and "msgstr" in fields:  # a comment starts the next entry
                finish(number)
            if line.startswith("#,"):
                flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            elif line.startswith("#~"):
                pass  # obsolete entries, kept by tools for reference
            elif line.startswith("# ") or line == "#":
                comments.append(line[2:])
            if not fields:
                start = number + 1
            continue
        if line.startswith('"'):
            if current is None:
                raise PoError(path, number, "a string continues nothing (no msgid/msgstr/msgctxt before it)")
            fields[current].append(unquote(line, path, number))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgid_plural",) or keyword.startswith("msgstr["):
            raise PoError(path, number, f"{keyword}: plural entries are not used (one key per form)")
        if keyword not in KEYWORDS:
            raise PoError(path, number, f"unknown keyword {keyword!r} (expected msgctxt, msgid or msgstr)")
        if keyword in fields or (keyword == "msgctxt" and "msgid" in fields):
            finish(number)  # the next entry starts without a blank line
        if not fields:
            start = number
        if keyword == "msgstr" and "msgid" not in fields:
            raise PoError(path, number, "msgstr without a msgid before it")
        fields[keyword] = [unquote(rest.strip(), path, number)]
        current = keyword
    finish(len(lines) + 1)
    return PoFile(path, header, entries)


def tables_of(po: PoFile, *, english: bool = False) -> dict[str, dict[str, str]]:
    """The catalogue as ``{section: {name: text}}``: the translations (``english``: the msgids).
    Untranslated and fuzzy entries are left out, so the caller falls back to English."""
    tables: dict[str, dict[str, str]] = {}
    for key, entry in po.entries.items():
        text = entry.msgid if english else entry.msgstr
        if not text or (entry.fuzzy and not english):
            continue
        section, _, name = key.partition(".")
        tables.setdefault(section, {})[name] = text
    return tables


def write_po(entries: list[PoEntry], language: str, title: str) -> str:
    """A catalogue as text, as a tool would write it (used to build and re-format the catalogues)."""
    out = [
        f"# {title}",
        'msgid ""',
        'msgstr ""',
        quote(f"Language: {language}\n"),
        quote("MIME-Version: 1.0\n"),
        quote("Content-Type: text/plain; charset=UTF-8\n"),
        quote("Content-Transfer-Encoding: 8bit\n"),
        "",
    ]
    for e in entries:
        out += [f"# {c}" for c in e.comment.splitlines()]
        if e.flags:
            out.append("#, " + ", ".join(sorted(e.flags)))
        out += [f"msgctxt {quote(e.context)}", f"msgid {quote(e.msgid)}", f"msgstr {quote(e.msgstr)}", ""]
    return "\n".join(out)
