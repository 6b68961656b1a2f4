// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of inactive-list aging and the second chance of referenced
 * folios, run through the kernel's memcg reclaim entry on a memory cgroup
 * that holds the test's folios alone (lru_memcg.c).
 *
 * A share of memory is kept on the inactive list and aged there (the
 * comment above inactive_is_low()).  When inactive_is_low() holds, reclaim deactivates
 * from the active list (shrink_active_list(): PGREFILL, PGDEACTIVATE); when
 * it does not, the active list is left alone.  On the inactive list a folio
 * that was used gets another chance (folio_check_references()): mapped and
 * used once since its fault, it is kept on the
 * inactive list for another round, and activated if used again by then;
 * unused, it is reclaimed.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <linux/mman.h>
#include <linux/page-flags.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/swap.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define TO_RECLAIM	32UL	/* SWAP_CLUSTER_MAX */

/*
 * The rule of inactive_is_low() for lists under 1 GB (the table in the
 * comment above it: inactive_ratio 1): the inactive list is low while it is
 * smaller than the active one.  The cases' lists are a few hundred pages.
 */
static bool small_inactive_is_low(unsigned long inactive, unsigned long active)
{
	return inactive < active;
}

/*
 * Only active file folios: the inactive file list is low, so reclaim ages
 * the active list.  Every folio it takes off the active list (PGREFILL) is
 * unmapped, so it is deactivated (PGDEACTIVATE), and what reclaim frees
 * comes from those.
 *
 * The numbers are the arithmetic of shrink_lruvec(): at each priority p
 * from DEF_PRIORITY down, get_scan_count() scans size >> p of each list
 * (SCAN_FILE: no swap), one SWAP_CLUSTER_MAX chunk of each list in turn,
 * inactive before active.  In memcg reclaim shrink_lruvec() stops after
 * the chunks that bring what this call reclaimed to the 32 pages asked,
 * the anon type having nothing to scan, and do_try_to_free_pages() after
 * the priority that reaches 32.  From 0 inactive and 256 active:
 *
 *   p   reclaimed  deactivated  inactive  active
 *   8       0          1           1       255
 *   7       0          1           2       254
 *   6       0          3           5       251
 *   5       0          7          12       244
 *   4       0         15          27       229
 *   3       3         28          52       201
 *   2      13         50          89       151
 *   1      32         32          89       119   (one chunk each: done)
 *
 * 48 reclaimed, 137 deactivated.  The inactive list stays below the active
 * one throughout (89 < 119), so inactive_is_low() holds at every priority
 * whether the memcg's statistics it reads were flushed during reclaim or
 * not.
 */
static void reclaim_deactivates_file_when_inactive_is_low(struct kunit *test)
{
	const unsigned long nr = 256;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_memcg *cg;
	unsigned long reclaimed;
	struct file *file;

	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	lrutest_memcg_read(test, cg, file, 0, nr, 2);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_ACTIVE_FILE], nr);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], 0UL);
	KUNIT_ASSERT_TRUE(test, small_inactive_is_low(b.lru[LRU_INACTIVE_FILE],
						      b.lru[LRU_ACTIVE_FILE]));

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "active file only", &b, &a);

	KUNIT_EXPECT_EQ(test, reclaimed, 48UL);
	KUNIT_EXPECT_EQ(test, a.scan_file - b.scan_file, 48UL);
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, 48UL);
	KUNIT_EXPECT_EQ_MSG(test, a.refill - b.refill, 137UL, "PGREFILL");
	KUNIT_EXPECT_EQ_MSG(test, a.deactivate - b.deactivate, 137UL,
			    "PGDEACTIVATE: every unmapped folio taken off the active list");
	KUNIT_EXPECT_EQ(test, a.activate - b.activate, 0UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_FILE], 119UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_FILE], 89UL);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_ACTIVE_FILE), 119UL);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_INACTIVE_FILE), 89UL);
	lrutest_vm_end(test);
}

/*
 * Plenty of inactive file folios, a few active ones: inactive_is_low() is
 * false before and after, so reclaim takes from the inactive list only and
 * does not age the active one at all.  By the arithmetic above, 256 >> 8,
 * 255 >> 7, 254 >> 6, 251 >> 5, 244 >> 4 and 229 >> 3 inactive folios:
 * 1 + 1 + 3 + 7 + 15 + 28 = 55 reclaimed.
 */
static void reclaim_leaves_active_file_when_inactive_is_high(struct kunit *test)
{
	const unsigned long nr_inactive = 256, nr_active = 16;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_memcg *cg;
	unsigned long reclaimed;
	struct file *file;

	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	lrutest_memcg_read(test, cg, file, 0, nr_inactive, 1);
	lrutest_memcg_read(test, cg, file, nr_inactive, nr_active, 2);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_ACTIVE_FILE], nr_active);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], nr_inactive);
	KUNIT_ASSERT_FALSE(test, small_inactive_is_low(b.lru[LRU_INACTIVE_FILE],
						       b.lru[LRU_ACTIVE_FILE]));

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "inactive file above the ratio", &b, &a);

	KUNIT_EXPECT_EQ(test, reclaimed, 55UL);
	KUNIT_EXPECT_EQ(test, a.scan_file - b.scan_file, 55UL);
	KUNIT_EXPECT_EQ_MSG(test, a.refill - b.refill, 0UL, "PGREFILL: active list aged");
	KUNIT_EXPECT_EQ(test, a.deactivate - b.deactivate, 0UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_FILE], nr_active);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_ACTIVE_FILE), nr_active);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_FILE], nr_inactive - reclaimed);
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, reclaimed);
	lrutest_vm_end(test);
}

#define NR_ACTIVE_ANON	64UL
#define NR_CACHE_ONCE	256UL

/*
 * NR_ACTIVE_ANON anon folios used twice (GUP with FOLL_TOUCH:
 * folio_mark_accessed() twice activates), then NR_CACHE_ONCE page-cache
 * folios read once, all in @cg: active anon, inactive file, nothing else.
 */
static void active_anon_and_cache(struct kunit *test, struct lrutest_memcg *cg,
				  struct lrutest_reclaim_stat *b)
{
	struct file *file = lrutest_ramdisk(test, 1);
	unsigned long addr, i;

	addr = lrutest_memcg_anon(test, NR_ACTIVE_ANON, false);
	for (i = 0; i < NR_ACTIVE_ANON; i++) {
		lrutest_touch(test, addr + i * PAGE_SIZE);
		lrutest_touch(test, addr + i * PAGE_SIZE);
	}
	lrutest_memcg_read(test, cg, file, 0, NR_CACHE_ONCE, 1);
	lrutest_drain();
	lrutest_memcg_stat(cg, b);
	KUNIT_ASSERT_EQ(test, b->lru[LRU_ACTIVE_ANON], NR_ACTIVE_ANON);
	KUNIT_ASSERT_EQ(test, b->lru[LRU_INACTIVE_ANON], 0UL);
	KUNIT_ASSERT_EQ(test, b->lru[LRU_INACTIVE_FILE], NR_CACHE_ONCE);
	KUNIT_ASSERT_EQ(test, b->lru[LRU_ACTIVE_FILE], 0UL);
}

/*
 * With swap, anon is aged even when it is not reclaimed: at swappiness 0
 * memcg reclaim scans file only, but shrink_lruvec() still deactivates
 * active anon, SWAP_CLUSTER_MAX at a time, while inactive_is_low() holds:
 * from 64 active and 0 inactive (ratio 1 below 1 GB), one batch (two if
 * the memcg's statistics were not flushed in between).
 * No anon folio is reclaimed or scanned on the inactive list.
 */
static void reclaim_ages_anon_at_swappiness_0_with_swap(struct kunit *test)
{
	const unsigned long nr_anon = NR_ACTIVE_ANON;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_memcg *cg;
	unsigned long deactivated;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	active_anon_and_cache(test, cg, &b);

	lrutest_memcg_reclaim(cg, TO_RECLAIM, 0);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "active anon, swap, swappiness 0", &b, &a);

	deactivated = a.deactivate - b.deactivate;
	KUNIT_EXPECT_EQ_MSG(test, a.scan_anon - b.scan_anon, 0UL, "PGSCAN_ANON");
	KUNIT_EXPECT_EQ_MSG(test, a.steal_anon - b.steal_anon, 0UL, "PGSTEAL_ANON");
	/*
	 * 64 active, 0 inactive, ratio 1: one batch of 32 makes 32 = 32, not
	 * low.  Reclaim reads the memcg's sizes for inactive_is_low() from
	 * its rstat-flushed statistics, flushed during reclaim only if the
	 * periodic flusher is late: unflushed, the next shrink_lruvec() still
	 * sees 0 : 64 and ages a second batch.  Either way whole batches.
	 */
	KUNIT_EXPECT_TRUE_MSG(test, deactivated == TO_RECLAIM || deactivated == 2 * TO_RECLAIM,
			      "PGDEACTIVATE %lu: not one or two SWAP_CLUSTER_MAX batches of anon aging",
			      deactivated);
	KUNIT_EXPECT_EQ(test, a.refill - b.refill, deactivated);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_ANON], deactivated);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_ANON], nr_anon - deactivated);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_INACTIVE_ANON) +
			lrutest_memcg_walk(cg, LRU_ACTIVE_ANON), nr_anon);
	KUNIT_EXPECT_FALSE_MSG(test, small_inactive_is_low(a.lru[LRU_INACTIVE_ANON],
							   a.lru[LRU_ACTIVE_ANON]),
			       "inactive anon still low after aging");
	lrutest_vm_end(test);
}

/*
 * Without swap, active anon is not aged at all: shrink_lruvec() ages it
 * "even if we did not try to evict anon pages" only where
 * can_age_anon_pages() says that is worth it, with swap space or a
 * demotion target, and neither exists here.  Reclaim scans file only
 * (SCAN_FILE): the 256 unused inactive page-cache folios give
 * 1 + 1 + 3 + 7 + 15 + 28 = 55 reclaimed, and nothing is deactivated.
 */
static void reclaim_leaves_active_anon_without_swap(struct kunit *test)
{
	struct lrutest_reclaim_stat b, a;
	struct lrutest_memcg *cg;
	unsigned long reclaimed;

	lrutest_swap(test, false);
	cg = lrutest_memcg_create(test);
	active_anon_and_cache(test, cg, &b);

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "active anon, no swap", &b, &a);

	KUNIT_EXPECT_EQ(test, reclaimed, 55UL);
	KUNIT_EXPECT_EQ_MSG(test, a.scan_anon - b.scan_anon, 0UL, "PGSCAN_ANON");
	KUNIT_EXPECT_EQ_MSG(test, a.refill - b.refill, 0UL, "PGREFILL");
	KUNIT_EXPECT_EQ_MSG(test, a.deactivate - b.deactivate, 0UL, "PGDEACTIVATE");
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_ANON], NR_ACTIVE_ANON);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_ANON], 0UL);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_ACTIVE_ANON), NR_ACTIVE_ANON);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_FILE], NR_CACHE_ONCE - reclaimed);
	lrutest_vm_end(test);
}

/*
 * Swap on, anon only.  The older third of the inactive list was used since
 * it was faulted (young PTEs), the newer two thirds were not (MADV_COLD
 * cleared their PTEs' accessed bits).  Reclaim, scanning from the old end,
 * spares each used folio for another trip around the inactive list
 * (PG_referenced set, kept: "All mapped folios start out with page table
 * references from the instantiating fault, so we need to look twice",
 * mm/vmscan.c) and swaps out unused ones instead.
 *
 * At swappiness 200 file's share is 0, so anon's is whole whatever the
 * costs (fp = 0 in get_scan_count()), and each priority p scans size >> p
 * of the inactive list, in SWAP_CLUSTER_MAX chunks.  192 folios: priorities
 * 7 to 3 scan 1 + 3 + 6 + 12 + 24 = 46 used folios and keep each (put back
 * at the head, away from the tail that is scanned).  Priority 2, 48: the
 * other 18 used and 14 unused in the first chunk, 16 unused in the second,
 * 30 reclaimed, short of 32.  Priority 1, 162 >> 1 = 81: the first chunk of
 * 32 unused brings that call of shrink_lruvec() to 32 with no file to
 * scan, and it stops: 62 reclaimed in all.
 */
static void reclaim_spares_used_anon_and_evicts_unused(struct kunit *test)
{
	const unsigned long nr_used = 64, nr_unused = 128;
	struct lrutest_reclaim_stat b, a;
	unsigned long used, unused, i, flags, gone = 0;
	struct lrutest_memcg *cg;
	unsigned long reclaimed;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	used = lrutest_memcg_anon(test, nr_used, false);
	unused = lrutest_memcg_anon(test, nr_unused, true);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_ANON], nr_used + nr_unused);
	KUNIT_ASSERT_EQ(test, lrutest_stat_file(&b), 0UL);

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, MAX_SWAPPINESS);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "used then unused anon", &b, &a);

	for (i = 0; i < nr_used; i++) {
		int lru = lrutest_memcg_lru_at(cg, used + i * PAGE_SIZE, &flags);

		KUNIT_EXPECT_EQ_MSG(test, lru, (int)LRU_INACTIVE_ANON,
				    "used folio %lu (-2: evicted)", i);
		KUNIT_EXPECT_TRUE_MSG(test, flags & BIT(PG_referenced),
				      "used folio %lu: PG_referenced", i);
	}
	for (i = 0; i < nr_unused; i++) {
		int lru = lrutest_memcg_lru_at(cg, unused + i * PAGE_SIZE, NULL);

		if (lru == -ENOENT)
			gone++;
		else
			KUNIT_EXPECT_EQ_MSG(test, lru, (int)LRU_INACTIVE_ANON,
					    "unused folio %lu", i);
	}
	KUNIT_EXPECT_EQ(test, reclaimed, 62UL);
	KUNIT_EXPECT_EQ_MSG(test, gone, reclaimed, "unused folios swapped out");
	KUNIT_EXPECT_EQ(test, a.steal_anon - b.steal_anon, reclaimed);
	KUNIT_EXPECT_EQ(test, a.pswpout - b.pswpout, reclaimed);
	KUNIT_EXPECT_EQ_MSG(test, a.scan_anon - b.scan_anon, nr_used + reclaimed,
			    "PGSCAN_ANON: every used folio once, then the unused ones reclaimed");
	KUNIT_EXPECT_EQ_MSG(test, a.activate - b.activate, 0UL, "PGACTIVATE");
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_INACTIVE_ANON),
			nr_used + nr_unused - reclaimed);
	lrutest_vm_end(test);
}

/*
 * Map @nr pages of @file, shared or, if @exec, private and executable, and
 * use each once.  No readahead while faulting: only the pages touched come
 * in.  Then back to normal: reclaim ignores the references of a
 * VM_RAND_READ mapping (vma_has_recency()).
 */
static unsigned long map_and_use(struct kunit *test, struct file *file, unsigned long nr,
				 bool exec)
{
	unsigned long addr, i;

	if (exec) {
		addr = kunit_vm_mmap(test, file, 0, nr * PAGE_SIZE, PROT_READ | PROT_EXEC,
				     MAP_PRIVATE, 0);
		KUNIT_ASSERT_FALSE_MSG(test, !addr || IS_ERR_VALUE(addr),
				       "executable mapping: %ld", (long)addr);
	} else {
		addr = lrutest_mmap(test, file, nr, MAP_SHARED);
	}
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, nr * PAGE_SIZE, MADV_RANDOM), 0);
	for (i = 0; i < nr; i++)
		lrutest_user_touch(test, addr + i * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, nr * PAGE_SIZE, MADV_NORMAL), 0);
	return addr;
}

/*
 * A page cache folio mapped once and used once (one young PTE, no
 * PG_referenced) is kept on the inactive list with PG_referenced when
 * reclaim meets it; used again before the next round it is activated,
 * left alone it is reclaimed then.
 */
static void reclaim_keeps_file_used_once_then_activates_or_evicts(struct kunit *test)
{
	const unsigned long nr_mapped = 16, nr_cache = 256, cache_at = 512;
	struct lrutest_reclaim_stat b, a;
	unsigned long addr, i, flags, reclaimed;
	struct lrutest_memcg *cg;
	struct file *file;

	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	addr = map_and_use(test, file, nr_mapped, false);
	lrutest_memcg_read(test, cg, file, cache_at, nr_cache, 1);
	lrutest_drain();
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], nr_mapped + nr_cache);

	/* First round: the mapped folios are the oldest, met first. */
	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "file mapped once, first round", &b, &a);
	/*
	 * 272 >> 8, 7, 6, 5 and 4: 1 + 2 + 4 + 8 + 17, the 16 mapped folios
	 * (kept, put back at the head) and 16 unmapped ones (reclaimed); then
	 * 256 >> 3 = 32 unmapped ones: 64 scanned, 48 reclaimed.
	 */
	KUNIT_EXPECT_EQ(test, a.scan_file - b.scan_file, 64UL);
	KUNIT_EXPECT_EQ(test, reclaimed, 48UL);
	KUNIT_EXPECT_EQ_MSG(test, a.activate - b.activate, 0UL, "PGACTIVATE, first round");
	for (i = 0; i < nr_mapped; i++) {
		int lru = lrutest_memcg_lru_at(cg, addr + i * PAGE_SIZE, &flags);

		KUNIT_EXPECT_EQ_MSG(test, lru, (int)LRU_INACTIVE_FILE,
				    "folio %lu used once, after the first round", i);
		KUNIT_EXPECT_TRUE_MSG(test, flags & BIT(PG_referenced),
				      "folio %lu used once: PG_referenced", i);
	}

	/*
	 * Second round: the even ones are used again.  The rest of the cache
	 * is dropped and 64 new unused folios are read in behind the mapped
	 * ones, so reclaim meets all 16 first and its target with the new.
	 */
	invalidate_mapping_pages(file->f_mapping, cache_at, -1);
	lrutest_memcg_read(test, cg, file, cache_at, 2 * TO_RECLAIM, 1);
	for (i = 0; i < nr_mapped; i += 2)
		lrutest_user_touch(test, addr + i * PAGE_SIZE);
	lrutest_drain();
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], nr_mapped + 2 * TO_RECLAIM);
	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "file mapped once, second round", &b, &a);
	for (i = 0; i < nr_mapped; i++) {
		int lru = lrutest_memcg_lru_at(cg, addr + i * PAGE_SIZE, NULL);

		if (i % 2 == 0)
			KUNIT_EXPECT_EQ_MSG(test, lru, (int)LRU_ACTIVE_FILE,
					    "folio %lu used twice, after the second round", i);
		else
			KUNIT_EXPECT_EQ_MSG(test, lru, -ENOENT,
					    "folio %lu used once, after the second round", i);
	}
	KUNIT_EXPECT_EQ(test, a.activate - b.activate, nr_mapped / 2);
	/*
	 * 80 >> 6, 79 >> 5, 77 >> 4, 73 >> 3: 1 + 2 + 4 + 9, the 16 mapped
	 * folios, 8 of them reclaimed; then 64 >> 2 and 48 >> 1 new ones,
	 * 16 + 24: 56 scanned, 48 reclaimed.
	 */
	KUNIT_EXPECT_EQ(test, a.scan_file - b.scan_file, 56UL);
	KUNIT_EXPECT_EQ(test, reclaimed, 48UL);
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, reclaimed);
	lrutest_vm_end(test);
}

struct activate_row {
	const char *desc;
	bool exec;		/* one executable mapping of a romfs file */
	int mappings;		/* the mappings each folio is used through */
};

/*
 * folio_check_references(): a mapped page-cache folio met by reclaim with
 * one young PTE is kept for another round (the case above), but activated
 * at once when more than one PTE was young ("referenced_ptes > 1"): used
 * through two mappings; or when a young PTE is in a VM_EXEC mapping
 * ("Activate file-backed executable folios after first usage").
 */
static const struct activate_row activate_rows[] = {
	{ "used through two mappings", false, 2 },
	{ "used once through an executable mapping", true, 1 },
};

KUNIT_ARRAY_PARAM_DESC(activate, activate_rows, desc);

/*
 * The 16 mapped folios are the oldest of the memcg's inactive file list, so
 * the first reclaim meets them all before its target: each is activated
 * (PGACTIVATE +16) and what it reclaims comes from the 256 unmapped pages
 * behind them.
 */
static void reclaim_activates_a_mapped_file_folio_at_once(struct kunit *test)
{
	const struct activate_row *row = test->param_value;
	const unsigned long nr_mapped = 16, nr_cache = 256, cache_at = 512;
	struct file *file = NULL, *cache;
	struct lrutest_reclaim_stat b, a;
	unsigned long addr, i, reclaimed;
	struct lrutest_memcg *cg;
	int m;

	cg = lrutest_memcg_create(test);
	if (row->exec)
		file = lrutest_exec_file(test, nr_mapped);
	cache = lrutest_ramdisk(test, 1);
	addr = map_and_use(test, file ?: cache, nr_mapped, row->exec);
	for (m = 1; m < row->mappings; m++)
		map_and_use(test, file ?: cache, nr_mapped, row->exec);
	lrutest_memcg_read(test, cg, cache, cache_at, nr_cache, 1);
	lrutest_drain();
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], nr_mapped + nr_cache);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_ACTIVE_FILE], 0UL);

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, row->desc, &b, &a);
	for (i = 0; i < nr_mapped; i++)
		KUNIT_EXPECT_EQ_MSG(test, lrutest_memcg_lru_at(cg, addr + i * PAGE_SIZE, NULL),
				    (int)LRU_ACTIVE_FILE, "folio %lu after reclaim", i);
	KUNIT_EXPECT_EQ(test, a.activate - b.activate, nr_mapped);
	/*
	 * 272 >> 8, 271 >> 7, 269 >> 6, 265 >> 5: 1 + 2 + 4 + 8 mapped folios
	 * activated; 257 >> 4 = 16, the last and 15 reclaimed; 241 >> 3 = 30
	 * reclaimed: 61 scanned, 45 reclaimed.
	 */
	KUNIT_EXPECT_EQ(test, a.scan_file - b.scan_file, 61UL);
	KUNIT_EXPECT_EQ(test, reclaimed, 45UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_FILE], nr_mapped);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_FILE], nr_cache - reclaimed);
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, reclaimed);
	lrutest_vm_end(test);
}

/*
 * shrink_active_list() deactivates what it takes off the active list, but
 * gives a referenced folio of a file mapped VM_EXEC "one more trip around
 * the active list": it goes back to the head, still active, without
 * PG_workingset, and counts as rotated (6.12: lru_note_cost(); 7.3:
 * PGROTATE_FILE).  Its young PTE is cleared by the look.
 *
 * 16 executable and then 256 unmapped folios, all active: the 16 are at
 * the tail, met first.  By the arithmetic of the first case, each chunk of
 * the active list that finds an executable folio rotates it instead of
 * deactivating it:
 *
 *   p   taken  rotated  deactivated  reclaimed  inactive  active
 *   8     1       1          0           0          0       272
 *   7     2       2          0           0          0       272
 *   6     4       4          0           0          0       272
 *   5     8       8          0           0          0       272
 *   4    17       1         16           0         16       256
 *   3    32       0         32           2         46       224
 *   2    56       0         56          11         91       168
 *   1    32       0         32          32         91       136
 *
 * 152 taken (PGREFILL), 136 deactivated, 16 rotated, 45 reclaimed; every
 * inactive folio scanned is reclaimed, so nothing else counts as rotated,
 * and 6.12's file_cost (16) stays below a quarter of the lists, where it
 * would decay.  Inactive stays below active, so aging goes on at every
 * priority whether the statistics were flushed or not.
 */
static void reclaim_rotates_a_used_executable_folio_on_the_active_list(struct kunit *test)
{
	const unsigned long nr_exec = 16, nr_cache = 256;
	struct lrutest_reclaim_stat b, a;
	unsigned long addr, i, flags, reclaimed;
	struct lrutest_memcg *cg;
	struct file *file;

	cg = lrutest_memcg_create(test);
	file = lrutest_exec_file(test, nr_exec);
	lrutest_memcg_read(test, cg, file, 0, nr_exec, 2);
	addr = map_and_use(test, file, nr_exec, true);
	lrutest_memcg_read(test, cg, lrutest_ramdisk(test, 1), 0, nr_cache, 2);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_ACTIVE_FILE], nr_exec + nr_cache);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], 0UL);

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "executable folios at the active tail", &b, &a);
	for (i = 0; i < nr_exec; i++) {
		KUNIT_EXPECT_EQ_MSG(test, lrutest_memcg_lru_at(cg, addr + i * PAGE_SIZE, &flags),
				    (int)LRU_ACTIVE_FILE, "executable folio %lu", i);
		KUNIT_EXPECT_FALSE_MSG(test, flags & BIT(PG_workingset),
				       "executable folio %lu: PG_workingset", i);
	}
	KUNIT_EXPECT_EQ(test, a.rotate_file - b.rotate_file, nr_exec);
	KUNIT_EXPECT_EQ_MSG(test, a.refill - b.refill, 152UL, "PGREFILL");
	KUNIT_EXPECT_EQ_MSG(test, a.deactivate - b.deactivate, 136UL, "PGDEACTIVATE");
	KUNIT_EXPECT_EQ(test, reclaimed, 45UL);
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, 45UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_FILE], 136UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_FILE], 91UL);
	lrutest_vm_end(test);
}

/*
 * Read page @index of @file, charged to the test memcg, as
 * lrutest_memcg_read() does but without its drain, so that the folio is
 * seen as the read leaves it.  Returns the folio; the reference is dropped
 * when the case ends.
 */
static struct folio *refault_read(struct kunit *test, struct lrutest_memcg *cg,
				  struct file *file, pgoff_t index)
{
	struct mem_cgroup *old = set_active_memcg(cg->memcg);
	struct folio *folio;

	folio = read_mapping_folio(file->f_mapping, index, file);
	set_active_memcg(old);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(folio), "read of page %lu: %ld",
			       index, PTR_ERR(folio));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_folio_put_action, folio));
	return folio;
}

struct refault_row {
	const char *desc;
	unsigned long nr_once;	/* pages 0.. read once: inactive */
	unsigned long nr_twice;	/* the pages after them read twice: active */
	bool at_size;		/* refault the page at distance size + over, not page 0 */
	unsigned int over;
	bool activated;		/* expected: the refault is activated */
	bool restore;		/* expected: PG_workingset, a restore */
	unsigned long evicted;	/* expected: pages reclaim evicts */
	unsigned long refill;	/* expected: PGREFILL, pages it deactivates first */
};

/*
 * Reclaim of 32 evicts the N oldest pages.  With 256 pages on the
 * inactive list it scans size >> priority of them a priority, in chunks,
 * until a priority ends with 32 reclaimed (no chunk reaches 32 alone):
 * N = 1 + 1 + 3 + 7 + 15 + 28 = 55.
 * Distance N: within 128 active pages, beyond 16.  The two boundary rows
 * pick the page whose distance is the size and the size + 1.  The last row
 * has 512 active pages and nothing inactive: reclaim deactivates
 * (PG_workingset) before it evicts, size >> priority of the active list a
 * priority while the inactive one is low (it stays below the active one
 * throughout), and evicts from the inactive list in the same passes: 212
 * deactivated, N = 34, 300 left active, far more than N: every distance is
 * within it.
 */
static const struct refault_row refault_rows[] = {
	{ .desc = "oldest page, 128 active pages: within the workingset",
	  .nr_once = 256, .nr_twice = 128, .activated = true, .evicted = 55 },
	{ .desc = "oldest page, 16 active pages: beyond the workingset",
	  .nr_once = 256, .nr_twice = 16, .activated = false, .evicted = 55 },
	{ .desc = "distance equal to the 16 active pages",
	  .nr_once = 256, .nr_twice = 16, .at_size = true, .over = 0,
	  .activated = true, .evicted = 55 },
	{ .desc = "distance one more than the 16 active pages",
	  .nr_once = 256, .nr_twice = 16, .at_size = true, .over = 1,
	  .activated = false, .evicted = 55 },
	{ .desc = "deactivated by reclaim, then evicted: a restore",
	  .nr_once = 0, .nr_twice = 512, .activated = true, .restore = true,
	  .evicted = 34, .refill = 212 },
};

KUNIT_ARRAY_PARAM_DESC(refault, refault_rows, desc);

/*
 * Workingset detection (the comment at the top of mm/workingset.c): the
 * lruvec counts evictions and activations (nonresident_age); an evicted
 * page leaves in its page cache slot a shadow entry holding the count E of
 * its eviction, and the eviction adds one.  A read that finds the shadow
 * (a refault) reads the count R: R - E is the refault distance.  A page
 * cache refault whose distance is at most the workingset size, the active
 * file pages (plus the anon pages if there is swap space), is activated:
 * the new folio is added to the active list, and adds one to the count.
 * A folio active before its eviction (PG_workingset, set when reclaim
 * deactivated it) gets PG_workingset back: a restore.  Each refault counts
 * WORKINGSET_REFAULT_FILE, each activation WORKINGSET_ACTIVATE_FILE, each
 * restore WORKINGSET_RESTORE_FILE.
 *
 * Why the distances are known: the test memcg holds the case's page cache
 * alone and no anon page, so the workingset size is its active file pages,
 * swap or not.  The pages are read in index order, so the inactive list
 * has page 0 at its tail; reclaim evicts the N oldest, pages 0 to N-1, in
 * that order and activates none (clean unmapped page cache is reclaimed,
 * not rotated; the active list of the first four rows is not aged, the
 * inactive one not being low; the last row's deactivated pages reach the
 * inactive list oldest first).  Page j is evicted at E0 + j, and at the
 * refault the count is E0 + N: its distance is N - j.  Shadow entries are
 * checked, not assumed: every evicted page must have one, every other page
 * must still be cached.  The refault of page j is then activated exactly
 * when N - j <= size: PG_active as the read returns (set before the folio
 * is added to the LRU), on the active file list once the LRU batch is
 * drained, ACTIVATE +1 and the count +1; otherwise on the inactive list,
 * ACTIVATE +0 and the count unchanged.  Either way REFAULT +1, and the
 * read's mark of the access leaves PG_referenced.
 */
static void workingset_refault_activates_within_the_workingset_size(struct kunit *test)
{
	const struct refault_row *row = test->param_value;
	const unsigned long nr = row->nr_once + row->nr_twice;
	unsigned long reclaimed, evicted, size, dist;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_workingset s0, s1, s2;
	struct lrutest_memcg *cg;
	struct folio *folio;
	struct file *file;
	pgoff_t index;

	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_page_cache_slots(file, 0, nr, LRUTEST_SLOT_EMPTY), nr,
			    "set up: no page or shadow entry left in the RAM disk's page cache");
	lrutest_memcg_read(test, cg, file, 0, row->nr_once, 1);
	lrutest_memcg_read(test, cg, file, row->nr_once, row->nr_twice, 2);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], row->nr_once);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_ACTIVE_FILE], row->nr_twice);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_stat_anon(&b), 0UL,
			    "set up: no anon page, so the workingset size is the active file pages");
	KUNIT_ASSERT_EQ_MSG(test, small_inactive_is_low(b.lru[LRU_INACTIVE_FILE],
							b.lru[LRU_ACTIVE_FILE]),
			    row->restore,
			    "set up: reclaim deactivates only in the row with nothing inactive");
	lrutest_memcg_workingset(cg, &s0);
	KUNIT_EXPECT_EQ_MSG(test, s0.age, row->nr_twice,
			    "nonresident_age after the reads: one per activation");

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, row->desc, &b, &a);
	lrutest_memcg_expect_stolen(test, reclaimed, &b, &a);
	lrutest_memcg_workingset(cg, &s1);
	evicted = lrutest_stat_file(&b) - lrutest_stat_file(&a);
	KUNIT_ASSERT_EQ(test, evicted, row->evicted);
	KUNIT_ASSERT_EQ(test, reclaimed, row->evicted);
	KUNIT_ASSERT_EQ(test, lrutest_stat_anon(&a), 0UL);
	KUNIT_ASSERT_EQ_MSG(test, a.refill - b.refill, row->refill,
			    "set up: pages reclaim deactivated before it evicted");
	KUNIT_ASSERT_EQ(test, a.lru[LRU_ACTIVE_FILE], row->nr_twice - row->refill);
	KUNIT_EXPECT_EQ_MSG(test, s1.age - s0.age, evicted,
			    "nonresident_age over the reclaim: one per eviction, no activation");
	KUNIT_ASSERT_EQ_MSG(test, lrutest_page_cache_slots(file, 0, evicted, LRUTEST_SLOT_SHADOW),
			    evicted,
			    "the %lu evicted pages are not the oldest, each with a shadow entry",
			    evicted);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_page_cache_slots(file, evicted, nr - evicted,
							   LRUTEST_SLOT_CACHED),
			    nr - evicted, "pages after the %lu oldest not all cached", evicted);

	size = a.lru[LRU_ACTIVE_FILE];
	index = 0;
	if (row->at_size) {
		KUNIT_ASSERT_GE(test, evicted, size + row->over);
		index = evicted - size - row->over;
	}
	dist = evicted - index;
	kunit_info(test, "%lu evicted; refault of page %lu: distance %lu, workingset size %lu\n",
		   evicted, index, dist, size);
	KUNIT_ASSERT_EQ_MSG(test, (bool)(dist <= size), row->activated,
			    "set up: page %lu, refault distance %lu, workingset size %lu",
			    index, dist, size);

	folio = refault_read(test, cg, file, index);
	KUNIT_EXPECT_EQ_MSG(test, folio_test_active(folio), row->activated,
			    "PG_active of page %lu as the refault returns, before the drain",
			    index);
	lrutest_drain();
	lrutest_memcg_workingset(cg, &s2);
	KUNIT_EXPECT_EQ_MSG(test, s2.refault - s1.refault, 1UL, "WORKINGSET_REFAULT_FILE");
	KUNIT_EXPECT_EQ_MSG(test, s2.activate - s1.activate, (unsigned long)row->activated,
			    "WORKINGSET_ACTIVATE_FILE, distance %lu, size %lu", dist, size);
	KUNIT_EXPECT_EQ_MSG(test, s2.restore - s1.restore, (unsigned long)row->restore,
			    "WORKINGSET_RESTORE_FILE");
	KUNIT_EXPECT_EQ_MSG(test, s2.age - s1.age, (unsigned long)row->activated,
			    "nonresident_age over the refault: one if activated");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_memcg_find(cg, folio),
			    row->activated ? (int)LRU_ACTIVE_FILE : (int)LRU_INACTIVE_FILE,
			    "list of the refaulted page %lu", index);
	KUNIT_EXPECT_EQ_MSG(test, folio_test_workingset(folio), row->restore,
			    "PG_workingset of the refaulted page %lu", index);
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_referenced(folio),
			      "PG_referenced: the refault's read was its first access");
	lrutest_vm_end(test);
}

struct anon_refault_row {
	const char *desc;
	unsigned long pages;		/* anon pages of the memcg */
	bool active;			/* used twice (active), or unused since their fault */
	unsigned long evicted;		/* expected: pages one reclaim of 32 swaps out, or 0 */
	unsigned long refill;		/* expected: PGREFILL, pages it deactivates first */
	unsigned long cache;		/* page cache pages read once after the eviction */
	unsigned long distance;		/* of the page refaulted */
	bool activated;			/* expected */
	bool restore;			/* expected: PG_workingset, a restore */
};

/*
 * The workingset size of an anon refault, with swap space, is the active
 * anon and all of the file pages of the evicting lruvec: in the first four
 * rows the page cache the row reads once after the eviction (inactive
 * file) and nothing else.  The refault of the page evicted last has
 * distance 1.  256 unused pages: 55 swapped out, the arithmetic of the
 * file rows of workingset_refault_activates_within_the_workingset_size()
 * (at swappiness 200 reclaim scans the inactive anon list as it scans
 * file without swap, file getting no share).  The last row has 512 active
 * pages and nothing inactive, and no stated count: reclaim deactivates
 * (PG_workingset) before it swaps out, so every page swapped out was
 * deactivated first (checked: PGREFILL at least the evictions), and the
 * active pages it leaves are at least as many as it swapped out (checked),
 * so every refault distance (at most the evictions) is within: the
 * lowest-numbered page swapped out refaults activated, a restore.
 */
static const struct anon_refault_row anon_refault_rows[] = {
	{ "no page cache: the last page evicted, distance 1, beyond",
	  256, false, 55, 0, 0, 1, false, false },
	{ "16 page cache pages: distance 16, within",
	  256, false, 55, 0, 16, 16, true, false },
	{ "16 page cache pages: distance 17, beyond",
	  256, false, 55, 0, 16, 17, false, false },
	{ "256 page cache pages: the oldest page, distance 55, within",
	  256, false, 55, 0, 256, 55, true, false },
	{ "deactivated by reclaim, then swapped out: a restore",
	  512, true, 0, 0, 0, 0, true, true },
};

KUNIT_ARRAY_PARAM_DESC(anon_refault, anon_refault_rows, desc);

/*
 * Workingset detection of anon (mm/workingset.c): swap-out leaves a shadow
 * entry in the swap cache slot, and the swap-in that finds it is a refault,
 * WORKINGSET_REFAULT_ANON.  It is activated, WORKINGSET_ACTIVATE_ANON and
 * PG_active before the folio is added to the LRU, when its refault
 * distance is at most the workingset size; a folio deactivated before its
 * eviction (PG_workingset) is a restore, WORKINGSET_RESTORE_ANON and
 * PG_workingset again.
 *
 * The row's anon pages are the test memcg's only folios; one memcg reclaim
 * of 32 at MAX_SWAPPINESS swaps out pages 0 to N-1 from the tail of the
 * inactive anon list, in that order, each eviction one more
 * nonresident_age, so page j has distance N - j.  The swap device is a RAM
 * disk, SWP_SYNCHRONOUS_IO: the fault swaps in the one page, no readahead.
 */
static void swap_in_refault_activates_within_the_workingset_size(struct kunit *test)
{
	const struct anon_refault_row *row = test->param_value;
	struct lrutest_workingset s0, s1, s2;
	unsigned long addr, i, evicted, page;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_memcg *cg;
	struct folio *folio;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	addr = lrutest_memcg_anon(test, row->pages, !row->active);
	for (i = 0; i < row->pages && row->active; i++) {
		/* A second use activates (folio_mark_accessed()). */
		lrutest_touch(test, addr + i * PAGE_SIZE);
		lrutest_touch(test, addr + i * PAGE_SIZE);
	}
	lrutest_drain();
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[row->active ? LRU_ACTIVE_ANON : LRU_INACTIVE_ANON],
			row->pages);
	KUNIT_ASSERT_EQ(test, lrutest_stat_anon(&b), row->pages);
	KUNIT_ASSERT_EQ(test, lrutest_stat_file(&b), 0UL);
	lrutest_memcg_workingset(cg, &s0);

	evicted = lrutest_memcg_reclaim(cg, TO_RECLAIM, MAX_SWAPPINESS);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_workingset(cg, &s1);
	KUNIT_ASSERT_EQ_MSG(test, s1.age - s0.age, evicted,
			    "set up: nonresident_age, one per eviction");
	KUNIT_ASSERT_EQ(test, lrutest_stat_anon(&b) - lrutest_stat_anon(&a), evicted);
	if (row->evicted) {
		KUNIT_ASSERT_EQ(test, evicted, row->evicted);
		KUNIT_ASSERT_EQ_MSG(test, a.refill - b.refill, row->refill,
				    "set up: pages reclaim deactivated before it evicted");
		for (i = 0; i < row->pages; i++)
			KUNIT_ASSERT_EQ_MSG(test, !lrutest_folio_at(test, addr + i * PAGE_SIZE),
					    i < evicted,
					    "set up: page %lu swapped out, or left, out of order",
					    i);
		page = evicted - row->distance;
	} else {
		KUNIT_ASSERT_GT(test, evicted, 0UL);
		KUNIT_ASSERT_GE_MSG(test, a.refill - b.refill, evicted,
				    "set up: every page swapped out deactivated first");
		KUNIT_ASSERT_GE_MSG(test, a.lru[LRU_ACTIVE_ANON], evicted,
				    "set up: every distance within the active pages left");
		for (page = 0; page < row->pages; page++)
			if (!lrutest_folio_at(test, addr + page * PAGE_SIZE))
				break;
		KUNIT_ASSERT_LT(test, page, row->pages);
	}

	if (row->cache)
		lrutest_memcg_read(test, cg, lrutest_ramdisk(test, 1), 0, row->cache, 1);
	lrutest_drain();
	lrutest_memcg_stat(cg, &a);
	/* The workingset size of the cold rows: their page cache. */
	if (!row->active)
		KUNIT_ASSERT_EQ_MSG(test, a.lru[LRU_INACTIVE_FILE] + a.lru[LRU_ACTIVE_FILE] +
				    a.lru[LRU_ACTIVE_ANON], row->cache,
				    "set up: the workingset size");
	lrutest_memcg_workingset(cg, &s1);

	lrutest_touch(test, addr + page * PAGE_SIZE);
	folio = lrutest_folio_at(test, addr + page * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ_MSG(test, folio_test_active(folio), row->activated,
			    "PG_active of page %lu as the fault returns", page);
	lrutest_drain();
	lrutest_memcg_workingset(cg, &s2);
	KUNIT_EXPECT_EQ(test, s2.refault_anon - s1.refault_anon, 1UL);
	KUNIT_EXPECT_EQ(test, s2.activate_anon - s1.activate_anon, (unsigned long)row->activated);
	KUNIT_EXPECT_EQ(test, s2.restore_anon - s1.restore_anon, (unsigned long)row->restore);
	KUNIT_EXPECT_EQ(test, s2.refault - s1.refault, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, s2.age - s1.age, (unsigned long)row->activated,
			    "nonresident_age over the refault: one if activated");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_memcg_find(cg, folio),
			    row->activated ? (int)LRU_ACTIVE_ANON : (int)LRU_INACTIVE_ANON,
			    "list of the swapped-in page %lu", page);
	KUNIT_EXPECT_EQ(test, folio_test_workingset(folio), row->restore);
	lrutest_vm_end(test);
}

static struct kunit_case reclaim_aging_cases[] = {
	KUNIT_CASE(reclaim_deactivates_file_when_inactive_is_low),
	KUNIT_CASE(reclaim_leaves_active_file_when_inactive_is_high),
	KUNIT_CASE(reclaim_ages_anon_at_swappiness_0_with_swap),
	KUNIT_CASE(reclaim_leaves_active_anon_without_swap),
	KUNIT_CASE(reclaim_spares_used_anon_and_evicts_unused),
	KUNIT_CASE(reclaim_keeps_file_used_once_then_activates_or_evicts),
	KUNIT_CASE_PARAM(reclaim_activates_a_mapped_file_folio_at_once, activate_gen_params),
	KUNIT_CASE(reclaim_rotates_a_used_executable_folio_on_the_active_list),
	KUNIT_CASE_PARAM(workingset_refault_activates_within_the_workingset_size,
			 refault_gen_params),
	KUNIT_CASE_PARAM(swap_in_refault_activates_within_the_workingset_size,
			 anon_refault_gen_params),
	{}
};

static struct kunit_suite reclaim_aging_suite = {
	.name = "mm_reclaim_aging",
	.init = lrutest_memcg_classic_init,
	.test_cases = reclaim_aging_cases,
};

kunit_test_suite(reclaim_aging_suite);

MODULE_DESCRIPTION("KUnit tests of inactive-list aging and second chance on a test memcg");
MODULE_LICENSE("GPL");
