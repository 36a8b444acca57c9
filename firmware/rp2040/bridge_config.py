"""The bridge's build: pins, banks, readers. ``companion hardware flash`` writes this file from the
hardware TOML (channels, card reader, RF groups); these defaults are the reference box of wiring.md:
44 city readers + 1 card reader in 6 banks of 8 (the last bank holds 5), a 74HC595 LED chain.

Channel = 8 * bank + address: bank b's readers hang behind their own 74HC244 line driver, 74HC138
chip-select decoder, MISO tri-state mux, 3.3 V regulator and NRSTPD line.
"""

FIRMWARE = "rp2040/2.0"
READERS = 45  # channels 0..44
CARD_CHANNEL = 44
# RF groups: lists of channels whose antennas may be on together (no two close readers in one),
# written by ``companion hardware flash`` from its plan. None: ONE reader at a time (45 guard times
# per sweep, ~240 ms, but never two antennas on together: no crosstalk, one antenna's current).
GROUPS = None
CLOSE = ()  # (channel, channel) pairs that must never transmit together

PINS = {
    "sck": 2,  # SPI0 to every bank's 74HC244 (series resistors at the Pico)
    "mosi": 3,
    "miso": 4,  # from the banks' tri-state MISO muxes
    "strobe": 5,  # chip-select gate, low for exactly one register transaction (G2A of every '138)
    "addr": (6, 7, 8),  # A0..A2: the reader within its bank
    "bank": (9, 10, 11),  # B0..B2: which bank's line driver, decoder and MISO mux are enabled
    "rst": (16, 17, 18, 19, 20, 21),  # NRSTPD of bank 0..5 (high = running)
    "led_sck": 14,  # SPI1 SCK → 74HC595 SRCLK
    "led_mosi": 15,  # SPI1 TX → SER of the first 595
    "led_miso": 12,  # SPI1 RX: claimed by the LED SPI (else it may take a default pin), not connected
    "led_latch": 13,  # RCLK
    "led_oe": 22,  # OE (active low; 10 kOhm pull-up keeps the LEDs dark while booting)
}
BANKS = 6
SPI_BAUD = 4_000_000  # short runs behind line drivers; the MFRC522 allows 10 MHz (DS §8.1.2)
LED_BAUD = 1_000_000
LED_BITS = 104

SWEEP_MS = 30  # one sweep of every reader, then the link: a sweep takes ~25 ms (benchmarks/readers.py)
RECEIVE_TIMEOUT_US = 1000
CITY_DEBOUNCE = (4, 5, 3)  # K of N to place, M misses to lift: as the host's [debounce]
CARD_DEBOUNCE = (2, 3, 3)
# Re-read a staying tag's UID every N sweeps (the host's default is 10). The antennas go off after
# every sweep, so a swap by hand always shows empty sweeps first; this only guards against a misread.
REVERIFY = 40
RETRY_MS = 5000  # a reader that stopped answering: its bank is reset and it is tried again this often,
RETRY_MAX_MS = 300_000  # doubling while a reset does not cure it (the rest of its bank keeps working)
# machine.WDT, fed once per main-loop step: a step takes ~30 ms, a bank retry ~0.1 s (50 ms start-up
# + set-up); the RP2040's watchdog allows at most 8388 ms.
WDT_MS = 5000
