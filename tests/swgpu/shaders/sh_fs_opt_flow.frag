#version 460
// Copies across control flow for ir_opt.c: a Function variable
// assigned in divergent branches and a loop, read after the merge, an
// array indexed dynamically, derivatives of copies.
layout(location = 0) in vec4 v;
layout(location = 1) flat in int k;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main()
{
	float a = v.x, b = v.y;
	float arr[4] = float[4](v.x, v.y, v.z, v.w);
	if (k > 1) {
		float t = a;
		a = b * 2.0;
		b = t + 1.0;
	} else {
		b = a;
	}
	for (int i = 0; i < (k & 3); i++) {
		float t = a;
		a = b;
		b = t - 0.5;
		arr[i] = a;
	}
	float c = a;
	a = b;
	o0 = vec4(a, b, c, arr[k & 3]);
	o1 = vec4(dFdx(c), dFdy(a), arr[(k + 1) & 3], c * a);
}
