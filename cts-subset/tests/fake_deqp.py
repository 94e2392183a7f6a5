#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A stand-in for deqp-vk that tests cts-subset/run without the real CTS.

It takes the deqp-vk options the runner passes (--deqp-caselist-file=,
--deqp-log-filename=, others ignored) and writes a .qpa log in deqp-vk's
format (framework/qphelper/qpTestLog.c) with the outcome scripted by the
first word of each case's last name component:

  pass_*  fail_*  notsupported_*  qualitywarning_*   -> that <Result>
  crash_*   #beginTestCaseResult, then abort() (no #endTestCaseResult)
  hang_*    #beginTestCaseResult, then sleep for an hour
  terminate_*  #terminateTestCaseResult Crash, exit 1 (deqp-vk's own
            crash handler)
  anything else                                        -> Pass

It refuses to run (exit 3) unless VK_DRIVER_FILES names an existing file,
so the tests also check the runner points the loader at the ICD manifest.
Each launch appends its case list length to launches.log and the manifest
it was given to drivers.log, both in the cwd.
"""

import os
import sys
import time

STATUS = {"pass": "Pass", "fail": "Fail", "notsupported": "NotSupported",
	  "qualitywarning": "QualityWarning"}


def main():
	opts = {}
	for arg in sys.argv[1:]:
		if arg.startswith("--") and "=" in arg:
			k, v = arg[2:].split("=", 1)
			opts[k] = v
	drivers = os.environ.get("VK_DRIVER_FILES", "")
	if not drivers or not os.path.isfile(drivers):
		print("fake deqp-vk: VK_DRIVER_FILES not set to a manifest",
		      file=sys.stderr)
		return 3
	with open(opts["deqp-caselist-file"], encoding="utf-8") as f:
		cases = [c.strip() for c in f if c.strip()]
	with open("launches.log", "a", encoding="utf-8") as f:
		f.write("%d\n" % len(cases))
	with open("drivers.log", "a", encoding="utf-8") as f:
		f.write(drivers + "\n")
	out = open(opts.get("deqp-log-filename", "TestResults.qpa"), "w",
		   encoding="utf-8")
	out.write("#sessionInfo releaseName fake\n#beginSession\n")
	out.flush()
	for case in cases:
		kind = case.rsplit(".", 1)[-1].split("_", 1)[0]
		out.write("\n#beginTestCaseResult %s\n" % case)
		out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
			  '<TestCaseResult Version="0.3.4" CasePath="%s" '
			  'CaseType="SelfValidate">\n' % case)
		out.flush()
		if kind == "crash":
			os.abort()
		if kind == "terminate":
			out.write("\n#terminateTestCaseResult Crash\n")
			out.close()
			return 1
		if kind == "hang":
			time.sleep(3600)
		status = STATUS.get(kind, "Pass")
		out.write('<Result StatusCode="%s">%s</Result>\n'
			  '</TestCaseResult>\n\n#endTestCaseResult\n' %
			  (status, "fake " + status))
		out.flush()
	out.write("\n#endSession\n")
	out.close()
	return 0


if __name__ == "__main__":
	sys.exit(main())
