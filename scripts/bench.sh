#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark swgpu against Mesa's lavapipe and host memcpy in one run and
# print the side-by-side table (docs/PERFORMANCE.md explains the figures).
#
#   scripts/bench.sh [BUILD_DIR] [swgpu_bench options...]
#
# BUILD_DIR defaults to build-bench; configure it Release for real figures:
#   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-bench --target swgpu_bench vulkan_swgpu
# SWGPU_MANIFEST / LAVAPIPE_MANIFEST override the two drivers' manifests.
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

for f in "$bench" "$swgpu"; do
  if [ ! -e "$f" ]; then
    echo "bench.sh: $f not built (see the header of $0)" >&2
    exit 1
  fi
done
if [ ! -e "$lavapipe" ]; then
  echo "bench.sh: no lavapipe ($lavapipe): apt-get install mesa-vulkan-drivers" >&2
  exit 1
fi
if ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" \
     2>/dev/null; then
  echo "bench.sh: warning: $build is not a Release build" >&2
fi

# Busy share of all CPUs over one second, from /proc/stat (percent).
busy_pct() {
  local a b
  a=($(head -1 /proc/stat)); sleep 1; b=($(head -1 /proc/stat))
  local total=0 idle i
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  idle=$((b[4] - a[4] + b[5] - a[5]))
  echo $(( total > 0 ? 100 * (total - idle) / total : 0 ))
}

# BENCH_QUIET_WAIT=S: wait up to S seconds for a second with the machine
# under 10 % busy (other builds distort every figure on 2 cores).
busy=$(busy_pct)
if [ -n "${BENCH_QUIET_WAIT:-}" ]; then
  end=$((SECONDS + BENCH_QUIET_WAIT))
  while [ "$busy" -ge 10 ] && [ $SECONDS -lt $end ]; do
    busy=$(busy_pct)
  done
fi

echo "# swgpu_bench $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n)," \
     "$(nproc) CPUs: $(lscpu | sed -n 's/^Model name: *//p')"
echo "# machine before the run: ${busy}% busy, load $(cut -d' ' -f1-3 /proc/loadavg)"
exec "$bench" --driver-files "$swgpu" --driver-files "$lavapipe" "$@"
