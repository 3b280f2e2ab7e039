#!/usr/bin/env python3
"""Bytes a real `tmux` client sends to its terminal when animscope runs inside tmux (issue
48: what crosses the link when tmux runs on the remote side). A private tmux server (its own
socket, no config file: tmux's defaults, status line on) runs the binary in a window of
COLS x ROWS (the status line takes one row); its client runs in a pty this script reads
from, playing the outer terminal (xterm-256color; it answers status requests). Prints the
bytes the client wrote for each action: first frame, hex `j` that scrolls one row (the last
three presses once the cursor is at the edge), PgDn, the same zoomed (`z`).

    tools/tmux-bytes.py BIN COLS ROWS FILE

The server is killed at the end (`tmux -L NAME kill-server`, its own socket only).
"""
import fcntl, os, pty, select, struct, subprocess, sys, termios, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptyio  # noqa: E402

binary, cols, rows, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sock = f"animscope-meter-{os.getpid()}"
env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TMUX_PANE", "STY")}
env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8"})
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(
        "tmux",
        ["tmux", "-L", sock, "-f", "/dev/null", "new-session", "-x", str(cols), "-y", str(rows),
         f"exec {binary} {path}"],
        env,
    )
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
out = bytearray()


def pump(quiet=0.3):
    ptyio.pump(fd, out, [(b"\x1b[5n", b"\x1b[0n")], quiet)


def act(keys, quiet=0.3):
    pump(quiet)
    n = len(out)
    os.write(fd, keys)
    pump(quiet)
    return len(out) - n


try:
    pump(1.5)
    print(f"{cols}x{rows} in tmux: first frame: {len(out)}")
    act(b"2")
    counts = [act(b"j", 0.2) for _ in range(rows + 10)]
    print(f"{cols}x{rows} in tmux: hex j one-row scroll (last 3): {counts[-3:]}")
    pgdn = act(b"\x1b[6~")
    print(f"{cols}x{rows} in tmux: hex PgDn: {pgdn}")
    act(b"z")
    counts = [act(b"j", 0.2) for _ in range(rows + 10)]
    print(f"{cols}x{rows} in tmux: hex zoomed j one-row scroll (last 3): {counts[-3:]}")
    os.write(fd, b"q")
    pump(0.5)
finally:
    subprocess.run(["tmux", "-L", sock, "kill-server"], env=env, stderr=subprocess.DEVNULL)
