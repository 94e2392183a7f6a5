#version 450
// Float ops and GLSL.std.450 over a[i], b[i]: 32 results each.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(set = 0, binding = 3) writeonly buffer U { uint u[]; };
void main()
{
	uint i = gl_GlobalInvocationID.x;
	float x = a[i], y = b[i];
	uint k = i * 32u;
	o[k + 0] = x + y;
	o[k + 1] = x - y;
	o[k + 2] = x * y;
	o[k + 3] = x / y;
	o[k + 4] = mod(x, y);
	o[k + 5] = min(x, y);
	o[k + 6] = max(x, y);
	o[k + 7] = clamp(x, -1.0, 1.0);
	o[k + 8] = mix(x, y, 0.25);
	o[k + 9] = step(x, y);
	o[k + 10] = smoothstep(-2.0, 2.0, x);
	o[k + 11] = sqrt(abs(x));
	o[k + 12] = inversesqrt(abs(x) + 1.0);
	o[k + 13] = pow(abs(x) + 0.5, 1.5);
	o[k + 14] = exp(clamp(x, -10.0, 10.0));
	o[k + 15] = log(abs(x) + 1.0);
	o[k + 16] = exp2(clamp(y, -10.0, 10.0));
	o[k + 17] = log2(abs(y) + 1.0);
	o[k + 18] = sin(x) + cos(y);
	o[k + 19] = tan(clamp(x, -1.0, 1.0));
	o[k + 20] = atan(x, y);
	o[k + 21] = floor(x) + ceil(y) * 10.0;
	o[k + 22] = fract(x);
	o[k + 23] = round(x) + roundEven(y) * 100.0;
	o[k + 24] = trunc(x) + sign(y) * 10.0;
	o[k + 25] = fma(x, y, 1.0);
	o[k + 26] = float(int(x)) + float(uint(abs(y))) * 1000.0;
	o[k + 27] = asin(clamp(x, -1.0, 1.0)) + acos(clamp(y, -1.0, 1.0));
	o[k + 28] = length(vec3(x, y, 1.0));
	o[k + 29] = dot(vec2(x, y), vec2(y, x));
	o[k + 30] = distance(vec2(x, 0.0), vec2(0.0, y));
	o[k + 31] = normalize(vec2(x, 1.0)).y;
	u[i * 4u + 0] = packHalf2x16(vec2(x, y));
	u[i * 4u + 1] = packUnorm4x8(vec4(x, y, 0.5, -1.0));
	u[i * 4u + 2] = uint(isnan(x / y)) + 2u * uint(isinf(x / y)) + 4u * uint(x != x);
	u[i * 4u + 3] = floatBitsToUint(unpackHalf2x16(packHalf2x16(vec2(x, y))).y);
}
