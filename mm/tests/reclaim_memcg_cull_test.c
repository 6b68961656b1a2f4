// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of culling through the kernel's own reclaim: folios of an
 * SHM_LOCKed segment, still on the anon list they were faulted to (SHM_LOCK
 * moves no folio, Documentation/mm/unevictable-lru.rst), are met by memcg
 * reclaim of a test memory cgroup (lru_memcg.c), culled to LRU_UNEVICTABLE
 * once each (UNEVICTABLE_PGCULLED), and cost the next reclaim nothing.
 *
 * The article's third claim as a cost table: N = 128 evictable anon folios
 * and M = 0, 10 N, 100 N locked ones, all charged to the test memcg, swap
 * on, swappiness 200 (anon only).  The locked folios were faulted first, so
 * they are the oldest: the first reclaim of 32 scans all M (and culls them)
 * before it reclaims; the second scans only what it reclaims, whatever M.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/shm.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <uapi/linux/shm.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define NR_EVICTABLE	128UL
#define TO_RECLAIM	32UL

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
	unsigned long culled, scanned, r1, r2, s1, s2;
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
	}
	lrutest_memcg_anon(test, NR_EVICTABLE, true);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ_MSG(test, b.lru[LRU_INACTIVE_ANON], m + NR_EVICTABLE,
			    "set up: SHM_LOCK moved no folio off the anon list");
	KUNIT_ASSERT_EQ(test, b.lru[LRU_UNEVICTABLE], 0UL);

	culled = lrutest_event(UNEVICTABLE_PGCULLED);
	scanned = lrutest_event(PGSCAN_ANON);
	r1 = lrutest_memcg_reclaim(cg, TO_RECLAIM, MAX_SWAPPINESS);
	/* Culled folios are put back through the LRU batch: drain it. */
	lrutest_drain();
	s1 = lrutest_event(PGSCAN_ANON) - scanned;
	KUNIT_EXPECT_EQ_MSG(test, lrutest_event(UNEVICTABLE_PGCULLED) - culled, m,
			    "first reclaim: PGCULLED");
	KUNIT_EXPECT_GE(test, r1, TO_RECLAIM);
	KUNIT_EXPECT_EQ_MSG(test, s1, m + r1,
			    "first reclaim: scanned = the locked folios once + what it reclaimed");
	lrutest_memcg_stat(cg, &b);
	KUNIT_EXPECT_EQ_MSG(test, b.lru[LRU_UNEVICTABLE], m,
			    "the memcg's unevictable pages after the first reclaim");
	KUNIT_EXPECT_EQ(test, b.lru[LRU_INACTIVE_ANON] + b.lru[LRU_ACTIVE_ANON],
			NR_EVICTABLE - r1);

	culled = lrutest_event(UNEVICTABLE_PGCULLED);
	scanned = lrutest_event(PGSCAN_ANON);
	r2 = lrutest_memcg_reclaim(cg, TO_RECLAIM, MAX_SWAPPINESS);
	lrutest_drain();
	s2 = lrutest_event(PGSCAN_ANON) - scanned;
	KUNIT_EXPECT_EQ_MSG(test, lrutest_event(UNEVICTABLE_PGCULLED) - culled, 0UL,
			    "second reclaim culled again");
	KUNIT_EXPECT_GE(test, r2, TO_RECLAIM);
	KUNIT_EXPECT_EQ_MSG(test, s2, r2,
			    "second reclaim: scanned only what it reclaimed");
	kunit_info(test, "N=%lu M=%lu: first reclaim scanned %lu (reclaimed %lu, culled %lu); second scanned %lu (reclaimed %lu)\n",
		   NR_EVICTABLE, m, s1, r1, m, s2, r2);
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
