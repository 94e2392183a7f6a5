#version 450
// SPDX-License-Identifier: MIT
// Float controls (VK_KHR_shader_float_controls): DenormPreserve,
// SignedZeroInfNanPreserve and RoundingModeRTE on 32-bit floats (types_fctl64.comp: 64-bit).
// Denormals survive arithmetic, -0.0 keeps its sign, inf and NaN
// propagate, ties round to even.
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"],
                     capabilities = [4464], 4459, 32); // DenormPreserve
spirv_execution_mode(capabilities = [4466], 4461, 32); // SignedZeroInfNanPreserve
spirv_execution_mode(capabilities = [4467], 4462, 32); // RoundingModeRTE
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) buffer F { float f[]; };

void main()
{
	// inputs: f[0] a denormal, f[1] -0.0, f[2] +inf, f[3] 1.0,
	// f[4] 2^-24 (half an ulp of 1.0)
	f[8] = f[0] * f[3];
	f[9] = f[0] + f[0];
	f[10] = f[1] + f[1];
	f[11] = f[2] - f[2];        // NaN
	f[12] = f[3] + f[4];        // tie: rounds to even (1.0)
	f[13] = f[1] * f[3];        // -0.0
}
