#!/usr/bin/env python3
"""Byte meter for the TUI over a slow link (issue 48): runs an animscope binary in a pty of
COLS x ROWS, plays the terminal (answers status and cursor-position requests at once, the
graphics query with its status answer), sends keys and prints the bytes each action wrote.

    tools/tui-bytes.py BIN COLS ROWS FILE

On an archive or raw file (e.g. fixtures/demo.bin): the first frame, 3 s idle, hex `j` that
scrolls one row (the last three presses, once the cursor is at the edge), PgDn, the same
zoomed to the whole width (`z`). On a MOTN file (fixtures/motn/multi.mot): the first frame,
idle, three decode frame steps on TMN_BAG, and 2 s of pose playback.
The Rust twin with assertions: tests/integration/pty.rs.
"""
import fcntl, os, pty, select, struct, sys, termios, time

binary, cols, rows, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
pid, fd = pty.fork()
if pid == 0:
    os.environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8"})
    os.execv(binary, [binary, path])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
out = bytearray()
PGDN = b"\x1b[6~"


def pump(quiet=0.25):
    """Read until nothing came for `quiet` seconds, answering requests."""
    last = time.time()
    while time.time() - last < quiet:
        ready, _, _ = select.select([fd], [], [], 0.02)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            out.extend(data)
            last = time.time()
            if b"\x1b[6n" in data:
                os.write(fd, b"\x1b[1;1R")
            if b"\x1b[5n" in data:
                os.write(fd, b"\x1b[0n")


def act(keys, quiet=0.25):
    pump(quiet)
    n = len(out)
    os.write(fd, keys)
    pump(quiet)
    return len(out) - n


def report(what, n):
    print(f"{cols}x{rows} {what}: {n}")


pump(0.6)
report("first frame", len(out))
n = len(out)
time.sleep(3)
pump(0.05)
report("idle 3 s", len(out) - n)


def scroll_j(label):
    counts = [act(b"j", 0.15) for _ in range(rows + 10)]
    report(f"{label} j one-row scroll (last 3)", counts[-3:])


if path.endswith((".mot", ".mot.gz")):
    act(b"g")
    act(b"tmn_bag\r")
    act(b"4")
    report("decode frame step", [act(b".") for _ in range(3)])
    act(b"P")
    pump(0.3)
    n = len(out)
    os.write(fd, b"p")
    start = time.time()
    while time.time() - start < 2:
        pump(0.05)
    os.write(fd, b"p")
    pump(0.3)
    report("pose playback 2 s", len(out) - n)
else:
    act(b"2")
    scroll_j("hex")
    report("hex PgDn", act(PGDN))
    act(b"z")
    scroll_j("hex zoomed")
    report("hex zoomed PgDn", act(PGDN))
os.write(fd, b"q")
pump(0.3)
