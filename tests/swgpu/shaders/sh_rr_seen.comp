#version 450
// The next job of a queue whose long job is still running
// (test_api_roundrobin): records the done count of that job it sees
// when it runs, plus one (0: it did not run).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer F { uint done; } f;
layout(set = 0, binding = 1) buffer S { uint seen; } s;
void main()
{
	s.seen = atomicAdd(f.done, 0u) + 1u;
}
