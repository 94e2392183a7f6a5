#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/vkcube.sh [BUILD_DIR] [RUNS]
#
# vkcube frames per second on swgpu and on lavapipe, same window
# (500x500), IMMEDIATE present mode (no vblank pacing), on the current
# X display or a private Xvfb (scripts/with_display.sh) when none is set.
#
# Each run times vkcube --c 100 and --c 100+N (N = VKCUBE_FRAMES, default
# 1000) and takes the difference, so start-up (pipeline and texture
# creation, tens to hundreds of ms) and teardown fall out:
# fps = N / (t_long - t_short). The figure is the median of RUNS runs
# (default 3); the two drivers take turns run by run, and the median of
# the run-by-run ratios is printed too (the figure to trust on a busy
# machine). The last frame of each long run is kept
# (tests/vulkan/wsi_capture) and checked (scripts/check_vkcube.py: the
# cube is there and swgpu's frame is lavapipe's), so a fast wrong picture
# does not count. Output: one line per driver in swgpu_bench's format,
# then the ratio swgpu / lavapipe.
#
# BUILD_DIR defaults to build-bench (configure it Release for figures
# that mean something, see bench/README.md), else build.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-}
runs=${2:-3}
frames=${VKCUBE_FRAMES:-1000}
long=$((100 + frames))
if [ -z "$build" ]; then
  build=$root/build-bench
  [ -e "$build/tests/vulkan/wsi_capture" ] || build=$root/build
fi
build=$(cd "$build" && pwd)
if [ -z "${DISPLAY:-}" ] && [ -z "${VKCUBE_BENCH_INNER:-}" ]; then
  VKCUBE_BENCH_INNER=1 exec "$root/scripts/with_display.sh" xvfb "$0" \
    "$build" "$runs"
fi
swgpu=${SWGPU_MANIFEST:-$build/manifests/swgpu_icd.json}
lavapipe=${LAVAPIPE_MANIFEST:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}
capture=$build/tests/vulkan/wsi_capture
out=$build/vkcube-bench
mkdir -p "$out"
for f in "$swgpu" "$lavapipe" "$capture"; do
  if [ ! -e "$f" ]; then
    echo "vkcube.sh: $f missing (build wsi_capture and vulkan_swgpu)" >&2
    exit 1
  fi
done
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" \
  2>/dev/null || echo "vkcube.sh: warning: $build is not a Release build" >&2

now_ns() { date +%s%N; }

# One timed vkcube run: prints its wall time in ns.
cube() {  # MANIFEST FRAMES PNG
  t0=$(now_ns)
  VK_DRIVER_FILES=$1 "$capture" "$3" vkcube --c "$2" --present_mode 0 \
    --width 500 --height 500 --suppress_popups >/dev/null 2>&1 || return 1
  t1=$(now_ns)
  echo $((t1 - t0))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Run r of one driver: appends its fps to NAME.fps and prints it.
bench_run() {  # NAME MANIFEST R
  a=$(cube "$2" 100 "$out/$1-short.png") || return 1
  b=$(cube "$2" $long "$out/$1-long-$3.png") || return 1
  awk -v d=$((b - a)) -v n="$frames" \
    'BEGIN { printf "%.1f\n", n * 1e9 / d }' | tee -a "$out/$1.fps"
}

# The drivers take turns run by run (lavapipe, swgpu, lavapipe, ...), so
# a change in the machine's load hits both alike; each pair's ratio goes
# to ratio.txt and the median pair ratio is printed with the medians.
status=0
: >"$out/lavapipe.fps"
: >"$out/swgpu.fps"
: >"$out/ratio.txt"
for r in $(seq 1 "$runs"); do
  l=$(bench_run lavapipe "$lavapipe" "$r") ||
    { echo "vkcube.sh: lavapipe run failed" >&2; exit 1; }
  s=$(bench_run swgpu "$swgpu" "$r") ||
    { echo "vkcube.sh: swgpu run failed" >&2; exit 1; }
  awk -v s="$s" -v l="$l" 'BEGIN { printf "%.3f\n", s / l }' \
    >>"$out/ratio.txt"
done
lvp=$(median <"$out/lavapipe.fps")
sw=$(median <"$out/swgpu.fps")
refs=
for r in $(seq 1 "$runs"); do refs="$refs --ref $out/lavapipe-long-$r.png"; done
verified=yes
for r in $(seq 1 "$runs"); do
  # shellcheck disable=SC2086
  python3 "$root/scripts/check_vkcube.py" "$out/swgpu-long-$r.png" $refs \
    >"$out/check-$r.txt" || { verified=no; status=1; cat "$out/check-$r.txt"; }
done
for d in lavapipe swgpu; do
  v=$lvp; [ $d = swgpu ] && v=$sw
  echo "figure=vkcube_fps driver=$d value=$v unit=fps runs=$runs" \
       "all=$(tr '\n' ',' <"$out/$d.fps" | sed 's/,$//')" \
       "frames=$frames window=500x500 mode=immediate verified=$verified"
done
awk -v s="$sw" -v l="$lvp" -v p="$(median <"$out/ratio.txt")" \
  -v all="$(tr '\n' ',' <"$out/ratio.txt" | sed 's/,$//')" \
  'BEGIN { printf "vkcube fps: swgpu %.1f, lavapipe %.1f, ratio %.2fx; median of the run-by-run ratios %.2fx (%s) (target >= 1.0x, issue 19)\n", s, l, s / l, p, all }'
exit $status
