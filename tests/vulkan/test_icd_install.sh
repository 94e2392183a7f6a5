#!/bin/sh
# SPDX-License-Identifier: MIT
# test_icd_install: `cmake --install` puts the ICD and a manifest naming the
# installed library into <prefix>/share/vulkan/icd.d, and the Vulkan loader
# loads the driver through that manifest.
# Usage: test_icd_install.sh <cmake> <build dir> <datadir> <loader-iface test>
set -eu
cmake=$1
build=$2
datadir=$3
iface_test=$4
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

"$cmake" --install "$build" --prefix "$prefix" >/dev/null
manifest=$prefix/$datadir/vulkan/icd.d/swgpu_icd.json
[ -f "$manifest" ] || { echo "test_icd_install: no $manifest"; exit 1; }
lib=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$manifest")
case "$lib" in
"$prefix"/*) ;;
*) echo "test_icd_install: library_path $lib is not under $prefix"; exit 1 ;;
esac
[ -f "$lib" ] || { echo "test_icd_install: $lib not installed"; exit 1; }
grep -q '"api_version": "1\.3\.' "$manifest" ||
	{ echo "test_icd_install: api_version is not 1.3.x"; exit 1; }
# The installed library works as an ICD.
"$iface_test" "$lib" >/dev/null 2>&1 ||
	{ echo "test_icd_install: installed $lib fails the interface test"; exit 1; }
echo "test_icd_install: $manifest -> $lib"
