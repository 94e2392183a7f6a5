#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job (`make run`): real Vulkan programs on the swgpu driver,
# selected through the standard loader with the build-tree manifest.
set -euo pipefail
build=${1:-build}
build=$(cd "$build" && pwd)
manifest=$build/manifests/swgpu_icd.json

section() { printf '\n=== %s ===\n' "$*"; }

section "swgpu demo: the software GPU on its own (no Vulkan)"
"$build/swgpu/swgpu_demo"

if [ ! -f "$manifest" ]; then
  echo "swgpu: $manifest not built (configure with -DSWGPU_BUILD_ICD=ON)" >&2
  exit 1
fi
export VK_DRIVER_FILES=$manifest
# vulkaninfo reports a missing XDG_RUNTIME_DIR as an error (headless
# machines, CI); give it a private one.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

section "vulkaninfo --summary (VK_DRIVER_FILES=$manifest)"
vulkaninfo --summary

status=0
for sample in "$build"/samples/*; do
  [ -x "$sample" ] && [ -f "$sample" ] || continue
  section "sample: $(basename "$sample")"
  if ! "$sample"; then
    echo "swgpu: sample $(basename "$sample") FAILED" >&2
    status=1
  fi
done

# Presentation: vkcube (vulkan-tools) on swgpu in a window, its picture
# saved under $build/vkcube/ and checked (cube and texture in it, and the
# same as lavapipe's) by scripts/vkcube_check.sh. Without a DISPLAY, a
# private Xvfb; Wayland always on a private headless weston (its
# screenshots need weston --debug).
root=$(cd "$(dirname "$0")/.." && pwd)
present() {  # KIND DISPLAY-KIND TITLE
  section "presentation: vkcube on $3"
  local rc=0
  "$root/scripts/with_display.sh" "$2" \
    "$root/scripts/vkcube_check.sh" "$1" "$build" || rc=$?
  case $rc in
    0) echo "vkcube on swgpu: pictures in $build/vkcube/" ;;
    77) echo "skipped: $3 cannot run here (see above)" ;;
    *) echo "swgpu: vkcube on $3 FAILED" >&2; status=1 ;;
  esac
}
if [ -n "${DISPLAY:-}" ]; then
  present x11 none "X11 (DISPLAY=$DISPLAY)"
else
  present x11 xvfb "X11 (a private Xvfb)"
fi
present wayland weston "Wayland (a private headless weston)"

section "done"
if [ $status -eq 0 ]; then
  echo "every program ran on swgpu and verified its data"
fi
exit $status
