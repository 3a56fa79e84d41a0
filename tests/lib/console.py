# SPDX-License-Identifier: GPL-2.0-or-later
"""The console of a guest run: its lines as they arrive."""
import queue
import threading


def line_queue(proc):
    """A queue of PROC's stdout lines (decoded, newlines kept), filled by a
    daemon thread, with None after the last: a runner can wait for the next
    line with a timeout and still see the end."""
    lines = queue.Queue()

    def reader():
        for raw in proc.stdout:
            lines.put(raw.decode("utf-8", "replace"))
        lines.put(None)
    threading.Thread(target=reader, daemon=True).start()
    return lines
