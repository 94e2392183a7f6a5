#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""swgpu-smi against a device with known work (smi_probe), in a private
status directory (XDG_RUNTIME_DIR of its own, so parallel tests' devices
do not show):

  * the probe's device: pid, program name, engines, both contexts with
    their priorities and job counts, the 3 MiB VRAM BO in the heap usage;
  * a job waiting on a host word shows as running (ctx:queue:seqno) on
    compute0, with the engine busy;
  * the table output names the program; exit status 0;
  * after the probe closes its device the page is gone;
  * SWGPU_PUBLISH=0: no page;
  * a probe killed with SIGKILL leaves a stale page: swgpu-smi removes it;
  * a truncated page and a page with a bad magic are skipped with a
    reason, never a crash; with no device left the exit status is 1.

  test_smi.py SWGPU_SMI SMI_PROBE
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

SMI, PROBE = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def smi(env, *args):
    r = subprocess.run([SMI, *args], env=env, capture_output=True,
                       text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def smi_json(env):
    rc, out, err = smi(env, "--json")
    try:
        return rc, json.loads(out)
    except json.JSONDecodeError as e:
        failures.append("swgpu-smi --json printed invalid JSON: %s\n%s"
                        % (e, out))
        raise


class Probe:
    def __init__(self, env):
        self.p = subprocess.Popen([PROBE], env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        line = self.p.stdout.readline().split()
        assert line and line[0] == "ready", line
        self.pid = int(line[1])

    def say(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()
        return self.p.stdout.readline().split()

    def end(self):
        self.p.stdin.close()
        self.p.wait(timeout=60)


def gpu_of(doc, pid):
    return [g for g in doc["gpus"] if g["pid"] == pid]


def settle():
    # two refreshes of the 20 ms interval
    time.sleep(0.3)


def main():
    run = tempfile.mkdtemp(prefix="swgpu-smi-test-")
    # The in-process pages: each probe owns its engines (shared mode's
    # page, the daemon's, is tests/daemon's business).
    env = dict(os.environ, XDG_RUNTIME_DIR=run, SWGPU_PUBLISH_MS="20",
               SWGPU_MODE="inproc")
    env.pop("SWGPU_PUBLISH", None)
    pages = os.path.join(run, "swgpu")

    # the probe's device, its work and memory
    probe = Probe(env)
    settle()
    rc, doc = smi_json(env)
    mine = gpu_of(doc, probe.pid)
    check(rc == 0 and len(mine) == 1, "the probe's device is listed once")
    g = mine[0]
    check(g["program"] == "smi_probe", "program name %r" % g["program"])
    check(g["mode"] == "inproc", "mode inproc")
    check(len(g["engines"]) >= 2 and
          any(e["name"] == "compute0" for e in g["engines"]),
          "engines listed (compute0 among them)")
    prios = sorted((c["priority"], c["jobs_completed"], c["jobs_submitted"])
                   for c in g["contexts"])
    check(prios == [("high", 3, 3), ("normal", 5, 5)],
          "contexts: high 3/3 jobs, normal 5/5 jobs: %r" % prios)
    check(all(c["pid"] == probe.pid and c["state"] == "ok"
              for c in g["contexts"]), "contexts owned by the probe, ok")
    vram = [h for h in g["heaps"] if h["name"] == "vram"][0]
    check(vram["used"] >= 3 << 20 and vram["size"] >= vram["used"],
          "VRAM usage counts the 3 MiB BO (%d bytes)" % vram["used"])
    # Memory per process: in process every BO is the probe's.
    procs = {p["pid"]: p for p in g.get("processes", [])}
    mine_mem = procs.get(probe.pid, {})
    check(len(procs) == 1 and mine_mem.get("program") == "smi_probe" and
          mine_mem.get("heap_used", {}).get("vram") == vram["used"],
          "memory per process: the probe owns the device's VRAM bytes")
    check(all(c.get("program") == "smi_probe" for c in g["contexts"]),
          "each context names its program")
    check(sum(e["jobs_completed"] for e in g["engines"]) >= 8,
          "engines completed the 8 jobs")
    check(g["faults"] == 0 and g["hangs"] == 0, "no faults, no hangs")

    # a job running now
    ans = probe.say("block")
    seqno = int(ans[1])
    settle()
    rc, doc = smi_json(env)
    c0 = [e for e in gpu_of(doc, probe.pid)[0]["engines"]
          if e["name"] == "compute0"][0]
    run_ = c0["running"]
    check(run_ is not None and run_["seqno"] == seqno,
          "compute0 runs the blocked job (seqno %d): %r" % (seqno, run_))
    check(c0["busy_percent"] > 50.0,
          "compute0 busy while its job waits (%.1f %%)" % c0["busy_percent"])
    rc, out, _ = smi(env)
    check(rc == 0 and "smi_probe" in out and "compute0" in out,
          "table output names the program and engines")
    check(probe.say("release") == ["released"], "job released")
    settle()
    rc, doc = smi_json(env)
    c0 = [e for e in gpu_of(doc, probe.pid)[0]["engines"]
          if e["name"] == "compute0"][0]
    check(c0["running"] is None, "compute0 idle after the release")

    # closing the device removes its page
    check(probe.say("close") == ["closed"], "device closed")
    rc, doc = smi_json(env)
    check(not gpu_of(doc, probe.pid), "no page after close")
    check(rc == 1, "exit status 1 with no device")
    probe.end()

    # publishing off
    off = Probe(dict(env, SWGPU_PUBLISH="0"))
    settle()
    rc, doc = smi_json(env)
    check(not gpu_of(doc, off.pid), "SWGPU_PUBLISH=0: no page")
    off.end()

    # a process killed with its device open leaves a stale page
    killed = Probe(env)
    settle()
    os.kill(killed.pid, signal.SIGKILL)
    killed.p.wait(timeout=60)
    rc, doc = smi_json(env)
    check(not gpu_of(doc, killed.pid) and doc["stale_removed"] >= 1,
          "stale page of a killed process removed")
    check(not os.path.exists(os.path.join(pages,
                                          "status-%d-0" % killed.pid)),
          "its file is gone")

    # corrupt pages: skipped with a reason
    size = None
    live = Probe(env)
    settle()
    size = os.path.getsize(os.path.join(pages, "status-%d-0" % live.pid))
    with open(os.path.join(pages, "status-1-7"), "wb") as f:
        f.write(b"SWGPU")
    with open(os.path.join(pages, "status-2-7"), "wb") as f:
        f.write(b"\xff" * size)
    rc, doc = smi_json(env)
    reasons = {s["file"]: s["reason"] for s in doc["skipped"]}
    check("status-1-7" in reasons and "size" in reasons["status-1-7"],
          "truncated page skipped: %r" % reasons.get("status-1-7"))
    check("status-2-7" in reasons and "magic" in reasons["status-2-7"],
          "bad magic skipped: %r" % reasons.get("status-2-7"))
    check(rc == 0 and len(gpu_of(doc, live.pid)) == 1,
          "the live device is still shown beside them")
    rc, out, err = smi(env)
    check(rc == 0 and "status-1-7" in err, "table mode reports the skip")
    rc, out, err = smi(env, "--bogus")
    check(rc == 1 and "unknown argument" in err, "bad argument: status 1")
    live.say("close")
    live.end()

    for name in os.listdir(pages):
        os.unlink(os.path.join(pages, name))
    os.rmdir(pages)
    os.rmdir(run)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
