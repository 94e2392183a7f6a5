#version 450
// Divergent control flow: if/else, loops with break/continue, nested
// loops, switch, function calls with early return.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer O { int o[]; };

int collatz(int n)
{
	int steps = 0;
	while (n != 1) {
		if (steps > 1000)
			return -1;
		if ((n & 1) == 0)
			n = n / 2;
		else
			n = 3 * n + 1;
		steps++;
	}
	return steps;
}

int nested(int i)
{
	int acc = 0;
	for (int a = 0; a < 8; a++) {
		if (a == i % 5)
			continue;
		for (int b = 0; b < a; b++) {
			if (b * a > i)
				break;
			acc += b ^ a;
		}
		if (acc > 50 + i)
			break;
	}
	return acc;
}

void main()
{
	int i = int(gl_GlobalInvocationID.x);
	int r;
	if (i % 3 == 0)
		r = i * 7;
	else if (i % 3 == 1)
		r = -i;
	else
		r = i * i;
	o[i * 4 + 0] = r;
	o[i * 4 + 1] = collatz(i + 1);
	o[i * 4 + 2] = nested(i);
	int s;
	switch (i & 7) {
	case 0: s = 10; break;
	case 1:
	case 2: s = 20 + i; break;
	case 5: s = 50;
	// fallthrough
	case 6: s = 60 + i; break;
	default: s = -1; break;
	}
	o[i * 4 + 3] = s;
}
