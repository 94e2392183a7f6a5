#version 460
// interpolateAtSample and interpolateAtCentroid of a Centroid-decorated
// noperspective input: AtSample starts from the point the input was
// evaluated at (the lane's centroid), AtCentroid is the input itself.
layout(location = 0) centroid noperspective in float lin;
layout(location = 0) out vec2 o;

void main()
{
	o = vec2(interpolateAtSample(lin, 1), interpolateAtCentroid(lin));
}
