#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Shared mode (issue 22): several processes on one swgpud, in a private
XDG_RUNTIME_DIR (the daemon is started on demand by the first client):

  * three clients at once, each checking every byte of its copies;
  * swgpu-smi shows the daemon's GPU ("shared") with each client's
    contexts under the client's pid and a blocked job running;
  * a client killed with SIGKILL while its job runs loses only its own
    contexts: another client's work is right, its contexts vanish from
    swgpu-smi, a new client works;
  * a malicious client (evil_client: forged and foreign ids, wrong fds,
    bad packets, unmapped VAs, malformed messages, a flood of submits,
    not reading its replies) gets errors or is dropped while an honest
    client works;
  * the daemon killed under a waiting client: the wait returns
    CONTEXT_LOST in bounded time, and the next client starts a new
    daemon;
  * another user cannot connect: the directory keeps them out, and a
    daemon listening where they can reach it refuses them by their
    credentials (SO_PEERCRED; run as root only);
  * no daemon to be had: the client falls back to its own GPU with a log
    line.

  test_shared.py SHARED_CLIENT EVIL_CLIENT SWGPUD SWGPU_SMI
"""
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from daemon_util import wait_for

CLIENT, EVIL, SWGPUD, SMI = sys.argv[1:5]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def work(env, seed, rounds=20):
    return subprocess.Popen([CLIENT, "work", str(seed), str(rounds)],
                            env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finished_ok(p, timeout=120):
    out, err = p.communicate(timeout=timeout)
    if p.returncode != 0 or out.strip() != "ok":
        print(out, err)
    return p.returncode == 0 and out.strip() == "ok"


class Blocker:
    def __init__(self, env):
        self.p = subprocess.Popen([CLIENT, "block"], env=env,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        line = self.p.stdout.readline().split()
        assert line and line[0] == "blocked", line

    def wait_line(self):
        self.p.stdin.write("wait\n")
        self.p.stdin.flush()
        return self.p.stdout.readline().split()


def smi(env):
    r = subprocess.run([SMI, "--json"], env=env, capture_output=True,
                       text=True, timeout=60)
    return json.loads(r.stdout) if r.stdout.strip() else {"gpus": []}


def shared_gpus(env):
    return [g for g in smi(env)["gpus"] if g.get("mode") == "shared"]


def ctx_pids(env):
    return [c["pid"] for g in shared_gpus(env) for c in g["contexts"]]


def main():
    run = tempfile.mkdtemp(prefix="swgpu-shared-")
    os.chmod(run, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=run, SWGPU_MODE="shared",
               SWGPUD_PATH=SWGPUD, SWGPU_PUBLISH_MS="20")
    try:
        # Several processes at once, data checked by each.
        ps = [work(env, s) for s in (1, 2, 3)]
        check(all(finished_ok(p) for p in ps),
              "three clients at once, every byte right")
        sock = glob.glob(os.path.join(run, "swgpu", "swgpud-*.sock"))
        check(len(sock) == 1, "the daemon listens in the private directory")
        sock = sock[0]

        # swgpu-smi: the daemon's GPU, the client's contexts.
        a = Blocker(env)
        check(wait_for(lambda: a.p.pid in ctx_pids(env), 5),
              "swgpu-smi shows the blocked client's context under its pid")
        g = shared_gpus(env)
        check(len(g) == 1 and g[0]["pid"] != a.p.pid and
              any(e.get("running") for e in g[0]["engines"]),
              "one shared GPU, owned by swgpud, a job running")
        daemon_pid = g[0]["pid"] if g else 0

        # SIGKILL mid-job: only the killed client's work goes.
        b = work(env, 7, 50)
        a.p.kill()
        a.p.wait()
        check(finished_ok(b), "a client killed mid-job: the other's data "
              "is right")
        check(wait_for(lambda: a.p.pid not in ctx_pids(env), 10),
              "the killed client's contexts are gone")
        check(finished_ok(work(env, 8)), "a new client works after it")

        # A malicious client beside an honest one.
        honest = work(env, 9, 200)
        r = subprocess.run([EVIL, sock], env=env, capture_output=True,
                           text=True, timeout=180)
        print(r.stdout)
        check(r.returncode == 0 and r.stdout.strip().endswith("ok"),
              "malicious client: every attempt refused or dropped")
        check(finished_ok(honest), "the honest client beside it is right")
        check(wait_for(lambda: os.path.exists("/proc/%d" % daemon_pid), 1),
              "the daemon survived")

        # The daemon dies under a waiting client.
        c = Blocker(env)
        g = shared_gpus(env)
        daemon_pid = g[0]["pid"] if g else daemon_pid
        c.p.stdin.write("wait\n")
        c.p.stdin.flush()
        time.sleep(0.2)
        t0 = time.time()
        os.kill(daemon_pid, signal.SIGKILL)
        line = c.p.stdout.readline().split()
        took = time.time() - t0
        check(line[:2] == ["wait", "SWGPU_ERR_CONTEXT_LOST"] and took < 5,
              "daemon killed: the waiting client gets CONTEXT_LOST in "
              "%.2f s" % took)
        check(c.p.wait(timeout=30) == 0, "and closes its device cleanly")
        check(finished_ok(work(env, 10)), "the next client starts a new "
              "daemon and works")

        # Another user.
        # nobody cannot run a python under root's home: the system one
        if os.getuid() == 0 and os.access("/usr/bin/python3", os.X_OK):
            def as_nobody():
                os.setgid(65534)
                os.setuid(65534)
            probe = ("import socket,sys\n"
                     "s=socket.socket(socket.AF_UNIX)\n"
                     "try:\n s.connect(sys.argv[1])\n"
                     "except OSError as e:\n print('refused', e.errno)\n"
                     " sys.exit(0)\n"
                     "s.settimeout(5)\n"
                     "try:\n s.sendall(b'\\0'*24)\n d=s.recv(64)\n"
                     "except OSError:\n d=b''\n"
                     "print('closed' if d==b'' else 'answered')\n")
            sock = glob.glob(os.path.join(run, "swgpu", "swgpud-*.sock"))[0]
            r = subprocess.run(["/usr/bin/python3", "-c", probe, sock],
                               preexec_fn=as_nobody, capture_output=True,
                               text=True, timeout=30)
            check(r.stdout.startswith("refused"),
                  "another user cannot reach the private socket (%s)"
                  % r.stdout.strip())
            open_dir = tempfile.mkdtemp(prefix="swgpud-open-")
            os.chmod(open_dir, 0o777)
            path = os.path.join(open_dir, "d.sock")
            d = subprocess.Popen([SWGPUD, "--socket", path, "--idle-exit",
                                  "0"], env=env, stderr=subprocess.PIPE,
                                 text=True)
            wait_for(lambda: os.path.exists(path), 5)
            os.chmod(path, 0o777)
            r = subprocess.run(["/usr/bin/python3", "-c", probe, path],
                               preexec_fn=as_nobody, capture_output=True,
                               text=True, timeout=30)
            d.terminate()
            _, derr = d.communicate(timeout=30)
            check(r.stdout.strip() == "closed" and "refused a connection"
                  in derr, "a reachable daemon refuses another user by "
                  "its credentials")
            shutil.rmtree(open_dir, ignore_errors=True)
        else:
            print("skip other-user checks: not root, or no /usr/bin/python3")

        # No daemon to be had: the client's own GPU, with a log line.
        lone = tempfile.mkdtemp(prefix="swgpu-lone-")
        os.chmod(lone, 0o700)
        env2 = dict(env, XDG_RUNTIME_DIR=lone, SWGPUD_PATH="/nonexistent")
        p = work(env2, 11, 2)
        out, err = p.communicate(timeout=60)
        check(p.returncode == 0 and out.strip() == "ok" and
              "in-process mode" in err,
              "no daemon: falls back to in-process with a log line")
        shutil.rmtree(lone, ignore_errors=True)
    finally:
        for s in glob.glob(os.path.join(run, "swgpu", "*.log")):
            print("---", s)
            print(open(s).read()[-3000:])
        # the daemon exits when idle; do not leave it behind
        subprocess.run(["pkill", "-f", "swgpud --socket " + run])
        shutil.rmtree(run, ignore_errors=True)
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("all checks passed")


main()
