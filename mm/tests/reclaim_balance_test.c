// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the anon/file scan balance of reclaim (get_scan_count()),
 * run through the kernel's memcg reclaim entry on a memory cgroup that holds
 * the test's folios alone (lru_memcg.c).
 *
 * Split lists let reclaim look only at folios
 * that are candidates for eviction.  Without swap, anon folios are not
 * candidates and their lists are not scanned at all; with swap, how the
 * pressure is shared follows swappiness: 0 keeps memcg reclaim off anon,
 * 200 (anon as cheap as file, MAX_SWAPPINESS) keeps it off file.
 *
 * The balance cases: 128 anon folios, written and then left unused
 * (inactive anon, PTEs old after MADV_COLD: candidates for eviction), and
 * 256 page cache folios read twice (active file, nothing on the inactive
 * file list, so that no "cache trim" mode hides the balance), then one
 * reclaim of 32 pages at the row's swappiness.  Anon that MADV_FREE made
 * lazyfree is on the file list, and reclaim without swap takes it.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/swap.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"

#define NR_ANON		128UL
#define NR_CACHE	256UL
#define TO_RECLAIM	32UL	/* SWAP_CLUSTER_MAX: the least memcg reclaim asks */
#define SPLIT		ULONG_MAX	/* some pages, as the costs decide */

struct balance_row {
	const char *desc;
	bool swap;
	int swappiness;
	unsigned long scan_anon;	/* PGSCAN_ANON, or SPLIT */
	unsigned long scan_file;	/* PGSCAN_FILE, or SPLIT */
	unsigned long refill;		/* PGREFILL, or SPLIT */
};

/*
 * What get_scan_count() promises (its comments, mm/vmscan.c): no swap,
 * SCAN_FILE; cgroup reclaim at swappiness 0, SCAN_FILE; otherwise the
 * pressure is split by swappiness against MAX_SWAPPINESS - swappiness, so
 * 60 scans both and 200 gives file a share of 0.
 *
 * The counts are the arithmetic of shrink_lruvec(): at each priority p
 * from DEF_PRIORITY down, size >> p of each list scanned, a
 * SWAP_CLUSTER_MAX chunk of each in turn, inactive before active, until a
 * chunk brings this call's reclaim to 32 with the other type left nothing
 * to scan, or a priority ends with 32 reclaimed.  File only: 256 active
 * and 0 inactive age into 48 reclaimed and 137 deactivated (the table in
 * reclaim_aging_test.c, the same lists).  Anon only (file's share 0): 128
 * inactive give 128 >> 7, 127 >> 6, 126 >> 5, 123 >> 4, 116 >> 3 and
 * 102 >> 2: 1 + 1 + 3 + 7 + 14 + 25 = 51, nothing active to age.  At 60
 * the split follows the costs reclaim notes (a page swapped out costs
 * SWAP_CLUSTER_MAX: lru_note_cost() as it goes on 6.12, the lruvec's cost[]
 * once a priority on 7.3), halved against list sizes read from statistics
 * the periodic flusher updates on its own schedule: only the direction is
 * fixed, both types scanned.
 */
static const struct balance_row balance_rows[] = {
	{ "no swap, swappiness 60", false, 60, 0, 48, 137 },
	{ "no swap, swappiness 200", false, 200, 0, 48, 137 },
	{ "swap, swappiness 0", true, 0, 0, 48, 137 },
	{ "swap, swappiness 60", true, 60, SPLIT, SPLIT, SPLIT },
	{ "swap, swappiness 200", true, 200, 51, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(balance, balance_rows, desc);

static void expect_count(struct kunit *test, unsigned long got, unsigned long want,
			 const char *what)
{
	if (want == SPLIT)
		KUNIT_EXPECT_NE_MSG(test, got, 0UL, "%s", what);
	else
		KUNIT_EXPECT_EQ_MSG(test, got, want, "%s", what);
}

/*
 * Reclaim of the test memcg scans anon and file as the row says; every
 * folio it scans on an inactive list is unused and clean or swappable, so
 * it reclaims what it scans, anon by swap-out.
 */
static void reclaim_scan_balance_follows_swap_and_swappiness(struct kunit *test)
{
	const struct balance_row *row = test->param_value;
	struct lrutest_reclaim_stat before, after;
	struct lrutest_memcg *cg;
	unsigned long reclaimed, scan_anon, scan_file;
	struct file *file;

	lrutest_swap(test, row->swap);
	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	lrutest_memcg_anon(test, NR_ANON, true);
	lrutest_memcg_read(test, cg, file, 0, NR_CACHE, 2);
	lrutest_drain();

	lrutest_memcg_stat(cg, &before);
	KUNIT_ASSERT_EQ_MSG(test, before.lru[LRU_INACTIVE_ANON], NR_ANON,
			    "set up: faulted anon on the inactive anon list");
	KUNIT_ASSERT_EQ_MSG(test, before.lru[LRU_ACTIVE_FILE], NR_CACHE,
			    "set up: page cache read twice on the active file list");
	KUNIT_ASSERT_EQ(test, before.lru[LRU_INACTIVE_FILE], 0UL);

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, row->swappiness);
	lrutest_memcg_stat(cg, &after);
	lrutest_memcg_log(test, row->desc, &before, &after);

	scan_anon = after.scan_anon - before.scan_anon;
	scan_file = after.scan_file - before.scan_file;
	expect_count(test, scan_anon, row->scan_anon, "PGSCAN_ANON");
	expect_count(test, scan_file, row->scan_file, "PGSCAN_FILE");
	expect_count(test, after.refill - before.refill, row->refill, "PGREFILL");
	KUNIT_EXPECT_EQ_MSG(test, reclaimed, scan_anon + scan_file, "reclaimed");
	lrutest_memcg_expect_stolen(test, reclaimed, &before, &after);
	if (!row->scan_anon) {
		KUNIT_EXPECT_EQ_MSG(test, lrutest_memcg_walk(cg, LRU_INACTIVE_ANON) +
				    lrutest_memcg_walk(cg, LRU_ACTIVE_ANON), NR_ANON,
				    "anon pages still on the memcg's anon lists, walked");
		KUNIT_EXPECT_EQ(test, after.lru[LRU_INACTIVE_ANON], NR_ANON);
	}
	if (!row->scan_file)
		KUNIT_EXPECT_EQ_MSG(test, after.lru[LRU_ACTIVE_FILE], NR_CACHE,
				    "active file pages after reclaim that scans no file");
	lrutest_vm_end(test);
}

/*
 * MADV_FREE makes anon folios lazyfree: clean, no longer swap-backed and on
 * the inactive file list (lru_lazyfree()), so reclaim without swap, which
 * scans file only (SCAN_FILE), still takes them, and shrink_folio_list()
 * drops each without writing it (PGLAZYFREED).  16 lazyfree and 16
 * swap-backed anon folios, one reclaim of 32: it goes down to priority 0,
 * which scans the whole inactive file list, so it scans and drops all 16
 * lazyfree folios and never looks at the anon list.
 */
static void reclaim_without_swap_drops_lazyfree_anon_only(struct kunit *test)
{
	const unsigned long nr = 16;
	struct lrutest_reclaim_stat b, a;
	unsigned long freed, reclaimed;
	struct lrutest_memcg *cg;

	lrutest_swap(test, false);
	cg = lrutest_memcg_create(test);
	lrutest_memcg_anon(test, nr, true);
	lrutest_memcg_lazyfree(test, nr);
	/* MADV_FREE queues each folio in this CPU's lru_lazyfree batch. */
	lrutest_drain();
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ_MSG(test, b.lru[LRU_INACTIVE_FILE], nr, "set up: lazyfree folios");
	KUNIT_ASSERT_EQ_MSG(test, b.lru[LRU_INACTIVE_ANON], nr, "set up: swap-backed folios");
	freed = lrutest_vm_event(PGLAZYFREED);

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "16 lazyfree and 16 swap-backed anon, no swap", &b, &a);

	KUNIT_EXPECT_EQ(test, reclaimed, nr);
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PGLAZYFREED) - freed, nr);
	KUNIT_EXPECT_EQ(test, a.scan_file - b.scan_file, nr);
	KUNIT_EXPECT_EQ(test, a.scan_anon - b.scan_anon, 0UL);
	lrutest_memcg_expect_stolen(test, reclaimed, &b, &a);
	KUNIT_EXPECT_EQ(test, lrutest_stat_file(&a), 0UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_ANON], nr);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_memcg_walk(cg, LRU_INACTIVE_ANON), nr,
			    "swap-backed folios still on the memcg's inactive anon list, walked");
	lrutest_vm_end(test);
}

static struct kunit_case reclaim_balance_cases[] = {
	KUNIT_CASE_PARAM(reclaim_scan_balance_follows_swap_and_swappiness,
			 balance_gen_params),
	KUNIT_CASE(reclaim_without_swap_drops_lazyfree_anon_only),
	{}
};

static struct kunit_suite reclaim_balance_suite = {
	.name = "mm_reclaim_balance",
	.init = lrutest_memcg_classic_init,
	.test_cases = reclaim_balance_cases,
};

kunit_test_suite(reclaim_balance_suite);

MODULE_DESCRIPTION("KUnit tests of reclaim's anon/file scan balance on a test memcg");
MODULE_LICENSE("GPL");
