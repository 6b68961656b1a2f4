// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of culling through the kernel's own reclaim: folios of an
 * SHM_LOCKed segment, still on the anon list they were faulted to (SHM_LOCK
 * moves no folio, Documentation/mm/unevictable-lru.rst), are met by memcg
 * reclaim of a test memory cgroup (lru_memcg.c), culled to LRU_UNEVICTABLE
 * once each (UNEVICTABLE_PGCULLED), and cost the next reclaim nothing.
 *
 * The article's third claim as a cost table: N = 256 evictable anon folios
 * and M = 0, 10 N, 100 N locked ones, all charged to the test memcg, swap
 * on, swappiness 200, three reclaims of 32 in a row.  The locked folios were
 * faulted and made cold first, so they are the first reclaim meets, on the
 * classic LRU (the inactive list's tail) and on the multi-gen LRU (the same
 * generation as the evictable ones, max_seq - 1, nearer its tail): every
 * folio a reclaim scans is culled or reclaimed,
 * each locked folio is culled once over the three, and the last reclaim
 * culls nothing and scans only what it reclaims, whatever M.  On the classic
 * LRU the first reclaim pays for all M; on the multi-gen LRU a reclaim may
 * stop at its scan budget and leave the rest to the next.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/shm.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <uapi/linux/shm.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define NR_EVICTABLE	256UL
#define TO_RECLAIM	32UL
#define ROUNDS		3	/* reclaims in a row */

struct cull_row {
	const char *desc;
	unsigned long locked;	/* M, pages of the SHM_LOCKed segment */
};

static const struct cull_row cull_rows[] = {
	{ "M = 0", 0 },
	{ "M = 10 N", 10 * NR_EVICTABLE },
	{ "M = 100 N", 100 * NR_EVICTABLE },
};

KUNIT_ARRAY_PARAM_DESC(cull, cull_rows, desc);

static void memcg_reclaim_culls_locked_folios_once(struct kunit *test)
{
	const struct cull_row *row = test->param_value;
	const unsigned long m = row->locked;
	unsigned long culled, scanned, r[ROUNDS], s[ROUNDS], c[ROUNDS];
	unsigned long total_culled = 0, total_reclaimed = 0;
	unsigned int i;
	struct lrutest_reclaim_stat b;
	struct lrutest_shm *seg = NULL;
	struct lrutest_memcg *cg;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	if (m) {
		seg = lrutest_shm_create(test, m);
		lrutest_shm_attach(test, seg);
		lrutest_shm_touch(test, seg);
		KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_LOCK), 0L);
		/*
		 * Unused since (MADV_COLD, as lrutest_memcg_anon() does to the
		 * evictable ones after): first in line on both LRUs, at the
		 * tail of the classic inactive list and of the multi-gen LRU
		 * generation that the evictable ones join after them.
		 * SHM_LOCK sets no VM_LOCKED to refuse MADV_COLD.
		 */
		KUNIT_ASSERT_EQ(test, do_madvise(current->mm, seg->addr,
						 m * PAGE_SIZE, MADV_COLD), 0);
	}
	lrutest_memcg_anon(test, NR_EVICTABLE, true);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ_MSG(test, b.lru[LRU_INACTIVE_ANON] + b.lru[LRU_ACTIVE_ANON],
			    m + NR_EVICTABLE,
			    "set up: SHM_LOCK moved no folio off the anon lists");
	KUNIT_ASSERT_EQ(test, b.lru[LRU_UNEVICTABLE], 0UL);

	for (i = 0; i < ROUNDS; i++) {
		culled = lrutest_event(UNEVICTABLE_PGCULLED);
		scanned = lrutest_event(PGSCAN_ANON);
		r[i] = lrutest_memcg_reclaim(cg, TO_RECLAIM, MAX_SWAPPINESS);
		/* Culled folios are put back through the LRU batch: drain it. */
		lrutest_drain();
		s[i] = lrutest_event(PGSCAN_ANON) - scanned;
		c[i] = lrutest_event(UNEVICTABLE_PGCULLED) - culled;
		kunit_info(test, "N=%lu M=%lu: reclaim %u scanned %lu, culled %lu, reclaimed %lu\n",
			   NR_EVICTABLE, m, i + 1, s[i], c[i], r[i]);
		KUNIT_EXPECT_EQ_MSG(test, s[i], c[i] + r[i],
				    "reclaim %u: every folio scanned is culled or reclaimed",
				    i + 1);
		total_culled += c[i];
		total_reclaimed += r[i];
	}
	lrutest_memcg_stat(cg, &b);
	KUNIT_EXPECT_EQ_MSG(test, total_culled, m,
			    "PGCULLED over the reclaims: each locked folio once");
	KUNIT_EXPECT_EQ_MSG(test, b.lru[LRU_UNEVICTABLE], m,
			    "the memcg's unevictable pages after the reclaims");
	KUNIT_EXPECT_EQ(test, b.lru[LRU_INACTIVE_ANON] + b.lru[LRU_ACTIVE_ANON],
			NR_EVICTABLE - total_reclaimed);
	KUNIT_EXPECT_EQ_MSG(test, c[ROUNDS - 1], 0UL, "the last reclaim culled again");
	KUNIT_EXPECT_GE(test, r[ROUNDS - 1], TO_RECLAIM);
	/*
	 * The classic LRU's reclaim pays for all M in its first call (it
	 * keeps scanning the inactive list until it has reclaimed); the
	 * multi-gen LRU's may stop at its scan budget and leave the rest of
	 * the oldest generation to the next call.
	 */
	if (!lru_gen_enabled()) {
		KUNIT_EXPECT_EQ_MSG(test, c[0], m, "first reclaim: PGCULLED");
		KUNIT_EXPECT_GE(test, r[0], TO_RECLAIM);
	}
	if (seg)
		lrutest_shm_destroy(test, seg);
	lrutest_vm_end(test);
}

static struct kunit_case reclaim_memcg_cull_cases[] = {
	KUNIT_CASE_PARAM(memcg_reclaim_culls_locked_folios_once, cull_gen_params),
	{}
};

static struct kunit_suite reclaim_memcg_cull_suite = {
	.name = "mm_reclaim_memcg_cull",
	.init = lrutest_vm_init,
	.test_cases = reclaim_memcg_cull_cases,
};

kunit_test_suite(reclaim_memcg_cull_suite);

MODULE_DESCRIPTION("KUnit tests of culling SHM_LOCKed folios through memcg reclaim");
MODULE_LICENSE("GPL");
