"""The box's devices: RFID readers under the cities, the card reader, LEDs and buttons.

Every device is a small class behind a Protocol (:mod:`.protocols`) with a real backend and an
emulator shipped here. Devices only put intents (:mod:`companion.intents`) on the one sink they are
given; :class:`~.rig.HardwareRig` polls them together. Importing this package touches no hardware:
``mfrc522``, ``spidev`` and ``RPi.GPIO`` are imported when an SPI reader array is opened, pyserial
when a bridge is opened.

Modules: ``config`` (TOML), ``factory.build_rig`` (devices from a config; ``COMPANION_HARDWARE``
picks the backend), ``spi_readers`` + ``mfrc522_driver`` + ``chip_select`` (direct SPI),
``mfrc522_core`` + ``iso14443`` (the MFRC522 register logic, shared with the RP2040 firmware),
``rf_groups`` (which readers may transmit together), ``serial_bridge`` + ``serial_protocol``
(microcontroller bridge, protocol v2; ``serial_protocol.BridgeLink`` is the firmware's side),
``leds`` + ``shift_register`` (LED outputs), ``buttons``, ``debounce``; emulators:
``emulated_mfrc522`` (fake spidev/RPi.GPIO, RF coupling), ``serial_peer``, ``link_sim`` (a hostile
wire), ``firmware_host`` (the real firmware under CPython), ``shift_register.Emulated595Chain``, and
``emulated.EmulatedTable`` for a whole table. See ``docs/hardware.md``.
"""
