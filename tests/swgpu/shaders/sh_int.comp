#version 450
// Integer ops: 16 results per invocation from inputs a[i], b[i].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int o[]; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	int x = a[i], y = b[i];
	uint ux = uint(x), uy = uint(y);
	uint k = i * 24u;
	o[k + 0] = x + y;
	o[k + 1] = x - y;
	o[k + 2] = x * y;
	o[k + 3] = x / y;
	o[k + 4] = int(ux / uy);
	o[k + 5] = x % y;
	o[k + 6] = int(ux % uy);
	o[k + 7] = x << (y & 31);
	o[k + 8] = x >> (y & 31);
	o[k + 9] = int(ux >> (uy & 31u));
	o[k + 10] = x & y;
	o[k + 11] = x | y;
	o[k + 12] = x ^ y;
	o[k + 13] = ~x;
	o[k + 14] = -x;
	o[k + 15] = min(x, y) + max(x, y) * 3;
	o[k + 16] = int(min(ux, uy) ^ max(ux, uy));
	o[k + 17] = abs(x) + sign(y);
	o[k + 18] = clamp(x, -100, 100);
	o[k + 19] = bitfieldExtract(x, 3, 9) + bitfieldInsert(x, y, 5, 7);
	o[k + 20] = bitCount(x) + findLSB(y) * 64 + findMSB(x) * 4096;
	o[k + 21] = int(bitfieldReverse(ux));
	o[k + 22] = int(x < y) + 2 * int(ux < uy) + 4 * int(x == y) + 8 * int(x >= y);
	o[k + 23] = int(bitfieldExtract(ux, 4, 12)) + findMSB(ux) * 100000;
}
