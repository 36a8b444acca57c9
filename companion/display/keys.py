"""The keyboard standing in for the five buttons, in the simulator and on a kiosk with a keyboard."""

from __future__ import annotations

import pygame

from companion.intents import ButtonName

KEY_BUTTONS = {
    pygame.K_RETURN: ButtonName.OK,
    pygame.K_KP_ENTER: ButtonName.OK,
    pygame.K_BACKSPACE: ButtonName.BACK,
    pygame.K_PLUS: ButtonName.PLUS,
    pygame.K_EQUALS: ButtonName.PLUS,
    pygame.K_KP_PLUS: ButtonName.PLUS,
    pygame.K_MINUS: ButtonName.MINUS,
    pygame.K_KP_MINUS: ButtonName.MINUS,
}
