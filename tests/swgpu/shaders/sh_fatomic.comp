#version 450
// Float atomics (VK_EXT_shader_atomic_float / _float2): add, min, max and
// exchange on 32- and 64-bit floats in a storage buffer, in shared
// memory and through a buffer device address (64-bit integer atomics
// there too), and the shader clock (VK_KHR_shader_clock, subgroup and
// device scope).
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_buffer_reference : require
#extension GL_ARB_shader_clock : require
#extension GL_EXT_shader_realtime_clock : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B {
	float fsum, fmin, fmax, fxch;
	double dsum, dmin, dmax;
	float psum; uint pad;
	uint64_t pcount;
} b;
layout(set = 0, binding = 1) buffer O {
	float old[256];     // what each add of fsum returned
	float shared_sum[4];
	double shared_dsum[4];
	uvec2 clocks[256];  // device clock before, after
	uint sub_ok[256];
} o;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer P {
	float fsum, fmin, fmax, fxch;
	double dsum, dmin, dmax;
	float psum; uint pad;
	uint64_t pcount;
};
layout(push_constant) uniform PC { P p; } pc;
shared float s;
shared double sd;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	uvec2 t0 = clockRealtime2x32EXT();
	uvec2 s0 = clock2x32ARB();
	if (gl_LocalInvocationIndex == 0u) {
		s = 0.0;
		sd = 0.0lf;
	}
	barrier();
	o.old[i] = atomicAdd(b.fsum, 1.0);
	atomicMin(b.fmin, float(i) - 100.5);
	atomicMax(b.fmax, float(i) * 0.25);
	atomicExchange(b.fxch, float(i));
	atomicAdd(b.dsum, 0.5lf);
	atomicMin(b.dmin, double(i) + 0.25lf);
	atomicMax(b.dmax, double(i) * 2.0lf);
	atomicAdd(s, 2.0);
	atomicAdd(sd, 0.125lf);
	atomicAdd(pc.p.psum, 0.5);
	atomicAdd(pc.p.pcount, 1ul);
	barrier();
	if (gl_LocalInvocationIndex == 0u) {
		o.shared_sum[gl_WorkGroupID.x] = s;
		o.shared_dsum[gl_WorkGroupID.x] = sd;
	}
	uvec2 s1 = clock2x32ARB();
	uvec2 t1 = clockRealtime2x32EXT();
	o.clocks[i] = t0;
	uint64_t a = packUint2x32(s0), c = packUint2x32(s1);
	uint64_t d0 = packUint2x32(t0), d1 = packUint2x32(t1);
	o.sub_ok[i] = (c >= a ? 1u : 0u) | (d1 >= d0 ? 2u : 0u);
}
