#version 460
// Vertex stage interface: inputs by location (vectors, integers, an
// array read with a dynamic index), every vertex built-in input, the
// gl_PerVertex outputs and user outputs of every shape (vector, flat
// integers, a block with a member Location, a matrix, components packed
// into one location, an array written with a dynamic index).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec2 uv;
layout(location = 2) in ivec2 iv;
layout(location = 3) in uint u;
layout(location = 4) in float ain[3];
layout(location = 7) in vec4 unused_in;

layout(location = 0) out vec2 o_uv;
layout(location = 1) flat out ivec2 o_iv;
layout(location = 2) out Block {
	vec4 a;
	layout(location = 5) float b;
} blk;
layout(location = 3) out mat2 o_m;
layout(location = 6, component = 1) out vec2 o_yz;
layout(location = 6, component = 0) out float o_x;
layout(location = 7) out float o_arr[2];
layout(location = 9) flat out uvec4 o_ids;
layout(location = 10) out vec4 never_written;

out gl_PerVertex {
	vec4 gl_Position;
	float gl_PointSize;
	float gl_ClipDistance[2];
	float gl_CullDistance[1];
};

void main()
{
	gl_Position = vec4(pos * 2.0, 1.0 + float(gl_InstanceIndex));
	gl_PointSize = 3.0 + float(gl_VertexIndex);
	gl_ClipDistance[0] = pos.x;
	gl_ClipDistance[1] = -pos.y;
	gl_CullDistance[0] = pos.z - 1.0;
	o_uv = uv.yx;
	o_iv = iv * 3;
	blk.a = vec4(uv, -uv);
	blk.b = ain[gl_VertexIndex % 3];
	o_m = mat2(1.0, 2.0, 3.0, float(u));
	o_yz = vec2(10.0, 20.0);
	o_x = 5.0;
	o_arr[0] = 0.0;
	o_arr[1] = 0.0;
	o_arr[gl_VertexIndex & 1] = 7.0;
	o_ids = uvec4(gl_VertexIndex, gl_BaseVertex, gl_BaseInstance,
	              gl_DrawID);
}
