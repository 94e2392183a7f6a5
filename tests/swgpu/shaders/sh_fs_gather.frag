#version 460
// Gathers: one component of the 2x2 footprint, with an Offset, and with
// four ConstOffsets.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
void main()
{
	o0 = textureGather(tex, uv, 0);
	o1 = textureGather(tex, uv, 2);
	o2 = textureGatherOffset(tex, uv, ivec2(1, -1), 1);
	o3 = textureGatherOffsets(tex, uv, ivec2[4](ivec2(0, 0), ivec2(1, 0),
	                                            ivec2(2, 0), ivec2(3, 1)),
	                          2);
}
