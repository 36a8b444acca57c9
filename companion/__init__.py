"""companion: turns a boxed board game into an electronic one.

Layers (imports flow downwards only):

- ``companion.engine``   pure rules, no I/O
- ``companion.intents``, ``companion.ledframe``  the table vocabulary shared by hardware and controller
- ``companion.hardware`` RFID readers, card reader, LEDs, buttons (real backends + emulators)
- ``companion.table``    the table controller: sensed intents -> engine commands, UI model, LED frame
- ``companion.display``  pygame-ce screen and the simulator
"""

__version__ = "0.1.0"
