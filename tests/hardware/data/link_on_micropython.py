"""Runs under the real MicroPython VM and under CPython (tests/hardware/test_link_on_micropython.py):
the bridge's side of the link, as the Pico runs it, must print the same on both."""

import serial_protocol as p  # type: ignore[import-not-found]  # the copy the test puts beside this script

out: list[bytes] = []
leds = []
link = p.BridgeLink(6, "t/3", "B1", out.append, on_led=lambda n, d: leds.append(d), card_channel=5, led_bits=16)


def host(seq, verb, *args):
    link.host_line(p.encode(seq, verb, *args)[:-1], 0)


host(0, "HELLO", 3, "S1")
host(1, "SEEN", "S1", "0=0+1,1=2+3")
host(2, "LED", "S1", 16, "0080", 0)
host(3, "LED", "S1", 10000000, "FF")
host(4, "LED", "S1", "9" * 40, "FF")
host(5, "BEAT", "S1", "9" * 40)
for ch in range(5):
    for _ in range(5):
        link.settling(ch, True)
link.set_tag(1, "04A1B2C3D4E5F6")
print("bad", link.bad_lines, "leds", [bytes(d) for d in leds])
link.snapshot()
print(out[1])
print(out[-1])
print(p.parse(out[-1], p.BRIDGE_VERBS).args)
print(p.number("1073741823"), p.is_session("AB12"), p.is_session("-"), p.parse_seen("3=1+2", 5, 15))
try:
    p.number("1073741824")
except ValueError as e:
    print("refused", e)
