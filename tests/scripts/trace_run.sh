#!/bin/sh
# SPDX-License-Identifier: MIT
# trace_run.sh TRACE.json "CHECKER OPTIONS" PROGRAM [ARGS...]
# Runs PROGRAM with SWGPU_TRACE=TRACE.json, then checks the trace.
set -eu
trace=$1; opts=$2; shift 2
rm -f "$trace"
SWGPU_TRACE=$trace "$@" >/dev/null
# shellcheck disable=SC2086  # opts is a word list on purpose
exec python3 "$(dirname "$0")/check_trace.py" "$trace" $opts
