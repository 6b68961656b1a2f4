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
 * lazyfree is on the file list, and reclaim without swap takes it.  The
 * split itself is checked on get_scan_count() for list sizes and costs the
 * test sets.
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
 * once a priority on 7.3), which follow statistics the periodic flusher
 * updates on its own schedule (both kernels halve the costs against list
 * sizes read from them, and 7.3 also builds the costs from them): only the
 * direction is fixed here, both types scanned;
 * get_scan_count_splits_by_cost_and_swappiness checks the split itself.
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

/*
 * get_scan_count() itself, for list sizes, costs, swappiness and priority
 * the test chooses: in a reclaim run the costs follow memcg statistics
 * that are flushed on a timer, so the split at swappiness 60 above is not
 * repeatable, while the arithmetic is.  Sizes in pages, on the test
 * memcg's lists (get_scan_count() reads the memcg's per-zone sizes), each
 * list its own size so that reading the wrong one shows.
 */
static const unsigned long split_sizes[NR_LRU_LISTS] = {
	[LRU_INACTIVE_ANON] = 4096,
	[LRU_ACTIVE_ANON] = 2048,
	[LRU_INACTIVE_FILE] = 1024,
	[LRU_ACTIVE_FILE] = 8192,
};

struct split_row {
	const char *desc;
	bool swap;
	int priority;
	int swappiness;
	unsigned long anon_cost;
	unsigned long file_cost;
	unsigned long nr[NR_LRU_LISTS];	/* pages to scan of each evictable list */
};

/*
 * What get_scan_count() computes (its comments and code): no swap, or
 * cgroup reclaim at swappiness 0, scans file only (SCAN_FILE; at swappiness
 * 0 the SCAN_FRACT split would give anon nothing too, ap being 0, so that
 * row cannot tell the two apart); at priority
 * 0 each list is scanned whole (SCAN_EQUAL); otherwise each list's size >>
 * priority is split by SCAN_FRACT.  With a and f the anon and file costs,
 * each type is charged its own cost plus the total, A = 2a + f and
 * F = a + 2f, so that no type gets less than a third of the pressure before
 * swappiness; T = A + F, ap = swappiness * (T + 1) / (A + 1), fp = (200 -
 * swappiness) * (T + 1) / (F + 1), and an anon list gets (size >> priority)
 * * ap / (ap + fp), a file list the same with fp, rounded down (the memcg
 * is online).  At priority 2 the lists are 1024, 512, 256 and 2048 pages.
 * A cost of 32 is one page written to swap (SWAP_CLUSTER_MAX per IO).
 * Anon-only proactive reclaim (SWAPPINESS_ANON_ONLY, where the kernel has
 * it) scans anon only (SCAN_ANON).
 */
static const struct split_row split_rows[] = {
	{ "swappiness 60, no cost: ap 60, fp 140", true, 2, 60, 0, 0,
	  { 307, 153, 179, 1433 } },
	{ "swappiness 60, anon cost 32: ap 89, fp 411", true, 2, 60, 32, 0,
	  { 182, 91, 210, 1683 } },
	{ "swappiness 60, file cost 32: ap 176, fp 208", true, 2, 60, 0, 32,
	  { 469, 234, 138, 1109 } },
	{ "swappiness 100, equal costs: ap 199, fp 199", true, 2, 100, 50, 50,
	  { 512, 256, 128, 1024 } },
	{ "swappiness 100, anon cost 1000000: a third to anon, ap 149, fp 299",
	  true, 2, 100, 1000000, 0, { 340, 170, 170, 1366 } },
	{ "swappiness 200: ap 200, fp 0", true, 2, 200, 0, 0,
	  { 1024, 512, 0, 0 } },
	{ "priority 10, swappiness 60: 4, 2, 1, 8 pages rounded down", true, 10, 60, 0, 0,
	  { 1, 0, 0, 5 } },
	{ "swappiness 0: anon 0", true, 2, 0, 0, 0,
	  { 0, 0, 256, 2048 } },
	{ "priority 0: SCAN_EQUAL", true, 0, 60, 32, 0,
	  { 4096, 2048, 1024, 8192 } },
	{ "no swap: SCAN_FILE", false, 2, 60, 0, 0,
	  { 0, 0, 256, 2048 } },
	{ "anon only: SCAN_ANON", true, 2, MAX_SWAPPINESS + 1, 0, 0,
	  { 1024, 512, 0, 0 } },
};

KUNIT_ARRAY_PARAM_DESC(split, split_rows, desc);

struct split_lists {
	struct lruvec *lruvec;
	int zid;
};

/* Move each of @sl's lists by @sign times its size in split_sizes[]. */
static void split_move(struct split_lists *sl, long sign)
{
	enum lru_list lru;

	spin_lock_irq(&sl->lruvec->lru_lock);
	for_each_evictable_lru(lru)
		mem_cgroup_update_lru_size(sl->lruvec, lru, sl->zid,
					   sign * (long)split_sizes[lru]);
	spin_unlock_irq(&sl->lruvec->lru_lock);
}

static void split_lists_release(void *data)
{
	split_move(data, -1);
}

static void get_scan_count_splits_by_cost_and_swappiness(struct kunit *test)
{
	const struct split_row *row = test->param_value;
	unsigned long nr[NR_LRU_LISTS] = {};
	struct lrutest_memcg *cg;
	struct split_lists *sl;
	struct pglist_data *pgdat;
	enum lru_list lru;

#ifndef SWAPPINESS_ANON_ONLY
	if (row->swappiness > MAX_SWAPPINESS)
		kunit_skip(test,
			   "this kernel has no SWAPPINESS_ANON_ONLY (anon-only proactive reclaim)");
#endif
	lrutest_swap(test, row->swap);
	cg = lrutest_memcg_create(test);
	sl = kunit_kzalloc(test, sizeof(*sl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sl);
	sl->lruvec = cg->lruvec;
	pgdat = lruvec_pgdat(cg->lruvec);
	/* lruvec_lru_size() counts managed zones only. */
	for (sl->zid = 0; sl->zid < MAX_NR_ZONES; sl->zid++)
		if (managed_zone(&pgdat->node_zones[sl->zid]))
			break;
	KUNIT_ASSERT_LT(test, sl->zid, MAX_NR_ZONES);
	for_each_evictable_lru(lru)
		KUNIT_ASSERT_EQ_MSG(test, lrutest_lruvec_zone_pages(cg->lruvec, lru), 0UL,
				    "set up: the new memcg's %s list", lrutest_lru_names[lru]);

	split_move(sl, 1);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, split_lists_release, sl));
	get_scan_count_for_kunit(cg->lruvec, row->priority, row->swappiness,
				 row->anon_cost, row->file_cost, nr);

	for_each_evictable_lru(lru)
		KUNIT_EXPECT_EQ_MSG(test, nr[lru], row->nr[lru], "%s: pages to scan of %s",
				    row->desc, lrutest_lru_names[lru]);
}

static struct kunit_case reclaim_balance_cases[] = {
	KUNIT_CASE_PARAM(reclaim_scan_balance_follows_swap_and_swappiness,
			 balance_gen_params),
	KUNIT_CASE(reclaim_without_swap_drops_lazyfree_anon_only),
	KUNIT_CASE_PARAM(get_scan_count_splits_by_cost_and_swappiness, split_gen_params),
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
