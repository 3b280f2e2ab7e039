#!/usr/bin/env python3
"""CPU time of the TUI's first frame with process start included (issue 53): runs
`BIN FILE` in a pty of COLS x ROWS, answers its terminal requests at once (as tui-bytes.py
does), and once the output has been quiet for 0.3 s reads the CPU time the program's live
threads have used (`/proc/PID/task/*/schedstat`, nanoseconds); then sends `q` and, when it
has exited, takes its whole CPU time (user + sys of `wait4`'s rusage: start, first frame,
the quiet wait and quitting). Prints one line per run and the lowest and median of each,
then the reference run beside it: `cat` writing the same first-frame bytes to the same pty
(a program that only starts and writes them), its whole CPU time.

    tools/first-frame-cpu.py [--runs N] BIN COLS ROWS FILE

Measures what a user waits for on a fast local terminal; the machine's load inflates CPU
time less than wall time, so say the load beside the figure (benches/README.md).
"""
import fcntl, os, pty, statistics, struct, sys, tempfile, termios

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptyio  # noqa: E402

ANSWERS = [(b"\x1b[6n", b"\x1b[1;1R"), (b"\x1b[?69$p", b"\x1b[?69;0$y"), (b"\x1b[5n", b"\x1b[0n")]


def live_cpu_ns(pid):
    """Nanoseconds on a CPU of every live thread of `pid`."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


def reference(cols, rows, frame):
    """Whole CPU time (ms) of `cat` writing `frame` (a file) to a pty of COLS x ROWS."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv("/bin/cat", ["cat", frame])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    ptyio.pump(fd, bytearray(), [], 0.1)
    _, _, usage = os.wait4(pid, 0)
    os.close(fd)
    return (usage.ru_utime + usage.ru_stime) * 1e3


def run(binary, cols, rows, path):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8"})
        os.execv(binary, [binary, path])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    out = bytearray()
    ptyio.pump(fd, out, ANSWERS, 0.3)
    first = live_cpu_ns(pid)
    frame = bytes(out)
    os.write(fd, b"q")
    ptyio.pump(fd, out, ANSWERS, 0.3)
    _, status, usage = os.wait4(pid, 0)
    os.close(fd)
    whole = (usage.ru_utime + usage.ru_stime) * 1e3
    return (first or 0) / 1e6, whole, frame, usage.ru_maxrss, status


def main():
    args = sys.argv[1:]
    runs = 10
    if args[:1] == ["--runs"]:
        runs = int(args[1])
        args = args[2:]
    if len(args) != 4:
        sys.exit(__doc__)
    binary, cols, rows, path = args[0], int(args[1]), int(args[2]), args[3]
    firsts, wholes = [], []
    for i in range(runs):
        first, whole, frame, rss, status = run(binary, cols, rows, path)
        if status != 0:
            sys.exit(f"run {i}: {binary} exited with status {status}")
        firsts.append(first)
        wholes.append(whole)
        print(f"run {i}: first frame {first:.2f} ms CPU (live threads); whole process {whole:.2f} ms CPU; "
              f"{len(frame)} bytes before `q`; max RSS {rss} KiB")
    print(f"first frame: lowest {min(firsts):.2f} ms, median {statistics.median(firsts):.2f} ms CPU; "
          f"whole process: lowest {min(wholes):.2f} ms, median {statistics.median(wholes):.2f} ms CPU "
          f"({runs} runs, load {open('/proc/loadavg').read().split()[0]})")
    with tempfile.NamedTemporaryFile(prefix="first-frame-") as f:
        f.write(frame)
        f.flush()
        cats = [reference(cols, rows, f.name) for _ in range(runs)]
    print(f"reference, cat of those {len(frame)} bytes: lowest {min(cats):.2f} ms, median {statistics.median(cats):.2f} ms CPU")


main()
