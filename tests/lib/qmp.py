# SPDX-License-Identifier: GPL-2.0-or-later
"""The host-side tests' QMP client: one connection to a QEMU's QMP socket.

    from qmp import Qmp            # with tests/lib on sys.path
    q = Qmp("/tmp/q.sock")         # waits for the socket, negotiates capabilities
    q.execute("query-mpam", all=True)
    q.events                       # asynchronous events received so far, in order

and two helpers of the migration tests (tests/device/migration.py,
tests/guest-runner/timing_migrate.py): differences() between two QMP
replies, migration_end() to wait for a migration.
"""
import json
import socket
import time


class QmpError(RuntimeError):
    """A command QEMU answered with an error; .cls is its class (e.g. GenericError)."""

    def __init__(self, cmd, error):
        super().__init__(f"{cmd}: {error.get('desc', error)}")
        self.cls = error.get("class")


class Qmp:
    def __init__(self, path, timeout=30):
        """Connect to the unix socket PATH, retrying for up to TIMEOUT seconds
        (QEMU creates it while starting); TIMEOUT also bounds each reply."""
        deadline = time.monotonic() + timeout
        while True:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.sock.settimeout(timeout)
        self.file = self.sock.makefile("rwb")
        self.events = []
        self.greeting = self._read()
        self.execute("qmp_capabilities")

    def _read(self):
        """The next message that is not an event (events go to self.events)."""
        while True:
            line = self.file.readline()
            if not line:
                raise ConnectionError("QMP connection closed")
            msg = json.loads(line)
            if "event" not in msg:
                return msg
            self.events.append(msg)

    def execute(self, cmd, **args):
        """Run CMD with ARGS; its 'return' value, or QmpError."""
        req = {"execute": cmd}
        if args:
            req["arguments"] = args
        self.file.write(json.dumps(req).encode() + b"\n")
        self.file.flush()
        resp = self._read()
        if "error" in resp:
            raise QmpError(cmd, resp["error"])
        return resp["return"]

    def close(self):
        try:
            self.file.close()
        except OSError:
            pass                # QEMU has gone: a command it never read stays unsent
        self.sock.close()


def differences(a, b, path=""):
    """Paths where two JSON values (QMP replies) differ, as 'PATH: A -> B'."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b))
                for d in differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} -> {b!r}"]


def migration_end(execute, deadline, poll=0.05):
    """Poll query-migrate through EXECUTE (a Qmp.execute) until the migration
    ends; its final status (completed, failed, cancelled).  TimeoutError once
    time.monotonic() passes DEADLINE; a QEMU that exits raises what EXECUTE
    raises (ConnectionError, OSError)."""
    while True:
        status = execute("query-migrate").get("status")
        if status in ("completed", "failed", "cancelled"):
            return status
        if time.monotonic() > deadline:
            raise TimeoutError(f"migration still '{status}' at its deadline")
        time.sleep(poll)
