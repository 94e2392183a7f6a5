#!/bin/sh
# SPDX-License-Identifier: MIT
# test_icd_wsi_deps.sh ICD.so TEST_VK_WSI
#
# The window-system libraries are optional at run time: the ICD must not
# need them to load (no DT_NEEDED on libxcb*, libX11*, libwayland*), and
# a program that presents to a headless surface and does GPU work must
# not make the ICD load any of them (LD_DEBUG=files lists every library
# the ICD dlopens). On a machine without X or Wayland the driver thus
# loads and runs compute and offscreen work as before.
set -eu
icd=$1; test_prog=$2
if readelf -d "$icd" | grep NEEDED | grep -E 'xcb|X11|wayland'; then
  echo "FAIL: $icd links window-system libraries" >&2
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
WSI_TEST_PLATFORM=headless LD_DEBUG=files "$test_prog" present_modes \
  >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
if grep -E 'file=lib(xcb|X11|wayland)[^ ]* .*dynamically loaded by .*vulkan_swgpu' "$log"; then
  echo "FAIL: a headless present made the ICD load window-system libraries" >&2
  exit 1
fi
echo "ok: no window-system library linked or loaded for headless work"
