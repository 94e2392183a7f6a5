/* SPDX-License-Identifier: MIT */
/*
 * Image packets: COPY_PITCHED, CLEAR_BOX and BLIT.
 *
 * Each handler validates the whole packet first: sizes, pitch
 * arithmetic (overflow-checked), formats, and then translates every
 * surface's touched byte range (first byte to last) once, with the
 * access it needs. Only then does it touch memory, so a faulting packet
 * writes nothing. Work is done row by row, or in 1 MiB chunks of a
 * contiguous run; once 1 MiB was written since the last one, a row or
 * chunk boundary is a preemption point (packet_exec.h): the save area
 * gets the bytes (COPY_PITCHED) or rows (CLEAR_BOX, BLIT) done, and the
 * resumed packet writes each remaining byte exactly once, as an
 * uninterrupted one would.
 */
#include "hw/packet/packet_image.h"

#include <math.h>
#include <string.h>

#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "hw/format/format.h"
#include "hw/packet/memops.h"
#include "kmd/vaspace.h"

/* One pitched box: where it starts, its pitches and its shape. */
struct box {
	uint64_t va;
	uint64_t row_pitch;
	uint64_t slice_pitch;
	uint64_t row_bytes;
	uint32_t rows;
	uint32_t slices;
};

/*
 * Bytes from the box's first byte to its last, or 0 on a bad shape:
 * (slices - 1) * slice_pitch + (rows - 1) * row_pitch + row_bytes,
 * overflow-checked. Rows (and slices) of one surface must not overlap,
 * so a destination box never writes one byte twice.
 */
static uint64_t
box_span(const struct box *b, const char **why)
{
	uint64_t rows_span, slices_off, span;

	if (!b->row_bytes || !b->rows || !b->slices) {
		*why = "empty box";
		return 0;
	}
	if (b->rows > SWGPU_IMAGE_MAX_EXTENT ||
	    b->slices > SWGPU_IMAGE_MAX_EXTENT) {
		*why = "rows or slices above SWGPU_IMAGE_MAX_EXTENT";
		return 0;
	}
	if (b->rows > 1 && b->row_pitch < b->row_bytes) {
		*why = "row pitch below row bytes";
		return 0;
	}
	if (__builtin_mul_overflow(b->row_pitch, (uint64_t)(b->rows - 1),
	                           &rows_span) ||
	    __builtin_add_overflow(rows_span, b->row_bytes, &rows_span)) {
		*why = "row pitch overflow";
		return 0;
	}
	if (b->slices > 1 && b->slice_pitch < rows_span) {
		*why = "slice pitch below one slice's bytes";
		return 0;
	}
	if (__builtin_mul_overflow(b->slice_pitch, (uint64_t)(b->slices - 1),
	                           &slices_off) ||
	    __builtin_add_overflow(slices_off, rows_span, &span)) {
		*why = "slice pitch overflow";
		return 0;
	}
	return span;
}

/* Validate the box shape and translate its whole span for access;
 * caller holds the read lock. NULL after raising the fault. */
static uint8_t *
map_box(struct exec_env *env, const struct pkt *p, const struct box *b,
        uint32_t access, const char *side)
{
	const char *why = NULL;
	uint64_t span = box_span(b, &why);
	uint8_t *host;

	if (!span) {
		raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, b->va,
		            "%s: %s (row %llu/%llu B x %u, slice %llu x %u)",
		            side, why, (unsigned long long)b->row_bytes,
		            (unsigned long long)b->row_pitch, b->rows,
		            (unsigned long long)b->slice_pitch, b->slices);
		return NULL;
	}
	host = vaspace_translate(env->vs, b->va, span, access);
	if (!host)
		page_fault(env, p, b->va, span, access);
	return host;
}

/*
 * The bytes of a pitched copy in order (slice by slice, row by row), from
 * done bytes on, in pieces contiguous on both sides of at most
 * SWGPU_EXEC_CHUNK bytes: one run when rows and slices are packed, a run
 * per slice when rows are, else a run per row. Overlapping boxes get
 * memmove (unspecified result, but no undefined behaviour on the host); a
 * large packet's disjoint pieces stream (memops.h). Returns false when
 * preempted (the save area holds the bytes done).
 */
static bool
pitched_move(struct exec_env *env, uint8_t *d, const uint8_t *s,
             const struct box *db, const struct box *sb, uint64_t done)
{
	const uint64_t rb = db->row_bytes;
	const uint64_t plane = rb * db->rows;   /* < 2^48: no overflow */
	const uint64_t total = plane * db->slices;
	const bool rows_packed = db->rows == 1 ||
	                         (db->row_pitch == rb && sb->row_pitch == rb);
	const bool all_packed = rows_packed &&
	                        (db->slices == 1 ||
	                         (db->slice_pitch == plane &&
	                          sb->slice_pitch == plane));
	const uint64_t run = all_packed ? total : rows_packed ? plane : rb;
	const bool stream = total >= MEMOPS_STREAM_MIN;
	uint64_t since = 0;

	while (done < total) {
		if (since >= SWGPU_EXEC_CHUNK) {
			if (exec_preempt_point(env, done))
				break;
			since = 0;
		}
		const uint64_t r = done / run, in = done % run;
		const uint64_t n = run - in < SWGPU_EXEC_CHUNK
		                   ? run - in : SWGPU_EXEC_CHUNK;
		uint64_t doff = in, soff = in;
		if (!all_packed && rows_packed) {
			doff += r * db->slice_pitch;
			soff += r * sb->slice_pitch;
		} else if (!all_packed) {
			const uint64_t z = r / db->rows, y = r % db->rows;
			doff += z * db->slice_pitch + y * db->row_pitch;
			soff += z * sb->slice_pitch + y * sb->row_pitch;
		}
		uint8_t *dp = d + doff;
		const uint8_t *sp = s + soff;
		memops_copy(dp, sp, n,
		            stream && (dp + n <= sp || sp + n <= dp));
		done += n;
		since += n;
	}
	if (stream)
		memops_stream_done();
	return done == total;
}

/* ------------------------------------------------------------------ */
/* COPY_PITCHED                                                        */
/* ------------------------------------------------------------------ */

bool
exec_copy_pitched(struct exec_env *env, const uint32_t *pk, uint32_t len,
                  const struct pkt *p, uint32_t depth)
{
	struct box db = {
		.va = swgpu_pkt_get64(pk + 1),
		.row_pitch = swgpu_pkt_get64(pk + 3),
		.slice_pitch = swgpu_pkt_get64(pk + 5),
		.row_bytes = pk[13], .rows = pk[14], .slices = pk[15],
	};
	struct box sb = {
		.va = swgpu_pkt_get64(pk + 7),
		.row_pitch = swgpu_pkt_get64(pk + 9),
		.slice_pitch = swgpu_pkt_get64(pk + 11),
		.row_bytes = pk[13], .rows = pk[14], .slices = pk[15],
	};
	const uint64_t done = exec_resume_offset(env);
	const uint8_t *s;
	uint8_t *d;

	vaspace_read_lock(env->vs);
	s = map_box(env, p, &sb, SWGPU_VA_READ, "src");
	if (!s)
		goto fail;
	d = map_box(env, p, &db, SWGPU_VA_WRITE, "dst");
	if (!d)
		goto fail;
	bool complete = pitched_move(env, d, s, &db, &sb, done);
	vaspace_read_unlock(env->vs);
	if (!complete)
		return false; /* preempted */
	if (env->stats)
		stat_add(&env->stats->bytes_written,
		         db.row_bytes * db.rows * db.slices);
	return true;
fail:
	vaspace_read_unlock(env->vs);
	return false;
}

/* ------------------------------------------------------------------ */
/* CLEAR_BOX                                                           */
/* ------------------------------------------------------------------ */

static bool
extent_ok(uint32_t w, uint32_t h, uint32_t d)
{
	return w && h && d && w <= SWGPU_IMAGE_MAX_EXTENT &&
	       h <= SWGPU_IMAGE_MAX_EXTENT && d <= SWGPU_IMAGE_MAX_EXTENT;
}

bool
exec_clear_box(struct exec_env *env, const uint32_t *pk, uint32_t len,
               const struct pkt *p, uint32_t depth)
{
	const uint32_t format = pk[7];
	const uint32_t w = pk[8], h = pk[9], dep = pk[10];
	const swgpu_format_info *fi = swgpu_format_get_info(format);
	struct box b = {
		.va = swgpu_pkt_get64(pk + 1),
		.row_pitch = swgpu_pkt_get64(pk + 3),
		.slice_pitch = swgpu_pkt_get64(pk + 5),
		.rows = h, .slices = dep,
	};
	uint8_t blk[FORMAT_MAX_BLOCK_BYTES];
	struct texel t;
	uint8_t *d;

	if (!fi || !(fi->caps & SWGPU_FORMAT_CAP_ENCODE))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, b.va,
		                   "format %u cannot be cleared", format);
	if (!extent_ok(w, h, dep))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, b.va,
		                   "bad clear extent %ux%ux%u", w, h, dep);
	b.row_bytes = (uint64_t)w * fi->block_bytes;
	format_clear_value(fi, pk + 11, &t);
	format_encode(fi, &t, blk);

	vaspace_read_lock(env->vs);
	d = map_box(env, p, &b, SWGPU_VA_WRITE, "dst");
	if (!d) {
		vaspace_read_unlock(env->vs);
		return false;
	}
	/* Rows in order, from the rows done on (resumed) or 0: seed the
	 * first one by doubling, then copy it to the others (rows of one
	 * box never overlap: map_box checked the pitches). Every row is
	 * written once, also across a preemption. */
	const uint64_t bb = fi->block_bytes;
	const uint64_t nrows = (uint64_t)h * dep;
	uint64_t r = exec_resume_offset(env);
	uint8_t *seed = d + (r / h) * b.slice_pitch + (r % h) * b.row_pitch;
	uint64_t since = b.row_bytes;

	memcpy(seed, blk, bb);
	for (uint64_t done = bb; done < b.row_bytes;) {
		uint64_t n = b.row_bytes - done < done ? b.row_bytes - done
		                                       : done;
		memcpy(seed + done, seed, n);
		done += n;
	}
	for (r++; r < nrows; r++) {
		if (since >= SWGPU_EXEC_CHUNK) {
			if (exec_preempt_point(env, r))
				break;
			since = 0;
		}
		memcpy(d + (r / h) * b.slice_pitch + (r % h) * b.row_pitch,
		       seed, b.row_bytes);
		since += b.row_bytes;
	}
	vaspace_read_unlock(env->vs);
	if (r < nrows)
		return false; /* preempted */
	if (env->stats)
		stat_add(&env->stats->bytes_written,
		         b.row_bytes * h * dep);
	return true;
}

/* ------------------------------------------------------------------ */
/* BLIT                                                                */
/* ------------------------------------------------------------------ */

struct surf {
	uint64_t va;
	uint64_t row_pitch;
	uint64_t slice_pitch;
	const swgpu_format_info *fi;
	format_decode_fn decode;        /* chosen once per packet */
	format_encode_fn encode;
	uint32_t format;
	uint32_t ext[3];
	uint8_t *host;
};

static void
get_surf(const uint32_t *q, struct surf *s)
{
	s->va = swgpu_pkt_get64(q);
	s->row_pitch = swgpu_pkt_get64(q + 2);
	s->slice_pitch = swgpu_pkt_get64(q + 4);
	s->format = q[6];
	s->fi = swgpu_format_get_info(q[6]);
	s->decode = s->fi ? format_decoder(s->fi) : NULL;
	s->encode = s->fi ? format_encoder(s->fi) : NULL;
	s->ext[0] = q[7];
	s->ext[1] = q[8];
	s->ext[2] = q[9];
	s->host = NULL;
}

static inline uint8_t *
texel_at(const struct surf *s, uint32_t x, uint32_t y, uint32_t z)
{
	return s->host + z * s->slice_pitch + y * s->row_pitch +
	       (uint64_t)x * s->fi->block_bytes;
}

/* Texel (x, y, z) of s decoded; a compressed src decodes it from its
 * 4x4 block (rows of the surface are block rows then). */
static inline void
fetch(const struct surf *s, uint32_t x, uint32_t y, uint32_t z,
      struct texel *t)
{
	if (s->fi->caps & SWGPU_FORMAT_CAP_COMPRESSED)
		format_decode_compressed(s->fi, texel_at(s, x / 4, y / 4, z),
		                         x, y, t);
	else
		s->decode(s->fi, texel_at(s, x, y, z), t);
}

/* floor() for |f| < 2^62 without the libm call baseline x86-64 makes
 * (blit coordinates stay far below: corners are int32, extents 2^16). */
static inline double
floor_fast(double f)
{
	double t = (double)(int64_t)f;

	return t > f ? t - 1.0 : t;
}

/* Index of coordinate f clamped to [0, n - 1] (clamp to edge). */
static inline uint32_t
clamp_index(double f, uint32_t n)
{
	if (!(f > 0.0))
		return 0;
	if (f >= (double)(n - 1))
		return n - 1;
	return (uint32_t)f;
}

/* Per-axis mapping of a dst texel index to a src coordinate. */
struct axis {
	int32_t d0;             /* dst corner 0 */
	uint32_t dmin, dmax;    /* dst texels [dmin, dmax) */
	double s0, scale;
};

static void
axis_init(struct axis *a, const int32_t *sbox, const int32_t *dbox, int i)
{
	int32_t d0 = dbox[i], d1 = dbox[i + 3];

	a->d0 = d0;
	a->dmin = (uint32_t)(d0 < d1 ? d0 : d1);
	a->dmax = (uint32_t)(d0 < d1 ? d1 : d0);
	a->s0 = sbox[i];
	a->scale = d1 == d0 ? 0.0 : ((double)sbox[i + 3] - (double)sbox[i]) /
	                            ((double)d1 - (double)d0);
}

/* The spec's texel-centre mapping: src = s0 + (d + 0.5 - d0) * scale. */
static inline double
axis_src(const struct axis *a, uint32_t d)
{
	return a->s0 + ((double)d + 0.5 - (double)a->d0) * a->scale;
}

static void
lerp_texel(struct texel *out, const struct texel *a, const struct texel *b,
           double t)
{
	/* A weighted sum, not a + (b - a) * t: between two equal
	 * infinities that would compute Inf - Inf = NaN. */
	for (int c = 0; c < 4; c++)
		out->f[c] = a->f[c] * (1.0 - t) + b->f[c] * t;
}

/* Weighted texel of row y at x0/x1 (weight au for x1). */
static void
sample_row(const struct surf *s, uint32_t x0, uint32_t x1, double au,
           uint32_t y, uint32_t z, struct texel *out)
{
	struct texel t1;

	fetch(s, x0, y, z, out);
	if (au == 0.0)
		return;
	fetch(s, x1, y, z, &t1);
	lerp_texel(out, out, &t1, au);
}

static void
sample_row_pair(const struct surf *s, uint32_t x0, uint32_t x1, double au,
                uint32_t y0, uint32_t y1, double av, uint32_t z,
                struct texel *out)
{
	struct texel r1;

	sample_row(s, x0, x1, au, y0, z, out);
	if (av == 0.0)
		return;
	sample_row(s, x0, x1, au, y1, z, &r1);
	lerp_texel(out, out, &r1, av);
}

/* One axis of a linear sample: neighbours i0, i1 of coord - 0.5 (clamped
 * to the extent) and the weight a of i1. */
struct tap {
	uint32_t i0, i1;
	double a;
};

static inline void
axis_tap(double coord, uint32_t n, struct tap *t)
{
	double f = coord - 0.5;
	double b = floor_fast(f);

	t->a = f - b;
	t->i0 = clamp_index(b, n);
	t->i1 = clamp_index(b + 1.0, n);
}

/* Linear filtering with the taps of the three axes: 2x2, or 2x2x2 for
 * a src with depth. */
static void
sample_linear(const struct surf *s, const struct tap *tx,
              const struct tap *ty, const struct tap *tz, struct texel *out)
{
	struct texel plane1;

	sample_row_pair(s, tx->i0, tx->i1, tx->a, ty->i0, ty->i1, ty->a,
	                tz->i0, out);
	/* A tap of weight 0 is skipped, not multiplied by 0: an Inf or
	 * NaN neighbour must not leak into an exact texel hit. */
	if (s->ext[2] == 1 || tz->a == 0.0)
		return;
	sample_row_pair(s, tx->i0, tx->i1, tx->a, ty->i0, ty->i1, ty->a,
	                tz->i1, &plane1);
	lerp_texel(out, out, &plane1, tz->a);
}

/* Check a blit surface's formats and extent and translate its range:
 * the whole extent for the src, the dst region for the dst. */
static bool
map_surf(struct exec_env *env, const struct pkt *p, struct surf *s,
         const uint32_t lo[3], const uint32_t hi[3], uint32_t access,
         const char *side)
{
	const uint64_t bb = s->fi->block_bytes;
	const uint32_t bw = s->fi->block_width, bh = s->fi->block_height;
	struct box b = {
		.va = s->va, .row_pitch = s->row_pitch,
		.slice_pitch = s->slice_pitch,
		.row_bytes = (uint64_t)(s->ext[0] + bw - 1) / bw * bb,
		.rows = (s->ext[1] + bh - 1) / bh, .slices = s->ext[2],
	};
	const char *why = NULL;

	/* The pitches must fit the whole extent even if we touch less. */
	if (!box_span(&b, &why))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, s->va,
		                   "%s: %s", side, why);
	/* The blocks covering texels [lo, hi) (1x1 blocks: the texels). */
	const uint64_t bx0 = lo[0] / bw, by0 = lo[1] / bh;
	b.va = s->va + lo[2] * s->slice_pitch + by0 * s->row_pitch + bx0 * bb;
	b.row_bytes = ((hi[0] + bw - 1) / bw - bx0) * bb;
	b.rows = (hi[1] + bh - 1) / bh - by0;
	b.slices = hi[2] - lo[2];
	s->host = map_box(env, p, &b, access, side);
	if (!s->host)
		return false;
	/* Keep texel_at() relative to texel (0, 0, 0). */
	s->host -= b.va - s->va;
	return true;
}

/* A blit row costs per texel (decode, filter, encode): preemption points
 * come every this many texels written. */
#define BLIT_PREEMPT_TEXELS (256u * 1024u)

bool
exec_blit(struct exec_env *env, const uint32_t *pk, uint32_t len,
          const struct pkt *p, uint32_t depth)
{
	const bool linear = swgpu_pkt_flags(pk[0]) & SWGPU_BLIT_LINEAR;
	struct surf src, dst;
	int32_t sbox[6], dbox[6];
	struct axis ax[3];

	get_surf(pk + 1, &src);
	get_surf(pk + 11, &dst);
	for (int i = 0; i < 6; i++) {
		sbox[i] = (int32_t)pk[21 + i];
		dbox[i] = (int32_t)pk[27 + i];
	}
	if (!src.fi || !dst.fi || !swgpu_format_blit_source(src.format) ||
	    !(dst.fi->caps & SWGPU_FORMAT_CAP_BLIT))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dst.va,
		                   "formats %u -> %u not blittable",
		                   src.format, dst.format);
	const uint32_t cls = src.fi->blit_class;
	if (cls != dst.fi->blit_class)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dst.va,
		                   "blit %s -> %s across classes",
		                   src.fi->name, dst.fi->name);
	if ((cls == SWGPU_BLIT_CLASS_DEPTH ||
	     cls == SWGPU_BLIT_CLASS_STENCIL) && src.format != dst.format)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dst.va,
		                   "depth/stencil blit %s -> %s",
		                   src.fi->name, dst.fi->name);
	if (linear && !(src.fi->caps & SWGPU_FORMAT_CAP_FILTER_LINEAR))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dst.va,
		                   "linear blit of %s", src.fi->name);
	if (!extent_ok(src.ext[0], src.ext[1], src.ext[2]) ||
	    !extent_ok(dst.ext[0], dst.ext[1], dst.ext[2]))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dst.va,
		                   "bad blit extent %ux%ux%u -> %ux%ux%u",
		                   src.ext[0], src.ext[1], src.ext[2],
		                   dst.ext[0], dst.ext[1], dst.ext[2]);
	uint32_t lo[3], hi[3];
	bool empty = false;
	for (int i = 0; i < 3; i++) {
		int32_t a = dbox[i], b = dbox[i + 3];

		if (a < 0 || b < 0 || (uint32_t)a > dst.ext[i] ||
		    (uint32_t)b > dst.ext[i])
			return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET,
			                   dst.va, "dst region axis %d [%d, %d) "
			                   "outside extent %u", i, a, b,
			                   dst.ext[i]);
		axis_init(&ax[i], sbox, dbox, i);
		lo[i] = ax[i].dmin;
		hi[i] = ax[i].dmax;
		empty |= lo[i] == hi[i];
	}
	if (empty)
		return true;

	const uint32_t src_lo[3] = { 0, 0, 0 };
	vaspace_read_lock(env->vs);
	if (!map_surf(env, p, &src, src_lo, src.ext, SWGPU_VA_READ, "src") ||
	    !map_surf(env, p, &dst, lo, hi, SWGPU_VA_WRITE, "dst")) {
		vaspace_read_unlock(env->vs);
		return false;
	}

	const bool same = src.format == dst.format;
	const uint32_t bb = src.fi->block_bytes;
	/* Nearest, same format, unscaled and unmirrored in x, inside the
	 * src: each row is a plain copy. */
	const double ux = axis_src(&ax[0], lo[0]) - 0.5;
	const bool row_copy = same && !linear && ax[0].scale == 1.0 &&
	                      ux >= 0.0 &&
	                      ux + (hi[0] - lo[0]) <= src.ext[0];

	/* Rows in order from the rows done on (resumed); preemptible
	 * between rows once BLIT_PREEMPT_TEXELS were written. */
	const uint64_t ny = hi[1] - lo[1];
	const uint64_t row_texels = hi[0] - lo[0];
	const uint64_t first = exec_resume_offset(env);
	uint64_t since = 0;
	bool preempted = false;

	for (uint32_t z = lo[2] + (uint32_t)(first / ny);
	     z < hi[2] && !preempted; z++) {
		double w = axis_src(&ax[2], z);
		uint32_t sz = clamp_index(floor_fast(w), src.ext[2]);
		struct tap tz;
		uint32_t y0 = z == lo[2] + first / ny
		              ? lo[1] + (uint32_t)(first % ny) : lo[1];

		axis_tap(w, src.ext[2], &tz);
		for (uint32_t y = y0; y < hi[1]; y++) {
			if (since >= BLIT_PREEMPT_TEXELS) {
				uint64_t row = (uint64_t)(z - lo[2]) * ny +
				               (y - lo[1]);
				if (exec_preempt_point(env, row)) {
					preempted = true;
					break;
				}
				since = 0;
			}
			since += row_texels;
			double v = axis_src(&ax[1], y);
			uint32_t sy = clamp_index(floor_fast(v), src.ext[1]);
			uint8_t *drow = texel_at(&dst, lo[0], y, z);
			struct tap ty;

			axis_tap(v, src.ext[1], &ty);

			if (row_copy) {
				memmove(drow, texel_at(&src, (uint32_t)ux,
				                       sy, sz),
				        (uint64_t)(hi[0] - lo[0]) * bb);
				continue;
			}
			for (uint32_t x = lo[0]; x < hi[0]; x++) {
				double u = axis_src(&ax[0], x);
				uint8_t *dt = drow + (uint64_t)(x - lo[0]) *
				                     dst.fi->block_bytes;
				struct texel t;

				if (linear) {
					struct tap tx;

					axis_tap(u, src.ext[0], &tx);
					sample_linear(&src, &tx, &ty, &tz, &t);
					dst.encode(dst.fi, &t, dt);
					continue;
				}
				const uint32_t sx = clamp_index(floor_fast(u),
				                                src.ext[0]);
				if (same) {
					memmove(dt, texel_at(&src, sx, sy, sz),
					        bb);
				} else {
					fetch(&src, sx, sy, sz, &t);
					dst.encode(dst.fi, &t, dt);
				}
			}
		}
	}
	vaspace_read_unlock(env->vs);
	if (preempted)
		return false;
	if (env->stats)
		stat_add(&env->stats->bytes_written,
		         (uint64_t)(hi[0] - lo[0]) * (hi[1] - lo[1]) *
		         (hi[2] - lo[2]) * dst.fi->block_bytes);
	return true;
}
