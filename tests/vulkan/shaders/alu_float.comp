#version 450
// SPDX-License-Identifier: MIT
// 32-bit float arithmetic and GLSL.std.450 functions, scalar. The host
// checks each against the precision Vulkan requires (correctly rounded,
// ULP bounds or absolute error), on normal finite inputs.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };

const uint K = 32u;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	float x = a[i], y = b[i];   // x in [-100, 100], y in [0.5, 50]
	uint base = i * K;
	float ang = x * 0.0314159;  // within [-pi, pi]

	o[base + 0u] = x + y;
	o[base + 1u] = x - y;
	o[base + 2u] = x * y;
	o[base + 3u] = x / y;
	o[base + 4u] = -x;
	o[base + 5u] = abs(x);
	o[base + 6u] = sign(x);
	o[base + 7u] = floor(x);
	o[base + 8u] = ceil(x);
	o[base + 9u] = fract(x);
	o[base + 10u] = trunc(x);
	o[base + 11u] = roundEven(x);
	o[base + 12u] = min(x, y);
	o[base + 13u] = max(x, y);
	o[base + 14u] = clamp(x, -y, y);
	o[base + 15u] = step(y, x);
	o[base + 16u] = sqrt(y);
	o[base + 17u] = inversesqrt(y);
	o[base + 18u] = exp2(y * 0.25);
	o[base + 19u] = log2(y);
	o[base + 20u] = exp(y * 0.1);
	o[base + 21u] = log(y);
	o[base + 22u] = pow(y, 1.5);
	o[base + 23u] = sin(ang);
	o[base + 24u] = cos(ang);
	o[base + 25u] = atan(x, y);
	o[base + 26u] = mix(x, y, 0.25);
	o[base + 27u] = fma(x, y, 1.0);
	o[base + 28u] = mod(x, y);
	o[base + 29u] = smoothstep(-50.0, 50.0, x);
	o[base + 30u] = radians(x);
	o[base + 31u] = tanh(ang);
}
