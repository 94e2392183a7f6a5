#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian packages swgpu needs, once. Quiet when all are present.
# As root it runs apt-get itself; otherwise it prints the command to run.
set -euo pipefail

packages=(
  cmake ninja-build gcc clang python3 pkg-config
  libcmocka-dev                     # unit test framework
  libvulkan-dev                     # Vulkan headers, loader, vk.xml
  vulkan-validationlayers           # Khronos validation layer for tests
  vulkan-tools                      # vulkaninfo
  glslang-tools spirv-headers       # shaders (samples, compute engine)
  spirv-tools                       # spirv-link (a two-entry-point test module)
  mesa-vulkan-drivers               # lavapipe: the reference driver
  libclang-rt-14-dev                # sanitizer runtimes for clang builds
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "swgpu: missing Debian packages: ${missing[*]}" >&2
  echo "swgpu: run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "swgpu: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
