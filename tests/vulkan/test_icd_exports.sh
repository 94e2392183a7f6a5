#!/bin/sh
# SPDX-License-Identifier: MIT
# test_icd_exports: the ICD's dynamic symbol table holds exactly the three
# loader entry points (LoaderDriverInterface.md); anything else could be
# bound by the loader or clash with the application or another driver.
# Usage: test_icd_exports.sh <path to libvulkan_swgpu.so> [nm]
set -eu
lib=$1
nm=${2:-nm}
expected="vk_icdGetInstanceProcAddr
vk_icdGetPhysicalDeviceProcAddr
vk_icdNegotiateLoaderICDInterfaceVersion"

[ -f "$lib" ] || { echo "test_icd_exports: $lib not found"; exit 1; }
actual=$("$nm" -D --defined-only "$lib" | awk '{ print $NF }' | LC_ALL=C sort)
if [ "$actual" != "$expected" ]; then
	echo "test_icd_exports: FAILED, exported symbols are:"
	echo "$actual"
	echo "expected exactly:"
	echo "$expected"
	exit 1
fi
echo "test_icd_exports: exactly the 3 loader entry points are exported"
