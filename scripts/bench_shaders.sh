#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 19's comparison in one run: swgpu with compiled shaders
# (SWGPU_SHADER=jit), swgpu interpreting (SWGPU_SHADER=interp) and Mesa's
# lavapipe, every figure as a ratio to lavapipe (swgpu_bench --ref 3),
# then vkcube frames per second under jit against lavapipe.
#
#   scripts/bench_shaders.sh [BUILD_DIR] [swgpu_bench options...]
#
# Default figures: --only compute,gfx (give --only to change them);
# BENCH_VKCUBE_RUNS=N vkcube runs (default 3, 0 skips vkcube, which also
# needs the wsi_capture target built). The machine's load is printed
# before and after each part: on a shared machine, say it with the
# figures. SWGPU_MANIFEST / LAVAPIPE_MANIFEST as for scripts/bench.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=build-bench
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  build=$1
  shift
fi
case $build in /*) ;; *) build=$root/$build ;; esac
bench=$build/bench/swgpu_bench
swgpu=${SWGPU_MANIFEST:-$build/manifests/swgpu_icd.json}
lavapipe=${LAVAPIPE_MANIFEST:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}
for f in "$bench" "$swgpu" "$lavapipe"; do
  if [ ! -e "$f" ]; then
    echo "bench_shaders.sh: $f missing (see scripts/bench.sh)" >&2
    exit 1
  fi
done
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" \
  2>/dev/null || echo "bench_shaders.sh: warning: $build is not a Release build" >&2

only=(--only compute,gfx)
for a in "$@"; do [ "$a" = --only ] && only=(); done
load() { echo "# $(date -u '+%H:%M:%S UTC') load $(cut -d' ' -f1-3 /proc/loadavg)"; }

echo "# swgpu_bench jit / interp / lavapipe, $(date -u '+%Y-%m-%d'), $(nproc) CPUs," \
     "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
load
status=0
"$bench" "${only[@]}" \
  --driver-files "$swgpu" --driver-env SWGPU_SHADER=jit \
  --driver-files "$swgpu" --driver-env SWGPU_SHADER=interp \
  --driver-files "$lavapipe" --ref 3 "$@" || status=1
load
runs=${BENCH_VKCUBE_RUNS:-3}
if [ "$runs" -gt 0 ]; then
  echo "# vkcube, swgpu with SWGPU_SHADER=jit against lavapipe"
  SWGPU_SHADER=jit SWGPU_MANIFEST=$swgpu LAVAPIPE_MANIFEST=$lavapipe \
    "$root/bench/vkcube.sh" "$build" "$runs" || status=1
  load
fi
exit $status
