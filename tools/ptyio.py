"""Reading a program's output through a pty master, shared by the byte meters
(tui-bytes.py, tmux-bytes.py): read until the program has been quiet for a while,
answering the terminal requests it sends."""
import os
import select
import time


def pump(fd, out, answers, quiet):
    """Append what `fd` writes to `out` until nothing came for `quiet` seconds; where a
    chunk holds a request of `answers` ((request, reply) pairs), write its reply."""
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
            for request, reply in answers:
                if request in data:
                    os.write(fd, reply)
