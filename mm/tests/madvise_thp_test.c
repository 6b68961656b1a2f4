// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of madvise() on a transparent huge page only partly in the
 * range, on real VMAs (lru_vm.c): MADV_COLD and MADV_FREE walk the range's
 * PTEs (madvise_cold_or_pageout_pte_range(), madvise_free_pte_range()) and
 * split a large folio that the range covers in part, if this mm alone maps
 * it, so that the advice reaches the pages in the range and no others:
 * MADV_COLD moves them to the inactive list, MADV_FREE makes them lazily
 * freeable (clean, not swap-backed, on the inactive file list),
 * MADV_PAGEOUT swaps them out, which reclaims the part of a THP outside an
 * mlock()ed VMA.  The
 * per-CPU batches that carry the moves (lru_deactivate, lru_lazyfree) are
 * drained before the lists are read: madvise() promises no list at return.
 *
 * A case drops its own reference to the folio first: split_folio() needs
 * the folio held by its mappings and the madvise walk alone.
 *
 * And the end of such a THP: munmap() frees it through the batch free of
 * folios_put_refs(), which takes it off its deferred-split queue before it
 * uncharges it.
 *
 * Needs CONFIG_TRANSPARENT_HUGEPAGE (the x86_64 configuration); skips
 * otherwise.
 */
#include <kunit/test.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/vmstat.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"

#ifdef CONFIG_TRANSPARENT_HUGEPAGE

#define THP_PAGES	HPAGE_PMD_NR
#define THP_SIZE	HPAGE_PMD_SIZE

/*
 * A byte written in each page of @folio: a split remaps a zero-filled page
 * of an anon THP to the shared zero page (remap_page(), since 6.12), and
 * the cases follow the pages of the folio.
 */
static void fill_thp(struct folio *folio)
{
	int i;

	for (i = 0; i < THP_PAGES; i++) {
		char *p = kmap_local_folio(folio, i * PAGE_SIZE);

		*p = 1;
		kunmap_local(p);
	}
}

/* The folio of each page of the THP at @thp, from @first on, is order 0. */
static void expect_split(struct kunit *test, unsigned long thp, int first,
			 const char *what)
{
	int i, large = 0;

	for (i = first; i < THP_PAGES; i++) {
		struct folio *folio = lrutest_folio_at(test, thp + i * PAGE_SIZE);

		KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "%s: no folio at page %d", what, i);
		large += folio_test_large(folio);
		kunit_release_action(test, lrutest_folio_put_action, folio);
	}
	KUNIT_EXPECT_EQ_MSG(test, large, 0, "%s: pages still in a large folio", what);
}

/*
 * MADV_COLD of all of an active PTE-mapped THP but its first page, which
 * was unmapped: the folio, mapped by this mm alone (511 PTEs), is split,
 * and each of the 511 pages is deactivated (PGDEACTIVATE): the classic LRU
 * puts it on the inactive anon list; the multi-gen LRU re-adds an anon
 * folio not in the swap cache to the second youngest generation, which
 * counts as active (lru_gen_add_folio()).
 */
static void madvise_cold_splits_a_thp_without_its_first_page(struct kunit *test)
{
	unsigned long thp, splits, deactivated;
	struct folio *folio;
	int i, lru;

	thp = lrutest_thp_map_by_ptes(test, &folio);
	fill_thp(folio);
	folio_activate(folio);
	lrutest_drain();
	KUNIT_ASSERT_EQ(test, lrutest_locate(folio), LRU_ACTIVE_ANON);
	KUNIT_ASSERT_EQ(test, vm_munmap(thp, PAGE_SIZE), 0);
	kunit_release_action(test, lrutest_folio_put_action, folio);
	splits = lrutest_vm_event(THP_SPLIT_PAGE);
	deactivated = lrutest_vm_event(PGDEACTIVATE);

	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, thp + PAGE_SIZE,
					 THP_SIZE - PAGE_SIZE, MADV_COLD), 0);
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(THP_SPLIT_PAGE) - splits, 1UL);
	expect_split(test, thp, 1, "after MADV_COLD");
	lrutest_drain();
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PGDEACTIVATE) - deactivated,
			(unsigned long)THP_PAGES - 1);
	lru = lru_gen_enabled() ? LRU_ACTIVE_ANON : LRU_INACTIVE_ANON;
	for (i = 1; i < THP_PAGES; i++) {
		folio = lrutest_folio_at(test, thp + i * PAGE_SIZE);
		KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folio), lru,
				    "page %d after MADV_COLD", i);
		kunit_release_action(test, lrutest_folio_put_action, folio);
	}
	lrutest_vm_end(test);
}

/*
 * MADV_FREE of the first half of a PTE-mapped THP: the folio is split and
 * the 256 pages of the range, alone, become lazily freeable; the others
 * stay where the new THP was: the inactive anon list or, on the multi-gen
 * LRU, a generation counted active (a fault adds to the youngest).
 */
static void madvise_free_of_half_a_pte_mapped_thp_lazyfrees_it(struct kunit *test)
{
	/* Where the fresh THP's pages stay: as in the MADV_COLD case. */
	int anon_lru = lru_gen_enabled() ? LRU_ACTIVE_ANON : LRU_INACTIVE_ANON;
	unsigned long thp, splits, lazyfree;
	struct folio *folio;
	int i;

	thp = lrutest_thp_map_by_ptes(test, &folio);
	fill_thp(folio);
	kunit_release_action(test, lrutest_folio_put_action, folio);
	splits = lrutest_vm_event(THP_SPLIT_PAGE);
	lazyfree = lrutest_vm_event(PGLAZYFREE);

	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, thp, THP_SIZE / 2, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(THP_SPLIT_PAGE) - splits, 1UL);
	expect_split(test, thp, 0, "after MADV_FREE");
	lrutest_drain();
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PGLAZYFREE) - lazyfree,
			(unsigned long)THP_PAGES / 2);
	for (i = 0; i < THP_PAGES; i++) {
		bool freed = i < THP_PAGES / 2;

		folio = lrutest_folio_at(test, thp + i * PAGE_SIZE);
		KUNIT_EXPECT_EQ_MSG(test, folio_test_swapbacked(folio), !freed,
				    "page %d: swap-backed", i);
		KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folio),
				    freed ? LRU_INACTIVE_FILE : anon_lru,
				    "page %d after MADV_FREE", i);
		kunit_release_action(test, lrutest_folio_put_action, folio);
	}
	lrutest_vm_end(test);
}

#ifdef CONFIG_SWAP
/*
 * Documentation/mm/unevictable-lru.rst, "mlocking Transparent Huge Pages":
 * "If a user tries to mlock() part of a huge page, and no user mlock()s
 * the whole of the huge page, we want the rest of the page to be
 * reclaimable."  mlock() of the first half of a THP splits the PMD and the
 * VMA and leaves the folio evictable (allow_mlock_munlock()).  MADV_PAGEOUT
 * of the other half, which can_madv_lru_vma() allows, splits the folio:
 * remap_page() maps each page of the locked half again as a small folio of
 * a VM_LOCKED VMA, which folio_add_anon_rmap_ptes() mlocks (culled: the
 * split listed it; remove_migration_pte() drains the mlock batch for a
 * VM_LOCKED VMA, so the counts hold as madvise() returns), and each page
 * of the range is swapped out and unmapped (brd writes synchronously, so
 * each is freed in the same call).
 */
static void madvise_pageout_swaps_out_the_unlocked_half_of_a_thp(struct kunit *test)
{
	const long half = THP_PAGES / 2;
	unsigned long thp, splits, swapped;
	struct lrutest_stat before;
	struct folio *folio;
	int i;

	lrutest_swap_on(test);
	thp = lrutest_thp_map(test, &folio);
	fill_thp(folio);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, THP_SIZE / 2, 0), 0L);
	KUNIT_ASSERT_FALSE_MSG(test, folio_test_mlocked(folio), "set up: half a THP mlocked");
	kunit_release_action(test, lrutest_folio_put_action, folio);
	lrutest_stat(&before);
	splits = lrutest_vm_event(THP_SPLIT_PAGE);
	swapped = lrutest_vm_event(PSWPOUT);

	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, thp + THP_SIZE / 2, THP_SIZE / 2,
					 MADV_PAGEOUT), 0);
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(THP_SPLIT_PAGE) - splits, 1UL);
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PSWPOUT) - swapped, (unsigned long)half);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = half, .mlocked = half, .culled = half,
					.unevictable = half, .anon = -THP_PAGES, .lists = true },
				  "MADV_PAGEOUT of the unlocked half");
	for (i = 0; i < THP_PAGES; i++) {
		folio = lrutest_folio_at(test, thp + i * PAGE_SIZE);
		if (i >= half) {
			KUNIT_EXPECT_NULL_MSG(test, folio, "page %d still mapped", i);
			continue;
		}
		KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "locked page %d unmapped", i);
		KUNIT_EXPECT_FALSE_MSG(test, folio_test_large(folio), "locked page %d", i);
		lrutest_expect_mlocked(test, folio, 1, "a locked page of the split THP");
		kunit_release_action(test, lrutest_folio_put_action, folio);
	}
	lrutest_vm_end(test);
}
#else
static void madvise_pageout_swaps_out_the_unlocked_half_of_a_thp(struct kunit *test)
{
	kunit_skip(test, "CONFIG_SWAP is off: nowhere to page out to");
}
#endif

#if defined(CONFIG_MEMCG) && defined(CONFIG_SWAP)
/*
 * An anon THP faulted in a memcg is put on that memcg's deferred-split queue
 * (deferred_split_folio(): split_underused_thp).  When munmap() drops the
 * last reference, folios_put_refs() frees it with the rest of the TLB
 * gather's batch and takes it off the queue before uncharging the batch:
 * the queue and its lock are found through the folio's memcg, and
 * uncharge_folio() warns about a folio still queued ("mm: remove folio from
 * deferred split list before uncharging it").  Freed, uncharged, no
 * warning.
 */
static void munmap_frees_a_queued_thp_before_uncharging_it(struct kunit *test)
{
	struct lrutest_reclaim_stat a;
	struct lrutest_memcg *cg;
	struct folio *folio;
	unsigned long thp;

	if (test_taint(TAINT_WARN))
		kunit_skip(test, "TAINT_WARN already set: a new warning would not show");
	cg = lrutest_memcg_create(test);
	thp = lrutest_thp_map(test, &folio);
	KUNIT_ASSERT_PTR_EQ_MSG(test, folio_memcg(folio), cg->memcg,
				"set up: the THP charged to the test memcg");
	KUNIT_ASSERT_FALSE_MSG(test, list_empty(&folio->_deferred_list),
			       "set up: the THP on its deferred-split queue");
	/* Its mapping's reference is the last: munmap() frees it. */
	kunit_release_action(test, lrutest_folio_put_action, folio);
	KUNIT_ASSERT_EQ(test, folio_ref_count(folio), 1);

	KUNIT_ASSERT_EQ(test, vm_munmap(thp, THP_SIZE), 0);
	KUNIT_EXPECT_FALSE_MSG(test, test_taint(TAINT_WARN), "a warning as the THP was freed");
	lrutest_memcg_stat(cg, &a);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_stat_anon(&a), 0UL, "the THP still charged");
	lrutest_vm_end(test);
}
#else
static void munmap_frees_a_queued_thp_before_uncharging_it(struct kunit *test)
{
	kunit_skip(test, "CONFIG_MEMCG or CONFIG_SWAP is off: no memcg of the test's own");
}
#endif

#else /* !CONFIG_TRANSPARENT_HUGEPAGE */

static void thp_skip(struct kunit *test)
{
	kunit_skip(test, "CONFIG_TRANSPARENT_HUGEPAGE is off: no THP");
}

#define madvise_cold_splits_a_thp_without_its_first_page	thp_skip
#define madvise_free_of_half_a_pte_mapped_thp_lazyfrees_it	thp_skip
#define madvise_pageout_swaps_out_the_unlocked_half_of_a_thp	thp_skip
#define munmap_frees_a_queued_thp_before_uncharging_it		thp_skip

#endif

static struct kunit_case madvise_thp_cases[] = {
	KUNIT_CASE(madvise_cold_splits_a_thp_without_its_first_page),
	KUNIT_CASE(madvise_free_of_half_a_pte_mapped_thp_lazyfrees_it),
	KUNIT_CASE(madvise_pageout_swaps_out_the_unlocked_half_of_a_thp),
	KUNIT_CASE(munmap_frees_a_queued_thp_before_uncharging_it),
	{}
};

static struct kunit_suite madvise_thp_suite = {
	.name = "mm_madvise_thp",
	.init = lrutest_vm_init,
	.test_cases = madvise_thp_cases,
};

kunit_test_suite(madvise_thp_suite);

MODULE_DESCRIPTION("KUnit tests of madvise() of a THP partly in its range and of its free");
MODULE_LICENSE("GPL");
