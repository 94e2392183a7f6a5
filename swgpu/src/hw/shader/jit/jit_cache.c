/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's cache key and on-disk cache of object files
 * (jit_cache.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <llvm/Config/llvm-config.h>

#include "hw/shader/ir_live.h"
#include "jit_cache.h"
#include "util/util.h"

struct jit_cache_stats jit_cache_counters;

void
jit_cache_stat_add(uint64_t *field)
{
	__atomic_add_fetch(field, 1, __ATOMIC_RELAXED);
}

void
jit_cache_stats_get(struct jit_cache_stats *out)
{
	const uint64_t *src = (const uint64_t *)&jit_cache_counters;
	uint64_t *dst = (uint64_t *)out;

	for (size_t i = 0; i < sizeof(*out) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

/* ---- hashing: FNV-1a, 128 bits for keys, 64 for checksums ---- */

typedef unsigned __int128 u128;

static u128
fnv128_init(void)
{
	return ((u128)0x6c62272e07bb0142ull << 64) | 0x62b821756295c58dull;
}

static u128
fnv128(u128 h, const void *data, size_t n)
{
	const u128 prime = ((u128)1 << 88) | 0x13bu;
	const uint8_t *p = data;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * prime;
	return h;
}

static u128
fnv128_u32(u128 h, uint32_t v)
{
	return fnv128(h, &v, sizeof(v));
}

static u128
fnv128_str(u128 h, const char *s)
{
	return fnv128(h, s, strlen(s) + 1);
}

uint64_t
jit_cache_checksum(const void *data, size_t n)
{
	const uint8_t *p = data;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* ---- the driver build: the GNU build id of our own binary ---- */

static uint8_t build_id[64];
static size_t build_id_len;
static pthread_once_t build_id_once = PTHREAD_ONCE_INIT;

static int
find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t me = (uintptr_t)data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || me < start ||
		    me >= start + ph->p_memsz)
			continue;
		/* our object: walk its notes */
		for (int k = 0; k < info->dlpi_phnum; k++) {
			const ElfW(Phdr) *nh = &info->dlpi_phdr[k];
			const uint8_t *n, *end;

			if (nh->p_type != PT_NOTE)
				continue;
			n = (const uint8_t *)(info->dlpi_addr + nh->p_vaddr);
			end = n + nh->p_memsz;
			while (n + sizeof(ElfW(Nhdr)) <= end) {
				const ElfW(Nhdr) *h = (const void *)n;
				size_t name = (h->n_namesz + 3) & ~3u;
				size_t desc = (h->n_descsz + 3) & ~3u;
				const uint8_t *d = n + sizeof(*h) + name;

				if (h->n_type == NT_GNU_BUILD_ID &&
				    h->n_namesz == 4 &&
				    !memcmp(n + sizeof(*h), "GNU", 4) &&
				    h->n_descsz <= sizeof(build_id) &&
				    d + h->n_descsz <= end) {
					memcpy(build_id, d, h->n_descsz);
					build_id_len = h->n_descsz;
					return 1;
				}
				n += sizeof(*h) + name + desc;
			}
		}
		return 1;
	}
	return 0;
}

static void
build_id_init(void)
{
	dl_iterate_phdr(find_build_id, (void *)(uintptr_t)&find_build_id);
	if (!build_id_len) {
		/* no build id (linked without --build-id): the build time
		 * stands in, so a rebuilt driver still misses */
		static const char when[] = __DATE__ " " __TIME__;

		memcpy(build_id, when, sizeof(when));
		build_id_len = sizeof(when);
		swgpu_log("jit: the driver has no GNU build id; the shader "
		          "cache keys on its build time");
	}
}

/* No CPU here: reading it would initialize LLVM at device enumeration;
 * entries of another CPU never match a key of this one anyway. */
void
jit_cache_build_uuid(uint8_t uuid[16])
{
	u128 h = fnv128_init();

	pthread_once(&build_id_once, build_id_init);
	h = fnv128_str(h, "swgpu pipeline cache");
	h = fnv128_u32(h, JIT_COMPILER_VERSION);
	h = fnv128_u32(h, JIT_ENTRY_VERSION);
	h = fnv128_str(h, LLVM_VERSION_STRING);
	h = fnv128(h, build_id, build_id_len);
	for (int i = 0; i < 16; i++)
		uuid[i] = (uint8_t)(h >> (8 * i));
}

/* ---- the key ---- */

static u128
hash_array(u128 h, const void *data, size_t n, size_t elem)
{
	h = fnv128_u32(h, (uint32_t)n);
	return data && n ? fnv128(h, data, n * elem) : h;
}

/* The host CPU's name and features, asked of LLVM once: building the
 * feature string costs tens of microseconds, and every pipeline's key
 * needs it (a CTS case creating thousands of pipelines spent 8 % of its
 * time there). */
static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static char *host_cpu, *host_features;

static void
host_init(void)
{
	host_cpu = LLVMGetHostCPUName();
	host_features = LLVMGetHostCPUFeatures();
}

void
jit_cache_key_make(const struct ir_program *p, uint32_t lanes,
                   struct jit_cache_key *key)
{
	u128 h = fnv128_init();

	pthread_once(&build_id_once, build_id_init);
	pthread_once(&host_once, host_init);
	h = fnv128_u32(h, JIT_COMPILER_VERSION);
	h = fnv128_u32(h, lanes);
	h = fnv128_str(h, LLVM_VERSION_STRING);
	h = fnv128_str(h, host_cpu ? host_cpu : "");
	h = fnv128_str(h, host_features ? host_features : "");
	h = fnv128(h, build_id, build_id_len);
	/* the program: instructions field by field (no padding hashed) */
	h = fnv128_u32(h, p->stage);
	h = fnv128_u32(h, p->ninstr);
	for (uint32_t i = 0; i < p->ninstr; i++) {
		const struct ir_instr *in = &p->code[i];
		const uint32_t f[7] = {
			in->op | (uint32_t)in->aux << 16 |
			(uint32_t)in->aux2 << 24,
			in->dst, in->a, in->b, in->c, in->d, in->imm
		};

		h = fnv128(h, f, sizeof(f));
	}
	h = fnv128_u32(h, p->nblocks);
	for (uint32_t i = 0; i < p->nblocks; i++) {
		h = fnv128_u32(h, p->blocks[i].first);
		h = fnv128_u32(h, p->blocks[i].count);
	}
	h = hash_array(h, p->table, p->ntable, sizeof(*p->table));
	h = hash_array(h, p->const_regs, p->nconsts, sizeof(uint32_t));
	h = hash_array(h, p->const_vals, p->nconsts, sizeof(uint32_t));
	const uint32_t scalars[] = {
		p->nregs, p->nbuffers, p->local_size[0], p->local_size[1],
		p->local_size[2], p->subgroup_size, p->shared_bytes,
		p->push_bytes, p->uses_barrier, p->uses_subgroup,
		p->uses_atomics, (uint32_t)p->builtins_used,
		(uint32_t)(p->builtins_used >> 32)
	};
	h = fnv128(h, scalars, sizeof(scalars));
	/* what is read after the program decides which registers compiled
	 * loops keep up to date (ir_live.h) */
	uint8_t *exit_regs = malloc(p->nregs ? p->nregs : 1);

	h = fnv128_u32(h, p->outputs_only);
	if (exit_regs) {
		ir_live_exit_regs(p, exit_regs);
		h = fnv128(h, exit_regs, p->nregs);
		free(exit_regs);
	} else {
		h = fnv128(h, &p->io, sizeof(p->io));
	}
	for (int i = 0; i < 16; i++)
		key->b[i] = (uint8_t)(h >> (8 * i));
}

void
jit_cache_key_hex(const struct jit_cache_key *key, char out[33])
{
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", key->b[i]);
}

/* ---- knobs ---- */

static char *cache_dir;
static uint64_t cache_max = 256ull << 20;
static pthread_once_t knob_once = PTHREAD_ONCE_INIT;

/* mkdir -p of path (modifiable copy); false on an error. */
static bool
make_dirs(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		int r = mkdir(path, 0755);
		*s = '/';
		if (r && errno != EEXIST)
			return false;
	}
	return !mkdir(path, 0755) || errno == EEXIST;
}

static void
knob_init(void)
{
	const char *on = getenv("SWGPU_SHADER_CACHE");
	const char *dir = getenv("SWGPU_SHADER_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	uint64_t mb;
	char buf[4096];

	if (swgpu_env_u64("SWGPU_SHADER_CACHE_MAX_MB", &mb))
		cache_max = mb << 20;
	if (on && !strcmp(on, "0"))
		return;
	if (dir && *dir)
		snprintf(buf, sizeof(buf), "%s", dir);
	else if (xdg && *xdg == '/')
		snprintf(buf, sizeof(buf), "%s/swgpu", xdg);
	else if (home && *home == '/')
		snprintf(buf, sizeof(buf), "%s/.cache/swgpu", home);
	else {
		swgpu_log("jit: no SWGPU_SHADER_CACHE_DIR, XDG_CACHE_HOME or "
		          "HOME: no shader disk cache");
		return;
	}
	if (!make_dirs(buf)) {
		swgpu_log("jit: cannot create the shader cache directory "
		          "%s (%s): no shader disk cache", buf,
		          strerror(errno));
		return;
	}
	cache_dir = strdup(buf);
}

void
jit_cache_fini(void)
{
	free(cache_dir);
	cache_dir = NULL;
	/* unloading: nothing makes a key after this */
	LLVMDisposeMessage(host_cpu);
	LLVMDisposeMessage(host_features);
	host_cpu = host_features = NULL;
}

const char *
jit_cache_dir(void)
{
	pthread_once(&knob_once, knob_init);
	return cache_dir;
}

uint64_t
jit_cache_max_bytes(void)
{
	pthread_once(&knob_once, knob_init);
	return cache_max;
}

/* ---- entries ---- */

#define entry_header jit_entry_header

static void
entry_path(char *out, size_t n, const char *dir,
           const struct jit_cache_key *key)
{
	char hex[33];

	jit_cache_key_hex(key, hex);
	snprintf(out, n, "%s/%s.o", dir, hex);
}

static void
entry_reject(const char *path, const char *why)
{
	jit_cache_stat_add(&jit_cache_counters.disk_corrupt);
	swgpu_log("jit: shader cache entry %s is %s; ignoring it", path, why);
	unlink(path);
}

bool
jit_cache_has(const char *dir, const struct jit_cache_key *key)
{
	char path[4200];

	entry_path(path, sizeof(path), dir, key);
	return access(path, R_OK) == 0;
}

void *
jit_cache_load(const char *dir, const struct jit_cache_key *key,
               size_t *size)
{
	char path[4200];
	struct entry_header h;
	struct stat st;
	void *data = NULL;
	FILE *f;

	entry_path(path, sizeof(path), dir, key);
	f = fopen(path, "rb");
	if (!f) {
		jit_cache_stat_add(&jit_cache_counters.disk_misses);
		return NULL;
	}
	if (fstat(fileno(f), &st) || fread(&h, sizeof(h), 1, f) != 1) {
		entry_reject(path, "truncated (no header)");
		goto miss;
	}
	if (h.magic != JIT_ENTRY_MAGIC || h.version != JIT_ENTRY_VERSION ||
	    memcmp(h.key, key->b, 16)) {
		entry_reject(path, "not an entry of this format or key");
		goto miss;
	}
	if (h.size == 0 || (uint64_t)st.st_size != sizeof(h) + h.size) {
		entry_reject(path, "truncated (size mismatch)");
		goto miss;
	}
	data = malloc(h.size);
	if (!data || fread(data, 1, h.size, f) != h.size) {
		entry_reject(path, "unreadable");
		goto miss;
	}
	if (jit_cache_checksum(data, h.size) != h.checksum) {
		entry_reject(path, "corrupt (checksum mismatch)");
		goto miss;
	}
	fclose(f);
	utimensat(AT_FDCWD, path, NULL, 0);   /* recently used */
	*size = h.size;
	jit_cache_stat_add(&jit_cache_counters.disk_hits);
	return data;
miss:
	free(data);
	fclose(f);
	jit_cache_stat_add(&jit_cache_counters.disk_misses);
	return NULL;
}

struct lru_entry {
	char name[40];
	uint64_t bytes;
	struct timespec used;
};

static int
lru_cmp(const void *a, const void *b)
{
	const struct lru_entry *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Past the cap, entries are deleted down to 3/4 of it: trimmed to the
 * cap exactly, a full cache scanned the directory again at every store
 * (each one pushed the estimate over the cap), 50,000 stats per compile
 * in a cache the CTS had filled. */
static uint64_t
evict_target(uint64_t max_bytes)
{
	return max_bytes - max_bytes / 4;
}

/* Delete least recently used entries of dir (ours: 32 hex + ".o")
 * until they total at most evict_target(max_bytes), when they total
 * more than max_bytes; the total left. */
static uint64_t
evict(const char *dir, uint64_t max_bytes)
{
	DIR *d = opendir(dir);
	struct lru_entry *e = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	struct dirent *de;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[4200];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		/* a temporary file a process left when it died writing:
		 * gone after an hour (a live writer renames it in ms) */
		if (strlen(de->d_name) > 34 &&
		    !strncmp(de->d_name + 32, ".o.tmp.", 7)) {
			if (!stat(path, &st) &&
			    st.st_mtim.tv_sec + 3600 < time(NULL))
				unlink(path);
			continue;
		}
		if (strlen(de->d_name) != 34 ||
		    strcmp(de->d_name + 32, ".o"))
			continue;
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct lru_entry *ne = realloc(e, nc * sizeof(*e));

			if (!ne)
				break;
			e = ne;
			cap = nc;
		}
		snprintf(e[n].name, sizeof(e[n].name), "%s", de->d_name);
		e[n].bytes = (uint64_t)st.st_size;
		e[n].used = st.st_mtim;
		total += e[n].bytes;
		n++;
	}
	closedir(d);
	if (total > max_bytes) {
		const uint64_t target = evict_target(max_bytes);

		qsort(e, n, sizeof(*e), lru_cmp);
		for (size_t i = 0; i < n && total > target; i++) {
			char path[4200];

			snprintf(path, sizeof(path), "%s/%s", dir, e[i].name);
			if (!unlink(path)) {
				total -= e[i].bytes;
				jit_cache_stat_add(&jit_cache_counters.evictions);
			}
		}
	}
	free(e);
	return total;
}

/* The directory's size as this process last saw it, plus what it has
 * stored since: eviction scans the whole directory (readdir + stat of
 * every entry; a shared cache holds thousands), so a store scans only
 * when the estimate passes the cap, on the first store, or every
 * SCAN_EVERY stores (other processes write into the directory too). */
#define SCAN_EVERY 64u
static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;
static char scan_dir[4096];
static uint64_t scan_bytes;
static uint32_t scan_stores;

static void
evict_if_needed(const char *dir, uint64_t max_bytes, uint64_t added)
{
	pthread_mutex_lock(&scan_lock);
	if (strcmp(scan_dir, dir) || scan_bytes + added > max_bytes ||
	    ++scan_stores >= SCAN_EVERY) {
		scan_bytes = evict(dir, max_bytes);
		snprintf(scan_dir, sizeof(scan_dir), "%s", dir);
		scan_stores = 0;
	} else {
		scan_bytes += added;
	}
	pthread_mutex_unlock(&scan_lock);
}

bool
jit_cache_store(const char *dir, const struct jit_cache_key *key,
                const void *data, size_t size, uint64_t max_bytes)
{
	static uint32_t seq;
	char path[4200], tmp[4300];
	struct entry_header h = {
		.magic = JIT_ENTRY_MAGIC, .version = JIT_ENTRY_VERSION,
		.size = size, .checksum = jit_cache_checksum(data, size),
	};
	FILE *f;
	bool ok;

	if (sizeof(h) + size > max_bytes)
		return false;        /* would evict everything, itself too */
	memcpy(h.key, key->b, 16);
	entry_path(path, sizeof(path), dir, key);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%u", path, (long)getpid(),
	         __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
	f = fopen(tmp, "wb");
	if (!f) {
		swgpu_log("jit: cannot write the shader cache entry %s: %s",
		          tmp, strerror(errno));
		return false;
	}
	ok = fwrite(&h, sizeof(h), 1, f) == 1 &&
	     fwrite(data, 1, size, f) == size;
	ok = !fclose(f) && ok;
	if (!ok || rename(tmp, path)) {
		swgpu_log("jit: cannot write the shader cache entry %s: %s",
		          path, strerror(errno));
		unlink(tmp);
		return false;
	}
	jit_cache_stat_add(&jit_cache_counters.disk_stores);
	evict_if_needed(dir, max_bytes, sizeof(h) + size);
	return true;
}
