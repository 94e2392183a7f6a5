#!/bin/sh
# SPDX-License-Identifier: MIT
# vkcube_check.sh x11|wayland BUILD_DIR [FRAMES]
#
# Runs Debian's vkcube on swgpu for FRAMES frames (default 120) on the
# current display (DISPLAY, or WAYLAND_DISPLAY of a weston started with
# --debug, as scripts/with_display.sh does), saves what it showed as
# BUILD_DIR/vkcube/vkcube-<x11|wayland>.swgpu.png and checks it with
# scripts/check_vkcube.py: the cube and its texture are in it and, when
# lavapipe is installed, it matches lavapipe's picture of the same.
#
# X11: tests/vulkan/wsi_capture keeps the window's last frame, frame
# FRAMES exactly, so the two drivers' pictures are compared pixel by
# pixel (lavapipe at FRAMES and FRAMES+1: lavapipe 22.3 sometimes drops
# the last present when vkcube tears down its swapchain).
# Wayland: weston-screenshooter photographs the screen while vkcube runs
# (a frame count cannot be caught there); both drivers' pictures are
# checked for the cube, not compared.
set -u
kind=$1; build=$(cd "$2" && pwd); frames=${3:-120}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$build/vkcube
swgpu=$build/manifests/swgpu_icd.json
lavapipe=${LAVAPIPE_MANIFEST:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}
check="python3 $root/scripts/check_vkcube.py"
mkdir -p "$out"
rm -f "$out"/vkcube-"$kind".*.png

if ! command -v vkcube >/dev/null; then
  echo "vkcube_check: vkcube is not installed (Debian package vulkan-tools)" >&2
  exit 77
fi

x11_capture() {  # DRIVER_MANIFEST FRAMES OUT.png
  VK_DRIVER_FILES=$1 "$build/tests/vulkan/wsi_capture" "$3" \
    vkcube --c "$2" --suppress_popups >"$out/vkcube-x11.log" 2>&1
}

# Screenshots of weston's whole screen while vkcube-wayland runs on
# DRIVER, until one shows the cube (at most 20 tries, a second apart).
wayland_capture() {  # DRIVER_MANIFEST OUT.png
  tmp=$(mktemp -d)
  VK_DRIVER_FILES=$1 vkcube-wayland --c 100000 >"$out/vkcube-wayland.log" 2>&1 &
  cube=$!
  ok=1
  for i in $(seq 1 20); do
    sleep 1
    (cd "$tmp" && timeout 10 weston-screenshooter >/dev/null 2>&1)
    png=$(ls "$tmp"/*.png 2>/dev/null | head -n 1)
    [ -n "$png" ] || continue
    mv "$png" "$2"
    if $check --crop "$2" >/dev/null; then ok=0; break; fi
  done
  kill "$cube" 2>/dev/null
  wait "$cube" 2>/dev/null
  rm -rf "$tmp"
  return $ok
}

status=0
case $kind in
x11)
  shot=$out/vkcube-x11.swgpu.png
  if ! x11_capture "$swgpu" "$frames" "$shot"; then
    echo "vkcube_check: vkcube on swgpu failed:" >&2
    cat "$out/vkcube-x11.log" >&2
    exit 1
  fi
  refs=
  # lavapipe's frame FRAMES: under load Mesa's X11 presentation drops
  # the last one or two presents of a FIFO swapchain at exit (its run of
  # 120 frames then shows frame 119 or 118; seen in make run with load
  # 8), so runs of a few more frames are references too.
  if [ -e "$lavapipe" ]; then
    for n in $((frames - 1)) "$frames" $((frames + 1)) $((frames + 2)) \
             $((frames + 3)); do
      ref=$out/vkcube-x11.lavapipe-$n.png
      if x11_capture "$lavapipe" "$n" "$ref"; then
        refs="$refs --ref $ref"
      fi
    done
  fi
  # shellcheck disable=SC2086
  $check "$shot" $refs || status=1
  ;;
wayland)
  if ! command -v vkcube-wayland >/dev/null || \
     ! command -v weston-screenshooter >/dev/null; then
    echo "vkcube_check: vkcube-wayland or weston-screenshooter missing" >&2
    exit 77
  fi
  shot=$out/vkcube-wayland.swgpu.png
  wayland_capture "$swgpu" "$shot" || status=1
  $check --crop "$shot" || status=1
  if [ -e "$lavapipe" ]; then
    ref=$out/vkcube-wayland.lavapipe.png
    wayland_capture "$lavapipe" "$ref" && $check --crop "$ref"
  fi
  ;;
*)
  echo "vkcube_check: unknown kind '$kind'" >&2
  exit 2
  ;;
esac
exit $status
