#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_trace.py must accept a well-formed trace and reject each kind of
malformed one (so a trace test cannot pass on a broken writer)."""
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "check_trace.py")


def meta(pid, tid, name):
    return {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
            "args": {"name": name}}


def job(tid, name, ts, dur, **args):
    return {"ph": "X", "name": name, "cat": "job", "pid": 1, "tid": tid,
            "ts": ts, "dur": dur, "args": args}


def qargs(s, r, st, e):
    return dict(submit_us=s, ready_us=r, start_us=st, end_us=e)


GOOD = [
    {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "dev"}},
    meta(1, 1, "engine 0"), meta(1, 2, "engine 1"),
    meta(1, 1000, "queue 0"), meta(1, 1001, "queue 1"),
    job(1, "0:0:1", 10.0, 20.0, preempted=True),
    {"ph": "i", "s": "t", "name": "preempt", "cat": "sched", "pid": 1,
     "tid": 1, "ts": 30.0},
    job(1, "0:1:1", 30.5, 5.0),
    job(1, "0:0:1", 36.0, 10.0),
    job(2, "0:1:2", 46.5, 23.5),
    job(1, "0:0:2", 50.0, 5.0),
    job(1000, "0:0:2", 50.0, 5.0, **qargs(3.0, 4.0, 50.0, 55.0)),
    job(1000, "0:0:1", 10.0, 36.0, **qargs(1.0, 2.0, 10.0, 46.0)),
    job(1001, "0:1:1", 30.5, 5.0, **qargs(29.0, 30.0, 30.5, 35.5)),
    job(1001, "0:1:2", 46.5, 23.5, **qargs(31.0, 36.0, 46.5, 70.0)),
    {"ph": "s", "name": "dependency", "cat": "sync", "id": 1, "pid": 1,
     "tid": 1, "ts": 40.0},
    {"ph": "f", "bp": "e", "name": "dependency", "cat": "sync", "id": 1,
     "pid": 1, "tid": 2, "ts": 55.0},
]
ALL = ["--flows", "--preempt", "--overlap", "--min-engines", "2",
       "--min-queues", "2", "--jobs", "3"]


def run(events, opts=(), raw=None):
    with tempfile.NamedTemporaryFile("w", suffix=".json",
                                     delete=False) as f:
        f.write(raw if raw is not None else json.dumps(events))
    try:
        return subprocess.run([sys.executable, CHECKER, f.name, *opts],
                              capture_output=True, text=True).returncode
    finally:
        os.unlink(f.name)


def find(ev, tid, name):
    return next(e for e in ev if e.get("tid") == tid and
                e.get("name") == name and e["ph"] == "X")


def mutated(fn):
    ev = copy.deepcopy(GOOD)
    fn(ev)
    return ev


class CheckTrace(unittest.TestCase):
    def test_good(self):
        self.assertEqual(run(GOOD, ALL), 0)

    def test_missing_closing_bracket_is_allowed(self):
        text = "[\n" + ",\n".join(json.dumps(e) for e in GOOD)
        self.assertEqual(run(None, ALL, raw=text), 0)

    def test_rejects(self):
        bad = {
            "not json": None,
            "partial overlap": lambda ev: ev.append(
                job(2, "0:1:3", 60.0, 20.0)) or ev.append(
                job(2, "0:1:4", 75.0, 10.0)),
            "negative dur": lambda ev: find(ev, 1, "0:0:1").update(dur=-1),
            "unknown ph": lambda ev: find(ev, 1, "0:0:1").update(ph="Q"),
            "no thread name": lambda ev: ev.pop(2),
            "no process name": lambda ev: ev.pop(0),
            "bad job name": lambda ev: find(ev, 2, "0:1:2").update(name="job 7"),
            "times out of order": lambda ev: find(ev, 1000, "0:0:1")["args"].update(ready_us=99.0),
            "flow without end": lambda ev: ev.pop(),
            "flow end not bound": lambda ev: ev[-1].pop("bp"),
            "flow outside slice": lambda ev: ev[-1].update(ts=200.0),
            "flow backwards": lambda ev: (ev[-2].update(tid=2, ts=60.0),
                                          ev[-1].update(tid=1, ts=40.0)),
        }
        for what, fn in bad.items():
            with self.subTest(what):
                if fn is None:
                    self.assertEqual(run(None, raw="[{,"), 1)
                else:
                    self.assertEqual(run(mutated(fn)), 1, what)

    def test_requirements(self):
        no_flow = [e for e in GOOD if e["ph"] not in "sf"]
        self.assertEqual(run(no_flow, ["--flows"]), 1)
        no_preempt = [e for e in GOOD if e.get("name") != "preempt"]
        self.assertEqual(run(no_preempt, ["--preempt"]), 1)
        serial = [e for e in GOOD if e.get("tid") != 2 and
                  e["ph"] not in "sf" and e.get("name") != "0:0:2"]
        self.assertEqual(run(serial, ["--overlap"]), 1)
        self.assertEqual(run(GOOD, ["--min-engines", "3"]), 1)
        self.assertEqual(run(GOOD, ["--jobs", "9"]), 1)


if __name__ == "__main__":
    unittest.main()
