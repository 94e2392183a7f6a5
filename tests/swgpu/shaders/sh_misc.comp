#version 450
// Spec constants, local size from a spec constant, matrices, composites,
// private arrays with dynamic indexing, structs, uniform buffer.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int SCALE = 3;
layout(constant_id = 2) const bool FLIP = false;
struct S { vec2 p; int k; };
layout(set = 0, binding = 0) writeonly buffer O { float o[]; };
layout(set = 0, binding = 1) readonly buffer M { mat4 m; vec4 v; S s[4]; } mb;
void main()
{
	uint i = gl_GlobalInvocationID.x;
	uint k = i * 16u;
	vec4 r = mb.m * mb.v;
	o[k + 0] = r.x; o[k + 1] = r.y; o[k + 2] = r.z; o[k + 3] = r.w;
	vec4 q = mb.v * mb.m;
	o[k + 4] = q.w;
	float arr[8];
	for (int j = 0; j < 8; j++)
		arr[j] = float(j * SCALE) + float(i);
	o[k + 5] = arr[i % 8u];
	S s = mb.s[i % 4u];
	o[k + 6] = s.p.y + float(s.k);
	vec3 c = cross(vec3(1.0, 2.0, 3.0), vec3(float(i), 1.0, 0.0));
	o[k + 7] = c.x + c.y * 10.0 + c.z * 100.0;
	vec4 sw = mb.v.wzyx;
	o[k + 8] = sw.x - sw.w;
	o[k + 9] = FLIP ? -1.0 : 1.0;
	o[k + 10] = float(gl_WorkGroupSize.x);
	mat2 t = transpose(mat2(1.0, 2.0, 3.0, 4.0));
	o[k + 11] = t[0][1];
	vec4 dv = mb.v;
	dv[i % 4u] = 100.0;
	o[k + 12] = dv[(i + 1u) % 4u] + dv[i % 4u];
	o[k + 13] = float(gl_NumWorkGroups.x * 1000u + gl_WorkGroupID.x);
	o[k + 14] = float(gl_LocalInvocationIndex);
	o[k + 15] = reflect(vec2(1.0, -1.0), vec2(0.0, 1.0)).y;
}
