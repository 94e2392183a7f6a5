#version 460
// Derivatives across 2x2 quads: plain (coarse here), fine and coarse
// dFdx/dFdy and fwidth, and fine ones inside a branch every lane of a
// quad takes together (quad-uniform control flow).
layout(location = 0) in float v;
layout(location = 1) flat in int take;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
void main()
{
	o0 = vec4(dFdx(v), dFdy(v), dFdxFine(v), dFdyFine(v));
	o1 = vec4(dFdxCoarse(v), dFdyCoarse(v), fwidth(v), fwidthFine(v));
	o2 = vec4(fwidthCoarse(v), -1.0, -1.0, 0.0);
	if (take != 0) {
		float w = v * v;
		o2.y = dFdxFine(w);
		o2.z = dFdyFine(w);
	}
}
