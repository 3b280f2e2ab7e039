#!/usr/bin/env python3
"""Byte meter for the TUI over a slow link (issue 48): runs an animscope binary in a pty of
COLS x ROWS, plays the terminal (answers status and cursor-position requests at once, the
graphics query with its status answer, DECRQM mode queries as `margins` says), sends keys
and prints the bytes each action wrote, split into SGR, cursor moves, scrolling, erases,
text and the rest.

    tools/tui-bytes.py [--margins yes|no] [--seq NAME] [--rows-only] BIN COLS ROWS FILE

Actions by the kind of FILE:
- an archive or raw file (e.g. fixtures/demo.bin): first frame, 3 s idle, hex `j` that
  scrolls one row (the last three presses, once the cursor is at the edge), PgDn, the same
  zoomed to the whole width (`z`);
- a MOTN file (`*.mot`, `*.mot.gz`, or any name holding `motn`/`MOTION`): the same hex
  actions, hex `j` on the key rows of `--seq` (default TMN_BAG), the edit prompts there
  (`c` in the fields pane, a character, Enter; `s`, a character, Esc), then decode frame
  steps on that sequence and 2 s of pose playback;
- a CCSF file (`*.ccs`, `*.cmp`, `*.tmp`): first frame, idle, three walk steps (`)`), the
  hex actions.
`--margins yes` answers `CSI ? 69 $ p` (DECRQM, left/right margins) as set-able, `no` as
not recognised (tmux, screen). The Rust twin with assertions: tests/integration/pty.rs.
"""
import fcntl, os, pty, re, select, struct, sys, termios, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptyio  # noqa: E402

args = sys.argv[1:]
margins, seq = "no", "TMN_BAG"
while args and args[0].startswith("--"):
    opt = args.pop(0)
    if opt == "--margins":
        margins = args.pop(0)
    elif opt == "--seq":
        seq = args.pop(0)
binary, cols, rows, path = args[0], int(args[1]), int(args[2]), args[3]
pid, fd = pty.fork()
if pid == 0:
    os.environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8"})
    os.execv(binary, [binary, path])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
out = bytearray()
PGDN = b"\x1b[6~"

CSI = re.compile(rb"\x1b\[([0-9;?<=>$]*)([ -/]*)([@-~])")


def classify(b):
    """Bytes by kind: sgr, move, scroll, erase, text, other."""
    k = dict.fromkeys(["sgr", "move", "scroll", "erase", "text", "other"], 0)
    i = 0
    while i < len(b):
        c = b[i]
        if c == 0x1B:
            m = CSI.match(b, i)
            if m:
                n = m.end() - i
                params, fin = m.group(1), m.group(3)
                if fin == b"m":
                    k["sgr"] += n
                elif fin in b"HABCDGdf" and not params.startswith(b"?"):
                    k["move"] += n
                elif fin in b"rsSTL" or (fin == b"M" and not params.startswith(b"?")):
                    k["scroll"] += n
                elif fin in b"KJX":
                    k["erase"] += n
                else:
                    k["other"] += n
                i = m.end()
                continue
            if i + 1 < len(b) and b[i + 1] in b"MDE":
                k["scroll"] += 2
                i += 2
                continue
            k["other"] += 1
        elif c in (0x0D, 0x0A, 0x08):
            k["move"] += 1
        else:
            k["text"] += 1
        i += 1
    return k


def pump(quiet=0.25):
    """Read until nothing came for `quiet` seconds, answering requests."""
    margin_reply = b"\x1b[?69;2$y" if margins == "yes" else b"\x1b[?69;0$y"
    answers = [(b"\x1b[6n", b"\x1b[1;1R"), (b"\x1b[?69$p", margin_reply), (b"\x1b[5n", b"\x1b[0n")]
    ptyio.pump(fd, out, answers, quiet)


def act(keys, quiet=0.25):
    pump(quiet)
    n = len(out)
    os.write(fd, keys)
    pump(quiet)
    return out[n:]


def report(what, chunks):
    if isinstance(chunks, (bytes, bytearray)):
        chunks = [chunks]
    sizes = [len(c) for c in chunks]
    worst = max(chunks, key=len)
    parts = " ".join(f"{k} {v}" for k, v in classify(worst).items() if v)
    shown = sizes[0] if len(sizes) == 1 else sizes
    print(f"{cols}x{rows} {what}: {shown}  (largest: {parts})")
    if os.environ.get("TUI_BYTES_DUMP"):
        print(repr(bytes(worst)))


pump(0.6)
report("first frame", bytes(out))
n = len(out)
time.sleep(3)
pump(0.05)
report("idle 3 s", out[n:])


def hex_actions():
    act(b"2")
    counts = [act(b"j", 0.15) for _ in range(rows + 10)]
    report("hex j one-row scroll (last 3)", counts[-3:])
    report("hex PgDn", act(PGDN))
    act(b"z")
    counts = [act(b"j", 0.15) for _ in range(rows + 10)]
    report("hex zoomed j one-row scroll (last 3)", counts[-3:])
    report("hex zoomed PgDn", act(PGDN))
    act(b"z")


name = os.path.basename(path)
if name.endswith((".ccs", ".cmp", ".tmp")):
    act(b"5")
    act(b"w")
    report("walk step (last 3 of 4)", [act(b")") for _ in range(4)][1:])
    act(b"w")
    hex_actions()
elif name.endswith((".mot", ".mot.gz")) or "motn" in name.lower() or "motion" in name.lower():
    hex_actions()
    act(b"g")
    act(seq.lower().encode() + b"\r")
    # the sequence's key rows in the hex pane (the fields list shows its keys)
    act(b"2")
    counts = [act(b"j", 0.15) for _ in range(rows + 10)]
    report("hex j one-row scroll on key rows (last 3)", counts[-3:])
    # the edit prompts: `c` on the field at the cursor (fields pane), a character typed,
    # Enter (the edit is kept), then `s` (write to a new path) and Esc
    act(b"3")
    report("fields c: edit prompt opens", act(b"c"))
    act(b"\x15")  # ctrl-u: the prompt's text cleared
    report("edit prompt: a character typed", act(b"1"))
    report("edit prompt: Enter", act(b"\r"))
    report("s: write prompt opens", act(b"s"))
    report("write prompt: a character typed", act(b"x"))
    report("write prompt: Esc", act(b"\x1b", 0.5))
    act(b"\x1a")  # ctrl-z: the edit taken back, so the decode steps below see the file
    act(b"4")
    act(b".")
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
    report("pose playback 2 s", out[n:])
else:
    hex_actions()
os.write(fd, b"q")
pump(0.3)
