#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests cts-subset/run against tests/fake_deqp.py (no real CTS needed).

Checks: counts per status, a new deqp-vk process resumes after a crash and
after a timeout, the timeout is enforced (a hanging case costs about
--timeout, not an hour), results.csv contents, the baseline comparison exit
codes (regression -> 1, known failure now passing -> 1, changed failure ->
1, matching baseline -> 0), and no --deqp -> exit 0 with the message.
"""

import csv
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(os.path.dirname(HERE), "run")
FAKE = os.path.join(HERE, "fake_deqp.py")
TIMEOUT = 2.0

CASES = """\
dEQP-VK.api.alpha.pass_1
dEQP-VK.api.alpha.fail_1
dEQP-VK.api.alpha.crash_1
dEQP-VK.api.alpha.pass_2
dEQP-VK.api.beta.notsupported_1
dEQP-VK.api.beta.hang_1
dEQP-VK.api.beta.pass_3
dEQP-VK.memory.gamma.qualitywarning_1
dEQP-VK.memory.gamma.x.pass_4
dEQP-VK.info.pass_5
"""

BASELINE_MATCH = """\
# test baseline
dEQP-VK.api.alpha.fail_1 Fail fake failure
dEQP-VK.api.alpha.crash_1 Crash fake crash
dEQP-VK.api.beta.notsupported_* NotSupported fake feature not offered
dEQP-VK.api.beta.hang_1 Timeout fake hang
dEQP-VK.memory.gamma.qualitywarning_1 QualityWarning fake warning
"""

failures = []


def check(cond, what):
	print(("ok   " if cond else "FAIL ") + what)
	if not cond:
		failures.append(what)


def run(tmp, name, baseline, extra=()):
	out = os.path.join(tmp, name)
	bl = os.path.join(tmp, name + ".baseline")
	with open(bl, "w") as f:
		f.write(baseline)
	cmd = [sys.executable, RUN, "--deqp", FAKE, "--build",
	       os.path.join(tmp, "build"), "--caselist",
	       os.path.join(tmp, "list.txt"), "--timeout", str(TIMEOUT),
	       "--jobs", "2", "--out", out, "--baseline", bl] + list(extra)
	t0 = time.monotonic()
	p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
	return p, out, time.monotonic() - t0


def main():
	with tempfile.TemporaryDirectory(prefix="cts-runner-test-") as tmp:
		os.makedirs(os.path.join(tmp, "build", "manifests"))
		with open(os.path.join(tmp, "build", "manifests",
				       "swgpu_icd.json"), "w") as f:
			f.write("{}\n")
		with open(os.path.join(tmp, "list.txt"), "w") as f:
			f.write(CASES)

		# 1. No --deqp: message, exit 0.
		p = subprocess.run([sys.executable, RUN],
				   capture_output=True, text=True)
		check(p.returncode == 0, "no --deqp exits 0")
		check("CTS (deqp-vk) is not available" in p.stdout and
		      "--deqp" in p.stdout, "no --deqp explains how")

		# 2. Baseline that matches every non-pass: exit 0.
		p, out, secs = run(tmp, "match", BASELINE_MATCH)
		print(p.stdout + p.stderr)
		check(p.returncode == 0, "matching baseline exits 0 (got %d)"
		      % p.returncode)
		with open(os.path.join(out, "results.csv")) as f:
			rows = list(csv.DictReader(f))
		got = {r["case"]: r["status"] for r in rows}
		check(len(rows) == 10 and
		      [r["case"] for r in rows] == CASES.split(),
		      "results.csv has every case once, in list order")
		want = {c: {"pass": "Pass", "fail": "Fail",
			    "crash": "Crash", "hang": "Timeout",
			    "notsupported": "NotSupported",
			    "qualitywarning": "QualityWarning"}[
				c.rsplit(".", 1)[1].split("_")[0]]
			for c in CASES.split()}
		check(got == want, "per-case statuses: %s" % got)
		counts = {}
		for s in got.values():
			counts[s] = counts.get(s, 0) + 1
		check(counts == {"Pass": 5, "Fail": 1, "Crash": 1,
				 "Timeout": 1, "NotSupported": 1,
				 "QualityWarning": 1},
		      "counts per status %s" % counts)
		groups = {r["case"]: r["group"] for r in rows}
		check(groups["dEQP-VK.memory.gamma.x.pass_4"] ==
		      "memory.gamma" and
		      groups["dEQP-VK.info.pass_5"] == "info",
		      "group column")
		# Chunk 0 = alpha.* + beta.notsupported_1 (crash at case 3),
		# chunk 1 = beta.hang_1 onwards.  Resuming means cases after
		# the crash and after the hang still ran in new processes.
		check(got["dEQP-VK.api.alpha.pass_2"] == "Pass",
		      "case after the crash ran (resume after crash)")
		check(got["dEQP-VK.api.beta.pass_3"] == "Pass",
		      "case after the hang ran (resume after timeout)")
		with open(os.path.join(out, "launches.log")) as f:
			launches = sorted(int(x) for x in f.read().split())
		check(launches == [2, 4, 5, 5],
		      "deqp-vk relaunched with the remaining cases %s" %
		      launches)
		timeout_row = [r for r in rows if r["status"] == "Timeout"][0]
		check(TIMEOUT <= float(timeout_row["seconds"]) < TIMEOUT + 3,
		      "timeout enforced (%s s)" % timeout_row["seconds"])
		check(secs < 30, "whole run bounded (%.1fs)" % secs)
		with open(os.path.join(out, "summary.txt")) as f:
			summary = f.read()
		check("api.alpha" in summary and "QualityWarning" in summary
		      and "total" in summary, "summary table written")
		check("total                                  10     5     1"
		      in summary, "summary totals line")

		# 3. No baseline entries: every non-pass is a regression.
		p, _, _ = run(tmp, "empty", "")
		check(p.returncode == 1, "regressions exit 1")
		check(p.stdout.count("REGRESSION ") == 5,
		      "5 regressions reported")

		# 4. A known failure that now passes: unexplained, exit 1.
		p, _, _ = run(tmp, "stale", BASELINE_MATCH +
			      "dEQP-VK.info.pass_5 Fail used to fail\n")
		check(p.returncode == 1, "known failure now passing exits 1")
		check("dEQP-VK.info.pass_5: now passes" in p.stdout and
		      "remove it from the baseline" in p.stdout,
		      "unexplained pass message")

		# 5. A known failure that changed status: exit 1.
		changed = BASELINE_MATCH.replace(
			"alpha.fail_1 Fail", "alpha.fail_1 Crash")
		p, _, _ = run(tmp, "changed", changed)
		check(p.returncode == 1 and "UNEXPLAINED" in p.stdout,
		      "changed failure status exits 1")

		# 6. deqp-vk's own crash handler (#terminateTestCaseResult,
		# then exit 1): that case gets the reported status, the next
		# case is not blamed and runs in a new process.
		with open(os.path.join(tmp, "list.txt"), "w") as f:
			f.write("dEQP-VK.t.g.pass_1\ndEQP-VK.t.g.terminate_1\n"
				"dEQP-VK.t.g.pass_2\n")
		p, out, _ = run(tmp, "term", "dEQP-VK.t.g.terminate_1 Crash "
				"fake crash handler\n", ["--jobs", "1"])
		with open(os.path.join(out, "results.csv")) as f:
			got = [(r["case"], r["status"], r["details"])
			       for r in csv.DictReader(f)]
		check(p.returncode == 0 and [g[1] for g in got] ==
		      ["Pass", "Crash", "Pass"] and
		      got[1][2] == "terminated by deqp-vk",
		      "#terminateTestCaseResult handled: %s" % got)
		with open(os.path.join(out, "launches.log")) as f:
			check(f.read().split() == ["3", "1"],
			      "relaunched once after terminate")

		# 7. Malformed baseline / missing manifest: exit 2.
		p, _, _ = run(tmp, "bad", "dEQP-VK.api.alpha.fail_1 Fail\n")
		check(p.returncode == 2, "baseline line without reason -> 2")
		p = subprocess.run([sys.executable, RUN, "--deqp", FAKE,
				    "--build", os.path.join(tmp, "nope"),
				    "--tier", "1"],
				   capture_output=True, text=True)
		check(p.returncode == 2 and "manifest" in p.stderr,
		      "missing ICD manifest -> 2")

		# 8. --icd: another driver's manifest (e.g. lavapipe) is
		# what the loader gets, even without a swgpu build tree.
		other = os.path.join(tmp, "other_icd.json")
		with open(other, "w") as f:
			f.write("{}\n")
		with open(os.path.join(tmp, "list.txt"), "w") as f:
			f.write("dEQP-VK.t.g.pass_1\n")
		out = os.path.join(tmp, "icd")
		p = subprocess.run([sys.executable, RUN, "--deqp", FAKE,
				    "--build", os.path.join(tmp, "nope"),
				    "--icd", other, "--caselist",
				    os.path.join(tmp, "list.txt"), "--out", out,
				    "--baseline", os.path.join(tmp,
							       "match.baseline")],
				   capture_output=True, text=True, timeout=60)
		with open(os.path.join(out, "drivers.log")) as f:
			drivers = f.read().split()
		check(p.returncode == 0 and drivers == [other],
		      "--icd manifest passed to the loader: %s" % drivers)
		p = subprocess.run([sys.executable, RUN, "--deqp", FAKE,
				    "--icd", os.path.join(tmp, "no.json"),
				    "--tier", "1"],
				   capture_output=True, text=True)
		check(p.returncode == 2 and "no.json" in p.stderr,
		      "missing --icd manifest -> 2")

		# 9. An --out used before: a log of the earlier run must not
		# be read as this run's (deqp-vk truncates it only once it
		# has started).
		out = os.path.join(tmp, "again")
		os.makedirs(out)
		with open(os.path.join(out, "w0-1.qpa"), "w") as f:
			f.write("#beginTestCaseResult dEQP-VK.t.g.pass_1\n"
				'<Result StatusCode="Fail">stale</Result>\n'
				"#endTestCaseResult\n")
		p = subprocess.run([sys.executable, RUN, "--deqp", FAKE,
				    "--build", os.path.join(tmp, "build"),
				    "--caselist", os.path.join(tmp, "list.txt"),
				    "--jobs", "1", "--out", out, "--baseline",
				    os.path.join(tmp, "match.baseline")],
				   capture_output=True, text=True, timeout=60)
		with open(os.path.join(out, "results.csv")) as f:
			got = [r["status"] for r in csv.DictReader(f)]
		check(p.returncode == 0 and got == ["Pass"],
		      "stale log of an earlier run ignored: %s" % got)

	if failures:
		print("%d checks failed" % len(failures))
		return 1
	print("all checks passed")
	return 0


if __name__ == "__main__":
	sys.exit(main())
