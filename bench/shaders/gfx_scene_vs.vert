#version 450
// SPDX-License-Identifier: MIT
// The textured scene: instance 0 is the ground (a quad), instances 1..n
// cubes on a grid, rotated by their index; one view-projection matrix.
layout(push_constant) uniform PC {
	mat4 vp;
	int grid;
} pc;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;

void main()
{
	int i = gl_InstanceIndex - 1;
	vec3 p = pos;
	if (i >= 0) {
		float a = float(i) * 0.7;
		mat3 r = mat3(cos(a), 0.0, -sin(a), 0.0, 1.0, 0.0,
		              sin(a), 0.0, cos(a));
		vec2 cell = vec2(i % pc.grid, i / pc.grid) -
		            float(pc.grid - 1) * 0.5;
		p = r * (pos * 0.35) + vec3(cell.x * 1.1, -0.6, -4.0 - cell.y * 1.1);
	}
	gl_Position = pc.vp * vec4(p, 1.0);
	v_uv = uv;
}
