#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a SWGPU_TRACE file against the Chrome trace event format and
swgpu's own conventions (docs/TRACING.md).

The format rules checked are those of the Trace Event Format document
(the JSON array form, whose closing "]" may be missing) as Perfetto's JSON
importer applies them: every event has a known "ph"; "X" slices have
numeric "ts" and "dur" >= 0 and, on one (pid, tid) track, nest or are
disjoint (Perfetto drops slices that overlap partially); "i" instants have
a scope; flow "s"/"f" pairs share an id and each end lies inside a slice of
its track; metadata names every process and thread that has events.

swgpu conventions: engine tracks (tid < 1000), queue tracks
(1000 <= tid < 100000) and tracks of the driver above (tid >= 100000,
swgpu_trace_track: the Vulkan driver's presents); job slices are named ctx:queue:seqno; the queue slice's
args hold submit <= ready <= start <= end; a flow goes from a job that
ended before the job it points to started (the waiter's first run
segment).

Options require content: --min-engines N, --min-queues N, --flows,
--preempt, --overlap (two engine tracks of one device run slices at the
same time), --jobs N (at least N distinct jobs), --draws N (at least N
"draw" slices, each named after a draw packet and lying inside an engine
slice of the job its args name), --presents N (at least N "present"
slices of category "present", each naming its image, mode and present job,
on driver tracks). Exit 0 when valid, 1 with one line per problem
otherwise.
"""
import argparse
import json
import re
import sys
from collections import defaultdict

PHASES = set("XBEibensftMCPOND") | {"I"}
QUEUE_TID = 1000
USER_TID = 100000
JOB_NAME = re.compile(r"^\d+:\d+:\d+$")
DRAW_NAMES = {"DRAW", "DRAW_INDEXED", "DRAW_INDIRECT"}
EPS = 1e-3  # timestamps carry nanoseconds as microsecond decimals


def load(path):
    text = open(path, encoding="utf-8").read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        # The array form may lack its closing bracket (writer crashed).
        data = json.loads(text.rstrip().rstrip(",") + "\n]")
    if isinstance(data, dict):
        data = data.get("traceEvents")
    if not isinstance(data, list):
        raise ValueError("not a JSON array nor an object with traceEvents")
    return data


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check(events, opts):
    errors = []
    err = errors.append
    slices = defaultdict(list)          # (pid, tid) -> [(ts, end, ev)]
    flows = defaultdict(dict)           # id -> {"s": ev, "f": ev}
    named_pids, named_tids = set(), set()
    npresents = 0
    used_tracks = set()
    jobs = set()

    for i, ev in enumerate(events):
        where = f"event {i}"
        if not isinstance(ev, dict):
            err(f"{where}: not an object")
            continue
        ph = ev.get("ph")
        if ph not in PHASES:
            err(f"{where}: unknown ph {ph!r}")
            continue
        if not isinstance(ev.get("name"), str):
            err(f"{where}: no name")
        if not isinstance(ev.get("pid"), int):
            err(f"{where}: pid not an integer")
            continue
        pid = ev["pid"]
        if "args" in ev and not isinstance(ev["args"], dict):
            err(f"{where}: args not an object")
        if ph == "M":
            args = ev.get("args", {})
            if ev["name"] == "process_name" and "name" in args:
                named_pids.add(pid)
            elif ev["name"] == "thread_name" and "name" in args:
                if not isinstance(ev.get("tid"), int):
                    err(f"{where}: thread_name without tid")
                else:
                    named_tids.add((pid, ev["tid"]))
            continue
        if not isinstance(ev.get("tid"), int):
            err(f"{where}: tid not an integer")
            continue
        tid = ev["tid"]
        if not is_num(ev.get("ts")) or ev["ts"] < 0:
            err(f"{where}: bad ts {ev.get('ts')!r}")
            continue
        used_tracks.add((pid, tid))
        ts = float(ev["ts"])
        if ph == "X":
            if not is_num(ev.get("dur")) or ev["dur"] < 0:
                err(f"{where}: X without dur >= 0")
                continue
            slices[(pid, tid)].append((ts, ts + float(ev["dur"]), ev))
            if ev.get("cat") == "job":
                if not JOB_NAME.match(ev["name"]):
                    err(f"{where}: job slice name {ev['name']!r} is not "
                        "ctx:queue:seqno")
                jobs.add((pid, ev["name"]))
            if ev.get("cat") == "present" and ev["name"] == "present":
                a = ev.get("args", {})
                if tid < USER_TID:
                    err(f"{where}: present slice outside a driver track")
                elif not (isinstance(a.get("image"), int)
                          and isinstance(a.get("mode"), str)
                          and JOB_NAME.match(str(a.get("job", "")))):
                    err(f"{where}: present slice without image, mode, "
                        "job")
                else:
                    npresents += 1
            if tid >= QUEUE_TID and ev.get("cat") == "job":
                a = ev.get("args", {})
                keys = ("submit_us", "ready_us", "start_us", "end_us")
                if not all(is_num(a.get(k)) for k in keys):
                    err(f"{where}: queue slice lacks {keys}")
                else:
                    t = [a[k] for k in keys]
                    if any(t[j] > t[j + 1] + EPS for j in range(3)):
                        err(f"{where}: submit/ready/start/end out of "
                            f"order {t}")
        elif ph in "iI":
            if ev.get("s", "t") not in ("t", "p", "g"):
                err(f"{where}: bad instant scope {ev.get('s')!r}")
        elif ph in "sf":
            if "id" not in ev:
                err(f"{where}: flow without id")
                continue
            if ph == "f" and ev.get("bp") != "e":
                err(f"{where}: flow end without bp=e (binds to the next "
                    "slice instead of the enclosing one)")
            key = (pid, ev.get("cat"), ev["id"])
            if ph in flows[key]:
                err(f"{where}: second flow '{ph}' with id {ev['id']}")
            flows[key][ph] = ev

    # Slices on one track nest or are disjoint.
    for track, lst in slices.items():
        lst.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for ts, end, ev in lst:
            while stack and stack[-1][1] <= ts + EPS:
                stack.pop()
            if stack and end > stack[-1][1] + EPS:
                err(f"track {track}: slice {ev['name']} [{ts}, {end}] "
                    f"overlaps {stack[-1][2]['name']} [{stack[-1][0]}, "
                    f"{stack[-1][1]}] without nesting")
            stack.append((ts, end, ev))

    def inside(ev):
        for ts, end, s in slices.get((ev["pid"], ev["tid"]), ()):
            if ts - EPS <= ev["ts"] <= end + EPS:
                return s
        return None

    nflows = 0
    for key, pair in flows.items():
        if set(pair) != {"s", "f"}:
            err(f"flow {key}: has only {sorted(pair)}")
            continue
        src, dst = inside(pair["s"]), inside(pair["f"])
        if not src or not dst:
            err(f"flow {key}: an end is not inside a slice of its track")
            continue
        nflows += 1
        src_end = src["ts"] + src["dur"]
        if src_end > dst["ts"] + EPS:
            err(f"flow {key}: {src['name']} ends after its waiter "
                f"{dst['name']} starts")

    for pid, tid in used_tracks:
        if pid not in named_pids:
            err(f"pid {pid}: no process_name")
            named_pids.add(pid)
        if (pid, tid) not in named_tids:
            err(f"track ({pid}, {tid}): no thread_name")
            named_tids.add((pid, tid))

    engines = defaultdict(set)
    queues = defaultdict(set)
    for pid, tid in named_tids:
        if tid < USER_TID:
            (queues if tid >= QUEUE_TID else engines)[pid].add(tid)
    max_eng = max((len(v) for v in engines.values()), default=0)
    max_q = max((len(v) for v in queues.values()), default=0)
    if max_eng < opts.min_engines:
        err(f"{max_eng} engine tracks, want >= {opts.min_engines}")
    if max_q < opts.min_queues:
        err(f"{max_q} queue tracks, want >= {opts.min_queues}")
    if len(jobs) < opts.jobs:
        err(f"{len(jobs)} jobs, want >= {opts.jobs}")
    if npresents < opts.presents:
        err(f"{npresents} presents, want >= {opts.presents}")
    if opts.flows and not nflows:
        err("no dependency flow")
    npreempt = sum(1 for e in events if isinstance(e, dict)
                   and e.get("ph") == "i" and e.get("name") == "preempt")
    if opts.preempt:
        resumed = any(e.get("args", {}).get("preempted") for _, _, e in
                      (s for lst in slices.values() for s in lst))
        if not npreempt or not resumed:
            err("no preemption (preempt instant + preempted segment)")
    noverlap = 0
    if opts.overlap:
        for pid in engines:
            segs = sorted((ts, end, tid) for (p, tid), lst in slices.items()
                          if p == pid and tid < QUEUE_TID
                          for ts, end, _ in lst)
            for a, b in zip(segs, segs[1:]):
                if a[2] != b[2] and b[0] + EPS < a[1]:
                    noverlap += 1
        if not noverlap:
            err("no two engines ran at the same time")
    ndraws = 0
    for (pid, tid), lst in slices.items():
        if tid >= QUEUE_TID:
            continue
        for ts, end, ev in lst:
            if ev.get("cat") != "draw":
                continue
            ndraws += 1
            if ev["name"] not in DRAW_NAMES:
                err(f"draw slice {ev['name']!r} is not a draw packet")
            job = ev.get("args", {}).get("job")
            if not any(j.get("cat") == "job" and j["name"] == job and
                       jts <= ts + EPS and end <= jend + EPS
                       for jts, jend, j in lst):
                err(f"draw slice of job {job} at {ts} is not inside an "
                    f"engine slice of that job")
    if ndraws < opts.draws:
        err(f"{ndraws} draw slices, want >= {opts.draws}")
    stats = (f"{len(events)} events, {len(jobs)} jobs, {nflows} flows, "
             f"{npreempt} preemptions, {ndraws} draws, engines {max_eng}, "
             f"queues {max_q}, {npresents} presents")
    return errors, stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--min-engines", type=int, default=1)
    ap.add_argument("--min-queues", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--flows", action="store_true")
    ap.add_argument("--preempt", action="store_true")
    ap.add_argument("--overlap", action="store_true")
    ap.add_argument("--presents", type=int, default=0)
    ap.add_argument("--draws", type=int, default=0)
    opts = ap.parse_args()
    try:
        events = load(opts.trace)
    except (OSError, ValueError) as e:
        print(f"{opts.trace}: {e}")
        return 1
    errors, stats = check(events, opts)
    for e in errors[:50]:
        print(f"{opts.trace}: {e}")
    if len(errors) > 50:
        print(f"{opts.trace}: ... {len(errors) - 50} more")
    print(f"{opts.trace}: {'INVALID' if errors else 'ok'}: {stats}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
