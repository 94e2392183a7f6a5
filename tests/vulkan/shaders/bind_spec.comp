#version 450
// SPDX-License-Identifier: MIT
// Specialization constants: the workgroup size, int/float/bool/uint
// constants, one left at its default, a derived constant expression and
// a shared array sized by one.
layout(local_size_x_id = 0) in;

layout(constant_id = 1) const int SI = -5;
layout(constant_id = 2) const float SF = 1.5;
layout(constant_id = 3) const bool SB = false;
layout(constant_id = 4) const uint SU = 7u;
const uint DERIVED = SU * 2u + uint(SI);

layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };

shared uint sh[gl_WorkGroupSize.x];

void main()
{
	uint l = gl_LocalInvocationID.x;
	uint i = gl_GlobalInvocationID.x;

	sh[l] = l * 3u;
	barrier();
	o[i * 6u + 0u] = gl_WorkGroupSize.x;
	o[i * 6u + 1u] = uint(SI + int(i));
	o[i * 6u + 2u] = floatBitsToUint(SF);
	o[i * 6u + 3u] = SB ? DERIVED : 0xdeadu;
	o[i * 6u + 4u] = sh[gl_WorkGroupSize.x - 1u - l];
	o[i * 6u + 5u] = SU;
}
