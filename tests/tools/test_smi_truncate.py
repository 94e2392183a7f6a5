#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""swgpu-smi never crashes on a status page that shrinks while it reads
it (truncated by anything, or re-created with O_TRUNC by a new owner
after pid reuse): a churner process rewrites a page (owner pid 1, alive)
and truncates it to 0 bytes in a loop while swgpu-smi --json runs many
times; no run may die of a signal (a mapped read would get SIGBUS), and
every run must exit 0 or 1 with valid JSON.

usage: test_smi_truncate.py SWGPU_SMI [RUNS]

RUNS (default 400) runs, or as many as fit in 60 s when that is at
least 50: a sanitizer build on a loaded machine starts swgpu-smi in
about a third of a second, and the churner takes a core (400 runs did
not fit the ctest timeout there).
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

CHURN = r"""
import os, struct, sys
path, size = sys.argv[1], int(sys.argv[2])
hdr = struct.pack("=QIIQi", 0x3154535550475753, 1, size, 0, 1)
body = hdr + b"\0" * (size - len(hdr))
fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
while True:
    os.pwrite(fd, body, 0)
    os.ftruncate(fd, 0)
"""


def page_size(smi, run, page):
    """The size of a status page, as swgpu-smi says when it skips a
    1-byte one (so the test follows layout changes)."""
    with open(page, "wb") as f:
        f.write(b"x")
    r = subprocess.run([smi], env=dict(os.environ, XDG_RUNTIME_DIR=run),
                       capture_output=True, text=True, timeout=30)
    os.unlink(page)
    m = re.search(r"a status page has (\d+) bytes", r.stderr)
    assert m, "swgpu-smi did not report the 1-byte page: %r" % r.stderr
    return int(m.group(1))


def main():
    smi = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    with tempfile.TemporaryDirectory() as run:
        d = os.path.join(run, "swgpu")
        os.mkdir(d, 0o700)
        page = os.path.join(d, "status-1-0")
        size = page_size(smi, run, page)
        churn = subprocess.Popen([sys.executable, "-c", CHURN, page,
                                  str(size)])
        env = dict(os.environ, XDG_RUNTIME_DIR=run)
        bad = []
        done = 0
        start = time.monotonic()
        try:
            while done < runs and (done < 50 or
                                   time.monotonic() - start < 60):
                done += 1
                r = subprocess.run([smi, "--json"], env=env,
                                   capture_output=True, timeout=30)
                if r.returncode not in (0, 1):
                    bad.append("exit %d" % r.returncode)
                    continue
                try:
                    json.loads(r.stdout)
                except ValueError as e:
                    bad.append("invalid JSON: %s" % e)
        finally:
            churn.kill()
            churn.wait()
    print("%d runs against a page truncated in a loop: %d bad %s"
          % (done, len(bad), sorted(set(bad))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
