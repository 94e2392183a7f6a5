/* SPDX-License-Identifier: MIT */
/*
 * Subgroup sizes other than the default 32 (swgpu_shader_info's
 * subgroup_size, Vulkan's requiredSubgroupSize; issue 23): at 4, 8, 16
 * and 32 lanes the built-ins, reductions, scans, ballots (and the
 * ballot bit operations on bits beyond the subgroup), masks, shuffles,
 * quad and clustered operations work per subgroup, a partial last
 * subgroup included (48 invocations per workgroup). The same shader
 * checks the identities of exclusive scans on bools and on 8/16-bit
 * integers, signed and unsigned. OpGroupNonUniformRotateKHR (plain with
 * a dynamic delta, clustered, on 64-bit values) runs at every size too.
 * Expected values are computed here from the inputs.
 */
#include "shader_test_util.h"

#include <string.h>

#include "sh_subgroup_size.spv.h"
#include "sh_rotate.spv.h"

#define WG 48u           /* sh_subgroup_size's local size */
#define GROUPS 2u
#define WORDS 20u        /* outputs per invocation */

static const uint32_t sizes[] = { 0, 4, 8, 16, 32 };

static swgpu_shader *
make(struct st_env *e, const uint32_t *code, size_t size, uint32_t n)
{
	swgpu_shader *s = NULL;
	swgpu_shader_properties props;
	char err[256] = "";

	if (st_try_shader_subgroup(e, code, size, n, &s, err,
	                           sizeof(err)) != SWGPU_OK)
		print_error("subgroup size %u: %s\n", n, err);
	assert_non_null(s);
	swgpu_shader_query_properties(s, &props);
	assert_int_equal(props.subgroup_size, n ? n : 32u);
	return s;
}

static uint32_t
sext(int32_t v)
{
	return (uint32_t)v;
}

/* The expected outputs of invocation li of a workgroup whose inputs
 * start at x, at subgroup size n. */
static void
expect(const uint32_t *wx, uint32_t li, uint32_t n, uint32_t *w)
{
	const uint32_t sgid = li / n, sl = li % n, nsub = (WG + n - 1) / n;
	const uint32_t cnt = WG - sgid * n < n ? WG - sgid * n : n;
	const uint32_t *x = wx + sgid * n;
	const uint32_t all = n == 32 ? ~0u : (1u << n) - 1;
	uint32_t sum = 0, pre = 0, ballot = 0, cl = 0;
	uint32_t eand = 1, eor = 0, exor = 0;
	int32_t mn = 127, mx = -128, mn16 = 32767, mx16 = -32768;
	uint32_t umn8 = 255, umx8 = 0, and8 = 255, umn16 = 65535, mul16 = 1;

	for (uint32_t i = 0; i < cnt; i++) {
		sum += x[i];
		ballot |= (x[i] & 1u) << i;
		if ((i & ~3u) == (sl & ~3u))
			cl += x[i];
	}
	for (uint32_t i = 0; i < sl; i++) {
		const int32_t d = (int32_t)x[i] - 50;

		pre += x[i];
		eand &= x[i] != 30;
		eor |= x[i] == 30;
		exor ^= x[i] > 50;
		mn = d < mn ? d : mn;
		mx = d > mx ? d : mx;
		mn16 = d < mn16 ? d : mn16;
		mx16 = d > mx16 ? d : mx16;
		umn8 = (x[i] & 0xff) < umn8 ? x[i] & 0xff : umn8;
		umx8 = (x[i] & 0xff) > umx8 ? x[i] & 0xff : umx8;
		and8 &= x[i] & 0xff;
		umn16 = (x[i] & 0xffff) < umn16 ? x[i] & 0xffff : umn16;
		mul16 = (mul16 * (x[i] & 0xffff)) & 0xffff;
	}
	w[0] = n | sl << 8 | sgid << 16 | nsub << 24;
	w[1] = sum;
	w[2] = pre;
	w[3] = ballot;
	w[4] = (~0u << sl) & all;
	w[5] = sl == 31 ? 0 : (~0u << (sl + 1)) & all;
	w[6] = x[sl ^ 1];
	w[7] = x[1];
	w[8] = x[sl ^ 3];
	w[9] = cl;
	w[10] = (n - 1) | n << 8 | sl << 16;
	w[11] = eand | eor << 1 | exor << 2;
	w[12] = sext(mn);
	w[13] = sext(mx);
	w[14] = sext(mn16);
	w[15] = sext(mx16);
	w[16] = umn8 | umx8 << 8 | and8 << 16;
	w[17] = umn16 | mul16 << 16;
	w[18] = sl ? x[sl - 1] : 0;     /* lane 0: undefined, not checked */
	w[19] = sl == 31 ? ~0u : (2u << sl) - 1;
}

static void
test_subgroup_sizes(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	uint32_t *v = st_buf(&e, WG * GROUPS * 4);
	uint32_t *o = st_buf(&e, WG * GROUPS * WORDS * 4);
	for (uint32_t i = 0; i < WG * GROUPS; i++)
		v[i] = (i * 37u + 11u) % 101u;
	for (uint32_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		const uint32_t n = sizes[z] ? sizes[z] : 32u;
		swgpu_shader *s = make(&e, sh_subgroup_size_spv,
		                       sizeof(sh_subgroup_size_spv), sizes[z]);
		unsigned bad = 0;

		memset(o, 0xcc, WG * GROUPS * WORDS * 4);
		api_ok(st_dispatch(&e, s, NULL, NULL, 0, GROUPS, 1, 1));
		for (uint32_t g = 0; g < WG * GROUPS; g++) {
			const uint32_t *r = o + g * WORDS;
			uint32_t w[WORDS];

			expect(v + g / WG * WG, g % WG, n, w);
			for (uint32_t k = 0; k < WORDS; k++) {
				if (k == 18 && g % WG % n == 0)
					continue;
				if (r[k] != w[k] && bad++ < 10)
					print_error("size %u invocation %u "
					            "output %u: 0x%x, want "
					            "0x%x\n", n, g, k, r[k],
					            w[k]);
			}
		}
		assert_int_equal(bad, 0);
		swgpu_shader_destroy(s);
	}
	st_fini(&e);
}

static void
test_rotate(void **state)
{
	struct st_env e;
	const uint32_t lanes = 64, groups = 2, total = lanes * groups;

	(void)state;
	st_init(&e);
	uint32_t *v = st_buf(&e, total * 4);
	uint32_t *o = st_buf(&e, total * 4 * 4);
	for (uint32_t i = 0; i < total; i++)
		v[i] = 1000u + i * 7u;
	for (uint32_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		const uint32_t n = sizes[z] ? sizes[z] : 32u;
		const uint32_t c8 = n < 8 ? n : 8;
		swgpu_shader *s = make(&e, sh_rotate_spv, sizeof(sh_rotate_spv),
		                       sizes[z]);
		unsigned bad = 0;

		memset(o, 0, total * 16);
		api_ok(st_dispatch(&e, s, NULL, NULL, 0, groups, 1, 1));
		for (uint32_t g = 0; g < total; g++) {
			const uint32_t sl = g % lanes % n, base = g - sl;
			const uint32_t delta = g / lanes + 3;
			const uint32_t c4 = ((sl + 5) & 3) | (sl & ~3u);
			const uint32_t c8s = ((sl + 1) & (c8 - 1)) |
			                     (sl & ~(c8 - 1));
			const uint32_t w[4] = {
				v[base + ((sl + delta) & (n - 1))],
				v[base + c4],
				v[base + c8s],
				base + c8s,
			};

			for (uint32_t k = 0; k < 4; k++)
				if (o[g * 4 + k] != w[k] && bad++ < 10)
					print_error("size %u invocation %u "
					            "output %u: %u, want %u\n", n,
					            g, k, o[g * 4 + k], w[k]);
		}
		assert_int_equal(bad, 0);
		swgpu_shader_destroy(s);
	}
	st_fini(&e);
}

/* Sizes the engine does not have are refused at creation. */
static void
test_bad_sizes(void **state)
{
	static const uint32_t bad[] = { 1, 2, 3, 6, 12, 64, 128 };
	struct st_env e;

	(void)state;
	st_init(&e);
	for (uint32_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		swgpu_shader *s = NULL;
		char err[256] = "";

		assert_int_equal(st_try_shader_subgroup(&e, sh_rotate_spv,
		                                        sizeof(sh_rotate_spv),
		                                        bad[i], &s, err,
		                                        sizeof(err)),
		                 SWGPU_ERR_INVALID_ARG);
		assert_null(s);
		assert_non_null(strstr(err, "subgroup size"));
	}
	st_fini(&e);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subgroup_sizes),
		cmocka_unit_test(test_rotate),
		cmocka_unit_test(test_bad_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
