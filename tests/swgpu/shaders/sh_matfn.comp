#version 450
// determinant / inverse / modf / frexp.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B {
	mat4 m4;
	mat3 m3;       // std430: 3 columns of vec4 stride
	float x;
	float det4;
	float det3;
	float fr;
	float whole;
	float mant;
	int ex;
	mat4 inv4;
	mat3 inv3;
} b;
void main()
{
	b.det4 = determinant(b.m4);
	b.det3 = determinant(b.m3);
	b.inv4 = inverse(b.m4);
	b.inv3 = inverse(b.m3);
	b.fr = modf(b.x, b.whole);
	b.mant = frexp(b.x, b.ex);
}
