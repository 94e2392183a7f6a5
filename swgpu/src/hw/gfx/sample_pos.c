/* SPDX-License-Identifier: MIT */
#include "hw/gfx/sample_pos.h"

const uint8_t gfx_sample_pos16[4][8][2] = {
	{ { 8, 8 } },
	{ { 12, 12 }, { 4, 4 } },
	{ { 6, 2 }, { 14, 6 }, { 2, 10 }, { 10, 14 } },
	{ { 9, 5 }, { 7, 11 }, { 13, 9 }, { 5, 3 },
	  { 3, 13 }, { 1, 7 }, { 11, 15 }, { 15, 1 } },
};
