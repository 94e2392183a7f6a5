#version 450
// SPDX-License-Identifier: MIT
// determinant() and inverse() of double matrices (GLSL.std.450
// Determinant and MatrixInverse on doubles, issue 23). The operands come
// from a buffer, so glslang cannot fold them.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer I { double a[29]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { double o[32]; };

void main()
{
	dmat2 M2 = dmat2(a[0], a[1], a[2], a[3]);
	dmat3 M3 = dmat3(a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
	                 a[12]);
	dmat4 M4 = dmat4(a[13], a[14], a[15], a[16], a[17], a[18], a[19],
	                 a[20], a[21], a[22], a[23], a[24], a[25], a[26],
	                 a[27], a[28]);
	dmat2 I2 = inverse(M2);
	dmat3 I3 = inverse(M3);
	dmat4 I4 = inverse(M4);
	int k = 3;

	o[0] = determinant(M2);
	o[1] = determinant(M3);
	o[2] = determinant(M4);
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < 2; r++)
			o[k++] = I2[c][r];
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++)
			o[k++] = I3[c][r];
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++)
			o[k++] = I4[c][r];
}
