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
#include <linux/mman.h>
#include <linux/page-flags.h>
#include <linux/swap.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"

#define TO_RECLAIM	32UL	/* SWAP_CLUSTER_MAX */

/*
 * Only active file folios: the inactive file list is low, so reclaim ages
 * the active list.  Every folio it takes off the active list (PGREFILL) is
 * unmapped, so it is deactivated (PGDEACTIVATE), and what reclaim frees
 * comes from those.
 */
static void reclaim_deactivates_file_when_inactive_is_low(struct kunit *test)
{
	const unsigned long nr = 128;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_memcg *cg;
	unsigned long reclaimed, deactivated;
	struct file *file;

	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	lrutest_memcg_read(test, cg, file, 0, nr, 2);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_ACTIVE_FILE], nr);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], 0UL);
	KUNIT_ASSERT_TRUE(test, lrutest_memcg_inactive_is_low(cg, LRU_INACTIVE_FILE));

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "active file only", &b, &a);

	deactivated = a.deactivate - b.deactivate;
	KUNIT_EXPECT_GE(test, reclaimed, TO_RECLAIM);
	KUNIT_EXPECT_GT_MSG(test, a.refill - b.refill, 0UL, "PGREFILL: active list not aged");
	KUNIT_EXPECT_EQ_MSG(test, deactivated, a.refill - b.refill,
			    "PGDEACTIVATE against PGREFILL: every unmapped folio taken off the active list is deactivated");
	KUNIT_EXPECT_EQ_MSG(test, nr - a.lru[LRU_ACTIVE_FILE], deactivated,
			    "pages gone from the active file list");
	KUNIT_EXPECT_EQ_MSG(test, a.lru[LRU_INACTIVE_FILE] + reclaimed, deactivated,
			    "deactivated pages are inactive or reclaimed");
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, reclaimed);
	KUNIT_EXPECT_EQ(test, a.activate - b.activate, 0UL);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_ACTIVE_FILE), a.lru[LRU_ACTIVE_FILE]);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_INACTIVE_FILE), a.lru[LRU_INACTIVE_FILE]);
	lrutest_vm_end(test);
}

/*
 * Plenty of inactive file folios, a few active ones: inactive_is_low() is
 * false before and after, so reclaim takes from the inactive list only and
 * does not age the active one at all.
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
	KUNIT_ASSERT_FALSE(test, lrutest_memcg_inactive_is_low(cg, LRU_INACTIVE_FILE));

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "inactive file above the ratio", &b, &a);

	KUNIT_EXPECT_GE(test, reclaimed, TO_RECLAIM);
	KUNIT_EXPECT_EQ_MSG(test, a.refill - b.refill, 0UL, "PGREFILL: active list aged");
	KUNIT_EXPECT_EQ(test, a.deactivate - b.deactivate, 0UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_FILE], nr_active);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_ACTIVE_FILE), nr_active);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_FILE], nr_inactive - reclaimed);
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, reclaimed);
	lrutest_vm_end(test);
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
	const unsigned long nr_anon = 64, nr_file = 256;
	struct lrutest_reclaim_stat b, a;
	unsigned long addr, i, deactivated;
	struct lrutest_memcg *cg;
	struct file *file;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	addr = lrutest_memcg_anon(test, nr_anon, false);
	/* Two uses (GUP with FOLL_TOUCH: folio_mark_accessed()) activate. */
	for (i = 0; i < nr_anon; i++) {
		lrutest_touch(test, addr + i * PAGE_SIZE);
		lrutest_touch(test, addr + i * PAGE_SIZE);
	}
	lrutest_memcg_read(test, cg, file, 0, nr_file, 1);
	lrutest_drain();
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_ACTIVE_ANON], nr_anon);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_ANON], 0UL);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], nr_file);

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
	KUNIT_EXPECT_FALSE_MSG(test, lrutest_memcg_inactive_is_low(cg, LRU_INACTIVE_ANON),
			       "inactive anon still low after aging");
	lrutest_vm_end(test);
}

/*
 * Swap on, anon only.  The older half of the inactive list was used since
 * it was faulted (young PTEs), the newer half was not (MADV_COLD cleared
 * its PTEs' accessed bits).  Reclaim, scanning from the old end, spares
 * each used folio for another trip around the inactive list (PG_referenced
 * set, kept: "All mapped folios start out with page table references from
 * the instantiating fault, so we need to look twice", mm/vmscan.c) and
 * swaps out unused ones instead.
 */
static void reclaim_spares_used_anon_and_evicts_unused(struct kunit *test)
{
	const unsigned long nr = 64;
	struct lrutest_reclaim_stat b, a;
	unsigned long used, unused, i, flags, gone = 0;
	struct lrutest_memcg *cg;
	unsigned long reclaimed;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	used = lrutest_memcg_anon(test, nr, false);
	unused = lrutest_memcg_anon(test, nr, true);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_ANON], 2 * nr);

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "used then unused anon", &b, &a);

	for (i = 0; i < nr; i++) {
		int lru = lrutest_memcg_lru_at(cg, used + i * PAGE_SIZE, &flags);

		KUNIT_EXPECT_EQ_MSG(test, lru, (int)LRU_INACTIVE_ANON,
				    "used folio %lu (-2: evicted)", i);
		KUNIT_EXPECT_TRUE_MSG(test, flags & BIT(PG_referenced),
				      "used folio %lu: PG_referenced", i);
		lru = lrutest_memcg_lru_at(cg, unused + i * PAGE_SIZE, NULL);
		if (lru == -ENOENT)
			gone++;
		else
			KUNIT_EXPECT_EQ_MSG(test, lru, (int)LRU_INACTIVE_ANON,
					    "unused folio %lu", i);
	}
	KUNIT_EXPECT_GE(test, reclaimed, TO_RECLAIM);
	KUNIT_EXPECT_EQ_MSG(test, gone, reclaimed, "unused folios swapped out");
	KUNIT_EXPECT_EQ(test, a.steal_anon - b.steal_anon, reclaimed);
	KUNIT_EXPECT_EQ(test, a.pswpout - b.pswpout, reclaimed);
	KUNIT_EXPECT_EQ_MSG(test, a.scan_anon - b.scan_anon, nr + reclaimed,
			    "PGSCAN_ANON: every used folio once, then the unused ones reclaimed");
	KUNIT_EXPECT_EQ_MSG(test, a.activate - b.activate, 0UL, "PGACTIVATE");
	KUNIT_EXPECT_EQ(test, lrutest_memcg_walk(cg, LRU_INACTIVE_ANON), 2 * nr - reclaimed);
	lrutest_vm_end(test);
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
	addr = lrutest_mmap(test, file, nr_mapped, MAP_SHARED);
	/*
	 * No readahead while faulting: only the pages touched come in.  Then
	 * back to normal: reclaim ignores the references of a VM_RAND_READ
	 * mapping (vma_has_recency()).
	 */
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, nr_mapped * PAGE_SIZE,
					 MADV_RANDOM), 0);
	for (i = 0; i < nr_mapped; i++)
		lrutest_user_touch(test, addr + i * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, nr_mapped * PAGE_SIZE,
					 MADV_NORMAL), 0);
	lrutest_memcg_read(test, cg, file, cache_at, nr_cache, 1);
	lrutest_drain();
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_FILE], nr_mapped + nr_cache);

	/* First round: the mapped folios are the oldest, met first. */
	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "file mapped once, first round", &b, &a);
	KUNIT_EXPECT_GE(test, reclaimed, TO_RECLAIM);
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
	KUNIT_EXPECT_GE(test, reclaimed, TO_RECLAIM);
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, reclaimed);
	lrutest_vm_end(test);
}

static struct kunit_case reclaim_aging_cases[] = {
	KUNIT_CASE(reclaim_deactivates_file_when_inactive_is_low),
	KUNIT_CASE(reclaim_leaves_active_file_when_inactive_is_high),
	KUNIT_CASE(reclaim_ages_anon_at_swappiness_0_with_swap),
	KUNIT_CASE(reclaim_spares_used_anon_and_evicts_unused),
	KUNIT_CASE(reclaim_keeps_file_used_once_then_activates_or_evicts),
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
