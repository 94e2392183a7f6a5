#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian packages swgpu needs, once. Quiet when all are present.
# As root it runs apt-get itself; otherwise it prints the command to run.
set -euo pipefail

packages=(
  cmake ninja-build gcc clang python3 pkg-config
  libcmocka-dev                     # unit test framework
  libpng-dev                        # PNGs of rendered images (samples, tests)
  libvulkan-dev                     # Vulkan headers, loader, vk.xml
  vulkan-validationlayers           # Khronos validation layer for tests
  vulkan-tools                      # vulkaninfo
  glslang-tools spirv-headers       # shaders (samples, compute engine)
  spirv-tools                       # spirv-link (two-entry-point test module), spirv-as/-val (hand-written SPIR-V tests)
  mesa-vulkan-drivers               # lavapipe: the reference driver
  libclang-rt-14-dev                # sanitizer runtimes for clang builds
  llvm-15-dev                       # the shader compiler (LLVM 15, as lavapipe; optional: without it shaders are interpreted)
  # Presentation: headers to build the ICD's window-system code (the
  # libraries themselves are dlopen'ed at run time, never linked), test
  # windows and screenshots, and the virtual displays of tests and make run
  libxcb1-dev libxcb-shm0-dev libxcb-composite0-dev libx11-dev libx11-xcb-dev
  libwayland-dev libwayland-bin wayland-protocols
  xvfb weston                       # virtual X display, headless compositor
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
