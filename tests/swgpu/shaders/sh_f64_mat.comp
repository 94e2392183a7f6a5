#version 450
// SPDX-License-Identifier: MIT
// Matrix operations on doubles (issue 23): transpose, matrix * matrix,
// matrix * vector, vector * matrix, matrix * scalar, outer product. The
// operands come from a buffer, so glslang cannot fold them.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer I { double a[18]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { double o[32]; };

void main()
{
	dmat2x3 A = dmat2x3(a[0], a[1], a[2], a[3], a[4], a[5]);
	dmat3x2 B = dmat3x2(a[6], a[7], a[8], a[9], a[10], a[11]);
	dvec3 v = dvec3(a[12], a[13], a[14]);
	dvec2 u = dvec2(a[15], a[16]);
	double s = a[17];
	dmat3x2 T = transpose(A);
	dmat3 AB = A * B;
	dvec3 Au = A * u;
	dvec2 vA = v * A;
	dmat2x3 As = A * s;
	dmat2x3 P = outerProduct(v, u);
	int k = 0;

	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 2; r++)
			o[k++] = T[c][r];
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++)
			o[k++] = AB[c][r];
	for (int r = 0; r < 3; r++)
		o[k++] = Au[r];
	for (int c = 0; c < 2; c++)
		o[k++] = vA[c];
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < 3; r++)
			o[k++] = As[c][r];
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < 3; r++)
			o[k++] = P[c][r];
}
