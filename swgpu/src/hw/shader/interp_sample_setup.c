/* SPDX-License-Identifier: MIT */
/*
 * The fast sampling path's resolved image (struct fast_res): what an
 * IR_IMGSAMPLE's uniform image and sampler give — the levels' bases,
 * sizes and pitches, the decode tables, address modes, the sampler's
 * LOD half — cached per thread.
 *
 * Why a cache: interp_sample_fast runs once per instruction and batch
 * (up to 128 lanes), and resolving took a mip-chain walk, the format's
 * byte tables and the sampler's preparation every time (about 5 % of a
 * textured scene's frame). The key is the content, not a generation
 * count: the instruction, the image binding's pointer, range and
 * ir_image_binding bytes, the sampler binding's pointer and state. Equal
 * bytes resolve to equal results (resolving reads nothing else: the
 * format table is constant), so a hit gives what resolving again
 * would; a binding rewritten in place, or freed and reallocated at the
 * same address, compares its bytes again. SWGPU_SAMPLE_CACHE=0 resolves
 * on every call (test_shader_sample_fast's swgpu_shader_sample_fast_-
 * nocache), for comparing.
 */
#include <stdlib.h>
#include <string.h>

#include "interp_sample_fast.h"

bool
smp_pairs_enabled(void)
{
	static int on = -1;

	if (__atomic_load_n(&on, __ATOMIC_RELAXED) < 0) {
		const char *e = getenv("SWGPU_SAMPLE_PAIRS");

		__atomic_store_n(&on, !(e && e[0] == '0'), __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&on, __ATOMIC_RELAXED) != 0;
}

/* The image's levels, or false when one is not wholly inside the bound
 * range (the general path then returns zeros for its texels). */
static bool
fast_levels(const struct ir_buffer_binding *bb, struct fast_img *fi)
{
	const struct ir_image_binding *im = bb->img;
	struct img_level levels[FAST_MAX_LEVELS];

	image_levels(im, im->levels, levels);
	fi->off32 = true;
	for (uint32_t k = 0; k < im->levels; k++) {
		const struct img_level lv = levels[k];

		if (!lv.w || !lv.h || lv.off + (uint64_t)(lv.h - 1) *
		    lv.row_pitch + (uint64_t)lv.w * im->elem > bb->range)
			return false;
		/* byte offsets of texels within a level fit int32 (the
		 * AVX2 form's gathers) */
		fi->off32 = fi->off32 && (uint64_t)(lv.h - 1) * lv.row_pitch +
		            (uint64_t)lv.w * im->elem <= INT32_MAX;
		fi->lv[k] = (struct fast_level){
			.base = bb->ptr + lv.off, .row_pitch = lv.row_pitch,
			.w = (int32_t)lv.w, .h = (int32_t)lv.h,
			.fw = (float)lv.w, .fh = (float)lv.h,
		};
	}
	return true;
}

/* Does the image and sampler fit the path? fi from them. */
static bool
fast_setup(const struct ir_buffer_binding *bb,
           const struct ir_buffer_binding *sb, struct fast_img *fi)
{
	const struct ir_image_binding *im = bb->img;
	const struct swgpu_sampler_state *ss = &sb->img->sampler;

	if (im->view_type != 1 || !im->layers || !im->fmt ||
	    im->levels > FAST_MAX_LEVELS ||
	    im->domain != SWGPU_BLIT_CLASS_FLOAT ||
	    (ss->filter & SWGPU_SAMPLER_UNNORMALIZED))
		return false;
	for (uint32_t c = 0; c < 4; c++)
		if (im->swizzle[c] && im->swizzle[c] != 3 + c)
			return false;
	for (uint32_t a = 0; a < 2; a++) {
		fi->addr[a] = (ss->address >> (8 * a)) & 0xff;
		if (fi->addr[a] == 3)
			return false;   /* CLAMP_TO_BORDER */
	}
	if (im->decode != format_decoder(im->fmt) ||
	    !format_byte_tables(im->fmt, fi->tab, fi->byte))
		return false;
	fi->elem = im->elem;
	fi->vec = im->elem == 4 && im->fmt->numeric == SWGPU_NUMERIC_UNORM &&
	          fi->byte[1] == 1 && fi->byte[3] == 3 &&
	          ((fi->byte[0] == 0 && fi->byte[2] == 2) ||
	           (fi->byte[0] == 2 && fi->byte[2] == 0));
	for (uint32_t c = 0; c < 4; c++)
		fi->vec = fi->vec && im->fmt->bit_width[c] == 8;
	fi->bgra = fi->byte[0] == 2;
	fi->codes = smp_codes(im->fmt);
	fi->fixed = fi->codes && smp_fixed_enabled();
	fi->pairs = smp_pairs_enabled();
	return fast_levels(bb, fi);
}

/*
 * With a single level (q = 0) every lambda selects level 0 with no
 * level blend (d is clamped to [0, 0]), and with equal magnification
 * and minification filters the sign of lambda picks nothing either: the
 * implicit LOD's derivatives, log2 and clamps can be skipped (vkcube's
 * texture: one level, NEAREST/NEAREST).
 */
static void
fast_lod_prepare(const struct swgpu_sampler_state *ss, struct fast_res *r)
{
	lod_prepare(ss, r->im->levels, false, &r->ls);
	r->lod_fixed = r->ls.q == 0.0f && r->ls.mag_linear == r->ls.min_linear;
	if (r->lod_fixed)
		lod_select_prepared(&r->ls, 0.0f, 0.0f, 0.0f, &r->lod0);
}

static bool
cache_enabled(void)
{
	static int on = -1;

	if (__atomic_load_n(&on, __ATOMIC_RELAXED) < 0) {
		const char *e = getenv("SWGPU_SAMPLE_CACHE");

		__atomic_store_n(&on, !(e && e[0] == '0'), __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&on, __ATOMIC_RELAXED) != 0;
}

/* One resolved instruction and the bytes it was resolved from. */
struct fast_entry {
	bool valid, ok;
	struct ir_instr in;
	struct ir_buffer_binding bb;
	struct ir_image_binding img;
	const struct ir_image_binding *simg;
	struct swgpu_sampler_state ss;
	struct fast_res res;
};

/* A few instructions per thread (a fragment program's samples),
 * direct-mapped by the instruction's address. */
#define FAST_ENTRIES 4u
static _Thread_local struct fast_entry fast_cache[FAST_ENTRIES];

static bool
entry_matches(const struct fast_entry *c, const struct ir_instr *in,
              const struct ir_buffer_binding *bb,
              const struct ir_buffer_binding *sb)
{
	return c->valid && !memcmp(&c->in, in, sizeof(*in)) &&
	       c->bb.ptr == bb->ptr && c->bb.range == bb->range &&
	       c->bb.img == bb->img &&
	       !memcmp(&c->img, bb->img, sizeof(c->img)) &&
	       c->simg == sb->img &&
	       !memcmp(&c->ss, &sb->img->sampler, sizeof(c->ss));
}

const struct fast_res *
fast_resolve(const struct ir_dispatch *d, const struct ir_instr *in)
{
	const uint32_t mode = in->aux2 & IR_SMP_LOD_MASK;

	if ((in->aux2 & (IR_SMP_DREF | IR_SMP_GATHER | IR_SMP_OFFSETS)) ||
	    (mode != IR_SMP_LOD_IMPLICIT && mode != IR_SMP_LOD_EXPLICIT) ||
	    in->c || in->d)
		return NULL;
	const struct ir_buffer_binding *bb = image_resource(
		d, in->aux, 0, in->imm & 0xffffu);
	const struct ir_buffer_binding *sb = smp_sampler_of(d, in, 0);
	if (!bb || !sb)
		return NULL;
	struct fast_entry *c = &fast_cache[((uintptr_t)in / sizeof(*in)) %
	                                   FAST_ENTRIES];
	const bool cache = cache_enabled();

	if (cache && entry_matches(c, in, bb, sb))
		return c->ok ? &c->res : NULL;
	c->valid = cache;
	c->in = *in;
	c->bb = *bb;
	memcpy(&c->img, bb->img, sizeof(c->img));
	c->simg = sb->img;
	c->ss = sb->img->sampler;
	c->res.im = bb->img;
	c->ok = fast_setup(bb, sb, &c->res.fi);
	if (c->ok)
		fast_lod_prepare(&sb->img->sampler, &c->res);
	return c->ok ? &c->res : NULL;
}
