#version 450
// Functions: inout/out parameters (pointer arguments), arrays and
// structs passed by value, early returns inside loops, nested calls.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer O { int o[]; };
struct P { int a; ivec2 b; };

void bump(inout int v, out int twice)
{
	v += 3;
	twice = v * 2;
}

int find(int arr[6], int key)
{
	for (int i = 0; i < 6; i++)
		if (arr[i] == key)
			return i;
	return -1;
}

P make(int x)
{
	P p;
	p.a = x * 5;
	p.b = ivec2(x, -x);
	if (x > 7)
		return p;
	p.b.y = 100;
	return p;
}

int sum3(P p) { return p.a + p.b.x + p.b.y; }

void main()
{
	int i = int(gl_GlobalInvocationID.x);
	int v = i, t;
	bump(v, t);
	bump(v, t);
	int arr[6] = int[6](4, 8, 15, 16, 23, 42);
	o[i * 4 + 0] = v;
	o[i * 4 + 1] = t;
	o[i * 4 + 2] = find(arr, i + 3);
	o[i * 4 + 3] = sum3(make(i));
}
