/* SPDX-License-Identifier: MIT */
/*
 * Compute plumbing through the loader: descriptor sets (four at once,
 * uniform/storage, dynamic offsets, bound offsets and ranges, copies),
 * push constants (full and partial updates), specialization constants,
 * the compute built-ins under vkCmdDispatch, vkCmdDispatchIndirect and
 * vkCmdDispatchBase, a SPIR-V 1.0 module with declared-but-unused
 * resources missing from its layout. Skips (77) without a COMPUTE queue.
 */
#include "vkh_compute.h"

#include <stddef.h>
#include <string.h>

#include "bind_builtins.spv.h"
#include "bind_legacy_unused.spv.h"
#include "bind_sets.spv.h"
#include "bind_spec.spv.h"

#define SSBO VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
#define UBO VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
#define SSBO_DYN VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC
#define UBO_DYN VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC

/* bind_sets.comp's blocks (std140 uniform, std430 push constants). */
struct params {
	uint32_t mul_add[4];
	float f[4];
	uint32_t arr[2][4];
};

struct push {
	uint32_t count;
	int32_t ioff;
	float scale;
	uint32_t pad;
	uint32_t pair[2];
	uint32_t pad2[2];
	float v[4];
	uint32_t tail[20];
};
_Static_assert(sizeof(struct push) == 128, "push block is 128 bytes");

#define COUNT 100u   /* invocations per dispatch (not a group multiple) */
#define ROUNDS 3u
#define WIN_WORDS 10u

static VkDeviceSize
align_up(VkDeviceSize v, VkDeviceSize a)
{
	return (v + a - 1) / a * a;
}

static uint32_t
sets_model(uint32_t i, uint32_t k, const uint32_t *a,
           const struct params *p, uint32_t salt, const struct push *pc,
           const uint32_t *win)
{
	switch (k) {
	case 0:
		return a[i] * p->mul_add[0] + p->mul_add[1] + salt;
	case 1:
		return (uint32_t)((int32_t)i + pc->ioff) ^ pc->pair[0] ^
		       pc->pair[1];
	case 2:
		return (uint32_t)((float)i * pc->scale + pc->v[0] + p->f[1]) +
		       pc->tail[i % 20] + p->arr[i % 2][2];
	default:
		return WIN_WORDS * 1000 + win[i % WIN_WORDS];
	}
}

static void
test_sets(struct vkh *h, struct vkh_device *d)
{
	const VkPhysicalDeviceLimits *lim = &h->props.limits;
	VkDeviceSize out_stride = align_up(COUNT * 16,
	                                   lim->minStorageBufferOffsetAlignment);
	VkDeviceSize salt_stride = align_up(4,
	                                    lim->minUniformBufferOffsetAlignment);
	VkDeviceSize win_off = align_up(12, lim->minStorageBufferOffsetAlignment);
	struct vkh_pipe_desc desc = {
		.spv = bind_sets_spv,
		.spv_size = sizeof(bind_sets_spv),
		.set_count = 4,
		.binding_count = { 2, 1, 1, 1 },
		.types = { { SSBO, UBO }, { SSBO_DYN }, { UBO_DYN }, { SSBO } },
		.push_bytes = sizeof(struct push),
	};
	struct vkh_pipe p1, p2;
	struct vkh_buffer in = { 0 }, par = { 0 }, out = { 0 }, salt = { 0 },
	                  win = { 0 };
	struct params *pp;
	struct push pc;
	uint32_t *a, *w, salts[ROUNDS * 2];
	VkCommandBuffer cb;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, COUNT * 4, 0, &in));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, sizeof(struct params),
	                                VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
	                                &par));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, out_stride * ROUNDS * 2, 0,
	                                &out));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, salt_stride * ROUNDS * 2,
	                                VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
	                                &salt));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, win_off + 4 * WIN_WORDS + 64, 0,
	                                &win));
	a = in.map;
	for (uint32_t i = 0; i < COUNT; i++)
		a[i] = i * 7919u + 13u;
	pp = par.map;
	*pp = (struct params){ { 3, 1000, 0, 0 }, { 0, 0.5f, 0, 0 },
	                       { { 0, 0, 11, 0 }, { 0, 0, 22, 0 } } };
	for (uint32_t r = 0; r < ROUNDS * 2; r++) {
		salts[r] = 0x1000u * (r + 1);
		memcpy((uint8_t *)salt.map + r * salt_stride, &salts[r], 4);
	}
	/* The window: WIN_WORDS words at win_off; the words around it must
	 * not be reachable through the descriptor. */
	w = (uint32_t *)((uint8_t *)win.map + win_off);
	memset(win.map, 0xee, win.size);
	for (uint32_t i = 0; i < WIN_WORDS; i++)
		w[i] = 500 + i;
	memset((uint8_t *)out.map, 0xff, out.size);
	vkh_buffer_flush(h, d, &in);
	vkh_buffer_flush(h, d, &par);
	vkh_buffer_flush(h, d, &out);
	vkh_buffer_flush(h, d, &salt);
	vkh_buffer_flush(h, d, &win);

	VKH_CHECK_VK(h, vkh_pipe_create(d, &desc, &p1));
	VKH_CHECK_VK(h, vkh_pipe_create(d, &desc, &p2));
	vkh_pipe_set_buffer(d, &p1, 0, 0, SSBO, in.buffer, 0, VK_WHOLE_SIZE);
	vkh_pipe_set_buffer(d, &p1, 0, 1, UBO, par.buffer, 0,
	                    sizeof(struct params));
	vkh_pipe_set_buffer(d, &p1, 1, 0, SSBO_DYN, out.buffer, 0, COUNT * 16);
	vkh_pipe_set_buffer(d, &p1, 2, 0, UBO_DYN, salt.buffer, 0, 4);
	vkh_pipe_set_buffer(d, &p1, 3, 0, SSBO, win.buffer, win_off,
	                    4 * WIN_WORDS);
	/* p2's sets are copies of p1's (vkUpdateDescriptorSets copies). */
	{
		VkCopyDescriptorSet cp[5];
		static const uint32_t set[5] = { 0, 0, 1, 2, 3 };
		static const uint32_t bnd[5] = { 0, 1, 0, 0, 0 };
		for (int k = 0; k < 5; k++)
			cp[k] = (VkCopyDescriptorSet){
				.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
				.srcSet = p1.sets[set[k]],
				.srcBinding = bnd[k],
				.dstSet = p2.sets[set[k]],
				.dstBinding = bnd[k],
				.descriptorCount = 1,
			};
		vkUpdateDescriptorSets(d->device, 0, NULL, 5, cp);
	}

	memset(&pc, 0, sizeof(pc));
	pc.count = COUNT;
	pc.ioff = -50;
	pc.scale = 2.0f;
	pc.pair[0] = 0xf0f0u;
	pc.pair[1] = 0x0ff0000u;
	pc.v[0] = 4.0f;
	for (int k = 0; k < 20; k++)
		pc.tail[k] = (uint32_t)k * 100000u;

	cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb);
	for (uint32_t r = 0; r < ROUNDS * 2; r++) {
		const struct vkh_pipe *p = r < ROUNDS ? &p1 : &p2;
		uint32_t dyn[2] = { (uint32_t)(r * out_stride),
		                    (uint32_t)(r * salt_stride) };
		int32_t ioff = -50 + (int32_t)r * 1000;
		/* Full block once, then only ioff changes (partial update at
		 * its offset). */
		vkh_pipe_bind(cb, p, 2, dyn, r == 0 ? &pc : NULL);
		vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_COMPUTE_BIT,
		                   offsetof(struct push, ioff), 4, &ioff);
		vkCmdDispatch(cb, (COUNT + 31) / 32, 1, 1);
	}
	vkh_cmd_compute_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_buffer_invalidate(h, d, &out);

	for (uint32_t r = 0; r < ROUNDS * 2; r++) {
		const uint32_t *o = (const uint32_t *)((uint8_t *)out.map +
		                                       r * out_stride);
		pc.ioff = -50 + (int32_t)r * 1000;
		for (uint32_t i = 0; i < COUNT; i++)
			for (uint32_t k = 0; k < 4; k++) {
				uint32_t want = sets_model(i, k, a, pp,
				                           salts[r], &pc, w);
				if (o[i * 4 + k] != want && bad++ < 8)
					fprintf(stderr, "  round %u inv %u "
					        "word %u: got 0x%x want "
					        "0x%x\n", r, i, k,
					        o[i * 4 + k], want);
			}
		/* Past COUNT (the group's idle tail) nothing was written. */
		for (uint64_t j = COUNT * 4; j < out_stride / 4; j++)
			if (o[j] != 0xffffffffu && bad++ < 8)
				fprintf(stderr, "  round %u: word %llu beyond "
				        "the invocations written\n", r,
				        (unsigned long long)j);
	}
	vkh_pipe_destroy(d, &p1);
	vkh_pipe_destroy(d, &p2);
	vkh_buffer_destroy(d, &in);
	vkh_buffer_destroy(d, &par);
	vkh_buffer_destroy(d, &out);
	vkh_buffer_destroy(d, &salt);
	vkh_buffer_destroy(d, &win);
	VKH_CHECK_MSG(h, bad == 0, "%u descriptor/push result(s) wrong", bad);
}

static void
test_spec(struct vkh *h, struct vkh_device *d)
{
	struct {
		uint32_t wg;
		int32_t si;
		float sf;
		VkBool32 sb;
	} data = { 48, 100, 2.25f, VK_TRUE };
	VkSpecializationMapEntry me[4] = {
		{ 0, offsetof(__typeof__(data), wg), 4 },
		{ 1, offsetof(__typeof__(data), si), 4 },
		{ 2, offsetof(__typeof__(data), sf), 4 },
		{ 3, offsetof(__typeof__(data), sb), sizeof(VkBool32) },
	};
	VkSpecializationInfo si = { 4, me, sizeof(data), &data };
	struct vkh_pipe p;
	struct vkh_buffer o = { 0 };
	const uint32_t groups = 3, n = 48 * groups;
	const uint32_t *g;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, n * 6 * 4, 0, &o));
	VKH_CHECK_VK(h, vkh_pipe_create_simple(d, bind_spec_spv,
	                                       sizeof(bind_spec_spv), 1, 0,
	                                       &si, &p));
	vkh_pipe_set_buffer(d, &p, 0, 0, SSBO, o.buffer, 0, VK_WHOLE_SIZE);
	VKH_CHECK_VK(h, vkh_dispatch_sync(d, 0, &p, NULL, groups, 1, 1));
	vkh_buffer_invalidate(h, d, &o);
	g = o.map;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t l = i % 48;
		uint32_t want[6] = { 48, 100 + i, 0x40100000u /* 2.25f */,
		                     7 * 2 + 100, (47 - l) * 3, 7 };
		if (memcmp(g + i * 6, want, sizeof(want)) && bad++ < 8)
			fprintf(stderr, "  inv %u: got %u %u 0x%x %u %u %u\n",
			        i, g[i * 6], g[i * 6 + 1], g[i * 6 + 2],
			        g[i * 6 + 3], g[i * 6 + 4], g[i * 6 + 5]);
	}
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &o);
	VKH_CHECK_MSG(h, bad == 0, "%u specialized result(s) wrong", bad);
}

/* Check the built-ins one dispatch wrote: groups (cx,cy,cz) starting at
 * base (bx,by,bz), in the 12x4x4-invocation grid of bind_builtins.comp. */
static unsigned
check_builtins(const uint32_t *o, const uint32_t base[3],
               const uint32_t cnt[3])
{
	static const uint32_t ls[3] = { 4, 2, 2 };
	unsigned bad = 0;

	for (uint32_t z = 0; z < 4; z++)
	for (uint32_t y = 0; y < 4; y++)
	for (uint32_t x = 0; x < 12; x++) {
		const uint32_t *g = o + (x + y * 12 + z * 48) * 16;
		uint32_t gid[3] = { x, y, z }, wg[3], lid[3];
		bool inside = true;
		for (int k = 0; k < 3; k++) {
			wg[k] = gid[k] / ls[k];
			lid[k] = gid[k] % ls[k];
			inside &= wg[k] >= base[k] && wg[k] < base[k] + cnt[k];
		}
		if (!inside) {
			for (int k = 0; k < 16; k++)
				bad += g[k] != 0xffffffffu;
			continue;
		}
		uint32_t want[16] = {
			cnt[0], cnt[1], cnt[2], wg[0], wg[1], wg[2],
			lid[0], lid[1], lid[2],
			lid[0] + lid[1] * 4 + lid[2] * 8, x, y, z, 422,
			7 /* 7 + DeviceIndex */, 0xffffffffu,
		};
		if (memcmp(g, want, sizeof(want)) && bad++ < 4)
			fprintf(stderr, "  invocation (%u,%u,%u): numwg %u %u "
			        "%u wg %u %u %u lid %u %u %u idx %u\n", x, y,
			        z, g[0], g[1], g[2], g[3], g[4], g[5], g[6],
			        g[7], g[8], g[9]);
	}
	return bad;
}

static void
test_builtins(struct vkh *h, struct vkh_device *d)
{
	struct vkh_pipe_desc desc = {
		.spv = bind_builtins_spv,
		.spv_size = sizeof(bind_builtins_spv),
		.set_count = 1,
		.binding_count = { 1 },
		.types = { { SSBO } },
		.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT,
	};
	const VkDeviceSize grid = 12 * 4 * 4 * 16 * 4;
	struct vkh_pipe p;
	struct vkh_buffer o = { 0 }, ind = { 0 };
	VkCommandBuffer cb;
	uint32_t *iv;
	unsigned bad;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, grid * 3, 0, &o));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, 64,
	                                VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
	                                &ind));
	memset(o.map, 0xff, grid * 3);
	iv = ind.map;
	iv[4] = 3; /* VkDispatchIndirectCommand at offset 16 */
	iv[5] = 2;
	iv[6] = 2;
	vkh_buffer_flush(h, d, &o);
	vkh_buffer_flush(h, d, &ind);
	VKH_CHECK_VK(h, vkh_pipe_create(d, &desc, &p));
	vkh_pipe_set_buffer(d, &p, 0, 0, SSBO, o.buffer, 0, VK_WHOLE_SIZE);

	/* Three dispatches into three copies of the grid: direct (whole
	 * grid), indirect (whole grid), base (groups (1,0,1) + (2,2,1)); one
	 * submission each, the set pointed at the next copy in between. */
	for (uint32_t k = 0; k < 3; k++) {
		vkh_pipe_set_buffer(d, &p, 0, 0, SSBO, o.buffer, k * grid,
		                    grid);
		cb = vkh_cmd_begin(d, 0);
		VKH_CHECK(h, cb);
		vkh_pipe_bind(cb, &p, 0, NULL, NULL);
		if (k == 0)
			vkCmdDispatch(cb, 3, 2, 2);
		else if (k == 1)
			vkCmdDispatchIndirect(cb, ind.buffer, 16);
		else
			vkCmdDispatchBase(cb, 1, 0, 1, 2, 2, 1);
		vkh_cmd_compute_host_barrier(cb);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	}
	vkh_buffer_invalidate(h, d, &o);
	{
		static const uint32_t zero[3] = { 0, 0, 0 },
		                      full[3] = { 3, 2, 2 },
		                      bbase[3] = { 1, 0, 1 },
		                      bcnt[3] = { 2, 2, 1 };
		const uint32_t *g = o.map;
		unsigned b0 = check_builtins(g, zero, full);
		unsigned b1 = check_builtins(g + grid / 4, zero, full);
		unsigned b2 = check_builtins(g + 2 * grid / 4, bbase, bcnt);
		bad = b0 + b1 + b2;
		if (bad)
			fprintf(stderr, "  wrong: %u direct, %u indirect, %u "
			        "base\n", b0, b1, b2);
	}
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &o);
	vkh_buffer_destroy(d, &ind);
	VKH_CHECK_MSG(h, bad == 0, "%u built-in value(s) wrong", bad);
}

/* A SPIR-V 1.0 module declaring resources it never uses, run with a
 * pipeline layout that only has the one it uses. */
static void
test_legacy_unused(struct vkh *h, struct vkh_device *d)
{
	struct vkh_buffer b = { 0 };
	uint32_t *v;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, 256 * 4, 0, &b));
	v = b.map;
	for (uint32_t i = 0; i < 256; i++)
		v[i] = i * 1000u;
	VKH_CHECK_VK(h, vkh_compute_run(h, d, bind_legacy_unused_spv,
	                                sizeof(bind_legacy_unused_spv), &b, 1,
	                                NULL, 0, 4, 1, 1));
	for (uint32_t i = 0; i < 256; i++)
		if (v[i] != i * 3000u + i && bad++ < 4)
			fprintf(stderr, "  v[%u] = %u, want %u\n", i, v[i],
			        i * 3001u);
	vkh_buffer_destroy(d, &b);
	VKH_CHECK_MSG(h, bad == 0, "%u value(s) wrong", bad);
}

static const struct vkh_test tests[] = {
	{ "descriptor_sets_push_constants", test_sets, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "specialization_constants", test_spec, 1, VK_QUEUE_COMPUTE_BIT },
	{ "builtins_dispatch_indirect_base", test_builtins, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "spirv10_unused_bindings", test_legacy_unused, 1,
	  VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_bind", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}
