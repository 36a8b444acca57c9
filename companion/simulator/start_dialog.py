"""The simulator's start dialog: which game, how many players, full or short game, and who plays the
other seats (people, or the box at a level). Keys G (game), 2/3/4, S (short), B (the box), Enter.
Its words are the platform catalogue's ``simulator.*``, in the simulator's ``--language``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pygame

from companion.display import theme
from companion.display.record import Canvas, FrameRecord
from companion.display.tokens import swatch
from companion.table.messages import Catalogue

COLOURS = ("red", "blue", "green", "yellow")
SHORT_END = 3


@dataclass(frozen=True)
class GameOption:
    """A game the dialog offers (from the registry): its id, title, and whether it has a short game."""

    name: str
    title: str
    has_short_game: bool
    player_counts: tuple[int, ...] = (2, 3, 4)
    colours: tuple[str, ...] = COLOURS
    bot_levels: tuple[str, ...] = ()  # the levels the box can play a seat at (none: people only)


def game_options() -> tuple[GameOption, ...]:
    """What the dialog offers: every registered game, as its plug-in describes it."""
    from companion import games

    return tuple(
        GameOption(g.name, g.title, any(n is not None for n in g.lengths), g.player_counts, g.colours, g.bot_levels)
        for g in games.all_games()
    )


@dataclass
class Choice:
    games: tuple[GameOption, ...]
    players: int = 2
    short: bool = False
    game: str = ""
    box: str | None = None  # the level the box plays every seat but the first at; None: people

    def __post_init__(self) -> None:
        self.game = self.game or self.games[0].name

    @property
    def option(self) -> GameOption:
        return next(g for g in self.games if g.name == self.game)

    @property
    def colours(self) -> tuple[str, ...]:
        return self.option.colours[: self.players]

    def choose_game(self, name: str) -> None:
        self.game = name
        if self.players not in self.option.player_counts:  # e.g. 6 players, then a game for 2 to 4
            self.players = min(self.option.player_counts, key=lambda n: abs(n - self.players))
        if self.box not in self.option.bot_levels:
            self.box = None

    def next_box(self) -> None:
        """People → the box at each level in turn → people."""
        levels: tuple[str | None, ...] = (None, *self.option.bot_levels)
        self.box = levels[(levels.index(self.box) + 1) % len(levels)]

    @property
    def bots(self) -> dict[str, str]:
        """The seats the box plays: every seat but the first (yours), at the chosen level."""
        return {} if self.box is None else dict.fromkeys(self.colours[1:], self.box)

    @property
    def end_at(self) -> int | None:
        return SHORT_END if self.short and self.option.has_short_game else None


def draw_dialog(
    surface: pygame.Surface, choice: Choice, record: FrameRecord | None = None, language: str = "en"
) -> dict[str, pygame.Rect]:
    """Draw the dialog in ``language``; return the clickable areas by action name (``record``: what was
    drawn, for the layout check)."""
    t = Catalogue(language)
    w, h = surface.get_size()
    s = min(w / 800, h / 480)

    def px(v: float) -> int:
        return max(1, round(v * s))

    canvas = Canvas(surface, FrameRecord((w, h)) if record is None else record)
    surface.fill(theme.BACKGROUND)
    canvas.text(t.text("simulator.title"), (w // 2, px(22)), px(26), bold=True, anchor="midtop")
    canvas.text(t.text("simulator.subtitle"), (w // 2, px(58)), px(13), colour=theme.TEXT_DIM, anchor="midtop")
    areas: dict[str, pygame.Rect] = {}
    y = px(84)
    canvas.text(t.text("simulator.game"), (w // 2, y), px(15), anchor="midtop")
    y += px(26)
    gw, gap0 = px(230), px(16)
    n = len(choice.games)
    gw = min(gw, (w - px(40) - (n - 1) * gap0) // max(1, n))
    x0 = w // 2 - (n * gw + (n - 1) * gap0) // 2
    for i, option in enumerate(choice.games):
        rect = pygame.Rect(x0 + i * (gw + gap0), y, gw, px(44))
        with _button(surface, canvas, rect, option.title, choice.game == option.name, px):
            pass
        areas[f"game:{option.name}"] = rect
    y += px(44) + px(22)
    counts = choice.option.player_counts
    canvas.text(t.text("simulator.players", keys=", ".join(map(str, counts))), (w // 2, y), px(15), anchor="midtop")
    y += px(28)
    bw, bh, gap = px(150), px(56), px(16)
    bw = min(bw, (w - px(40) - (len(counts) - 1) * gap) // len(counts))
    x0 = w // 2 - (len(counts) * bw + (len(counts) - 1) * gap) // 2
    for i, n in enumerate(counts):
        rect = pygame.Rect(x0 + i * (bw + gap), y, bw, bh)
        with _button(surface, canvas, rect, t.counted("simulator.players_option", n), choice.players == n, px):
            step = min(px(22), (rect.w - px(16)) // max(1, n))  # 6 swatches in a narrow button: closer
            for k, colour in enumerate(choice.option.colours[:n]):
                sw = pygame.Rect(rect.x + px(8) + k * step, rect.bottom - px(22), min(px(18), step - 2), px(18))
                swatch(canvas, sw, theme.player_style(colour, k))
        areas[f"players:{n}"] = rect
    y += bh + px(22)
    # One row: the game length (where the game has a short game) and who plays the other seats.
    buttons: list[tuple[str, str, bool]] = []  # (area, label, on)
    if choice.option.has_short_game:
        buttons += [("short:0", t.text("simulator.full_game"), not choice.short),
                    ("short:1", t.text("simulator.short_game", end=SHORT_END), choice.short)]  # fmt: skip
    if choice.option.bot_levels:
        level = t.get(f"simulator.level_{choice.box}") or str(choice.box)  # a level the catalogue lacks: as it is
        label = t.text("simulator.seats_people") if choice.box is None else t.text("simulator.seats_box", level=level)
        buttons.append(("box", label, choice.box is not None))
    if buttons:
        heads = [h for h, on in ((t.text("simulator.length"), choice.option.has_short_game),
                                 (t.text("simulator.who"), bool(choice.option.bot_levels))) if on]  # fmt: skip
        canvas.text("  ·  ".join(heads), (w // 2, y), px(15), anchor="midtop")
        y += px(28)
        bw = min(px(230), (w - px(40) - (len(buttons) - 1) * gap) // len(buttons))
        x0 = w // 2 - (len(buttons) * bw + (len(buttons) - 1) * gap) // 2
        for i, (area, label, on) in enumerate(buttons):
            rect = pygame.Rect(x0 + i * (bw + gap), y, bw, px(44))
            with _button(surface, canvas, rect, label, on, px):
                pass
            areas[area] = rect
        y += px(44) + px(24)
    else:
        y += px(20)
    start = pygame.Rect(w // 2 - px(110), y, px(220), px(52))
    with _button(surface, canvas, start, t.text("simulator.start"), True, px, accent=True):
        pass
    areas["start"] = start
    return areas


@contextmanager
def _button(
    surface: pygame.Surface,
    canvas: Canvas,
    rect: pygame.Rect,
    label: str,
    on: bool,
    px: Callable[[float], int],
    *,
    accent: bool = False,
) -> Iterator[None]:
    """A button whose label is drawn in full (wrapped onto a second line when long, as "Other
    seats: the box (medium)"); what the block draws (a player count's swatches) is inside it too."""
    fill = theme.ACCENT if accent else (theme.PANEL_ACTIVE if on else theme.PANEL)
    pygame.draw.rect(surface, fill, rect, border_radius=px(8))
    pygame.draw.rect(
        surface, theme.ACCENT if on else theme.TEXT_FAINT, rect, width=px(3) if on else 1, border_radius=px(8)
    )
    ink = (0, 0, 0) if accent else theme.TEXT
    size = max(11, px(15))
    lines = canvas.lines(label, size, rect.w - 2 * px(6), bold=on)
    step = canvas.measure("Hg", size, bold=on)[1]
    y = rect.y + px(10) if len(lines) == 1 else rect.y + px(4)
    with canvas.box(rect, "button"):
        for line in lines:
            canvas.text(line, (rect.centerx, y), size, colour=ink, bold=on, anchor="midtop", role="button",
                        max_width=rect.w - 2 * px(6))  # fmt: skip
            y += step
        yield


def run_dialog(
    window: pygame.Surface, games: tuple[GameOption, ...], game: str | None = None, language: str = "en"
) -> Choice | None:
    """Block until Start (Enter) or the window closes (None). ``game``: preselected (``--game``)."""
    choice = Choice(games, game=game or "")
    while True:
        areas = draw_dialog(window, choice, language=language)
        pygame.display.flip()
        event = pygame.event.wait()
        if event.type == pygame.QUIT:
            return None
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return choice
            if pygame.K_0 <= event.key <= pygame.K_9 and event.key - pygame.K_0 in choice.option.player_counts:
                choice.players = event.key - pygame.K_0
            elif event.key == pygame.K_s:
                choice.short = not choice.short
            elif event.key == pygame.K_b:
                choice.next_box()
            elif event.key == pygame.K_g:
                keys = [g.name for g in choice.games]
                choice.choose_game(keys[(keys.index(choice.game) + 1) % len(keys)])
            elif event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                return None
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            for name, rect in areas.items():
                if rect.collidepoint(event.pos):
                    key, _, value = name.partition(":")
                    if key == "start":
                        return choice
                    if key == "players":
                        choice.players = int(value)
                    elif key == "game":
                        choice.choose_game(value)
                    elif key == "short":
                        choice.short = bool(int(value))
                    elif key == "box":
                        choice.next_box()
