"""The big screen's loop: sleep until a message comes, apply, redraw only on change.

The loop sleeps on the client's queue (a message wakes it at once) and looks at the keyboard four
times a second; idle means no frames and near-zero CPU (style point 12). Not ``pygame.event.wait``:
with SDL's dummy and kmsdrm drivers it polls every millisecond. Under a flood of messages it redraws
at most ``max_fps`` times a second; the clock in the footer redraws once a minute.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from companion.leaderboard.broker import BrokerSettings
from companion.leaderboard.client import BoardClient
from companion.leaderboard.model import BoardModel
from companion.leaderboard.screen import SIZE, BoardView, FontSource, board_texts, default_fonts, render

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RunStats:
    seconds: float  # wall time in the loop
    cpu_seconds: float  # this process's CPU time in the loop (both threads)
    frames: int
    messages: int
    dropped: int
    duplicates: int
    results: int
    tables: int
    idle_seconds: float  # since the last frame
    idle_cpu_seconds: float

    def to_json(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__} | {
            "cpu_percent": round(100 * self.cpu_seconds / self.seconds, 2) if self.seconds else 0.0,
            "idle_cpu_percent": round(100 * self.idle_cpu_seconds / self.idle_seconds, 2) if self.idle_seconds else 0.0,
        }


class BoardApp:
    """The model, the client and the surface, stepped by ``step``; ``run`` loops until quit."""

    def __init__(
        self,
        client: BoardClient,
        surface: pygame.Surface,
        *,
        fonts: FontSource | None = None,
        event: str = "",
        language: str = "en",
        max_fps: float = 10.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.surface = surface
        self.fonts = fonts or default_fonts()
        self.event = event
        self.language = language
        self.model = BoardModel(root=client.root)
        self.min_frame = 1.0 / max_fps
        self.clock = clock
        self.frames = 0
        self._drawn: tuple[int, bool, int] | None = None  # (model version, connected, minute) last drawn
        self._last_frame = 0.0

    def step(self, force: bool = False, wait: float = 0.0) -> bool:
        """Apply what came (waiting up to ``wait`` seconds for it); redraw if anything shown changed.
        True if a frame was drawn."""
        self.client.drain(self.model, timeout=wait)
        now = self.clock()
        key = (self.model.version, self.client.connected, int(now // 60))
        if not force and key == self._drawn:
            return False
        if not force and time.monotonic() - self._last_frame < self.min_frame:
            return False  # a flood: the next wake-up (or timeout) draws it
        view = BoardView(self.event, self.client.connected, str(self.client.settings), now, self.language)
        render(self.surface, self.model, view, self.fonts)
        self._drawn = key
        self._last_frame = time.monotonic()
        self.frames += 1
        return True

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))


def run(
    broker: str | BrokerSettings,
    *,
    topic_root: str,
    event: str = "",
    language: str = "en",
    fonts: FontSource | None = None,
    size: tuple[int, int] = SIZE,
    fullscreen: bool = True,
    seconds: float | None = None,
    screenshot: Path | None = None,
    client_factory: Callable[..., BoardClient] = BoardClient,
) -> RunStats:
    """Open the screen and show the board until the window is closed, Esc/Q, or ``seconds`` pass."""
    pygame.display.init()
    pygame.font.init()
    flags = pygame.FULLSCREEN if fullscreen else 0
    surface = pygame.display.set_mode(size, flags)
    pygame.display.set_caption(event or board_texts(language).text("board.title"))
    if fullscreen:
        pygame.mouse.set_visible(False)
    pygame.event.set_blocked(pygame.MOUSEMOTION)  # a moved mouse must not wake the board

    client = client_factory(broker, topic_root=topic_root)
    app = BoardApp(client, surface, fonts=fonts, event=event, language=language)
    start, cpu0 = time.monotonic(), time.process_time()
    deadline = None if seconds is None else start + seconds
    try:
        app.step(force=True)
        pygame.display.flip()
        last_frame, last_frame_cpu = time.monotonic(), time.process_time()
        running = True
        while running:
            wait = 0.25 if deadline is None else max(0.0, min(0.25, deadline - time.monotonic()))
            drawn = app.step(wait=wait)
            events = pygame.event.get()
            for e in events:
                if e.type == pygame.QUIT or (e.type == pygame.KEYDOWN and e.key in (pygame.K_ESCAPE, pygame.K_q)):
                    running = False
            if any(e.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE) for e in events):
                drawn = app.step(force=True) or drawn
            if drawn:
                pygame.display.flip()
                last_frame, last_frame_cpu = time.monotonic(), time.process_time()
            if deadline is not None and time.monotonic() >= deadline:
                running = False
        stats = RunStats(
            seconds=time.monotonic() - start,
            cpu_seconds=time.process_time() - cpu0,
            frames=app.frames,
            messages=app.model.messages,
            dropped=app.model.dropped,
            duplicates=app.model.duplicates,
            results=len(app.model.results),
            tables=len(app.model.tables),
            idle_seconds=time.monotonic() - last_frame,
            idle_cpu_seconds=time.process_time() - last_frame_cpu,
        )
        if screenshot is not None:
            app.step(force=True)
            app.save(screenshot)
        return stats
    finally:
        client.close()
        pygame.display.quit()
