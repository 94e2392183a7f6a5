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

section "done"
if [ $status -eq 0 ]; then
  echo "every program ran on swgpu and verified its data"
fi
exit $status
