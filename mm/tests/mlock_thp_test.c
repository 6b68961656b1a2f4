// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mlock and munlock of transparent huge pages, on real VMAs
 * (lru_vm.c).  Documentation/mm/unevictable-lru.rst, "mlocking Transparent
 * Huge Pages": a THP is one entry on an LRU list, so it can only be made
 * unevictable whole; "If a user tries to mlock() part of a huge page, and no
 * user mlock()s the whole of the huge page, we want the rest of the page to
 * be reclaimable", so a huge page only partly in a VM_LOCKED VMA is kept on
 * an evictable list ("the PMD on the border of a VM_LOCKED VMA will be split
 * into a PTE table").  Counters and events count pages (folio_nr_pages()).
 *
 * Needs CONFIG_TRANSPARENT_HUGEPAGE (the x86_64 configuration); skips
 * otherwise.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mman.h>

#include "lrutest.h"
#include "lrutest_mlock.h"

#ifdef CONFIG_TRANSPARENT_HUGEPAGE

#define THP_PAGES	HPAGE_PMD_NR
#define THP_SIZE	HPAGE_PMD_SIZE

/*
 * A PMD-mapped THP of anon memory: twice its size mapped, the aligned
 * half made MADV_HUGEPAGE and faulted by a write.  Returns its address and
 * the folio (a reference held until the case ends).
 */
static unsigned long thp_map(struct kunit *test, struct folio **folio)
{
	unsigned long addr, thp;

	addr = lrutest_mmap_anon(test, 2 * THP_PAGES, false);
	thp = ALIGN(addr, THP_SIZE);
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, thp, THP_SIZE, MADV_HUGEPAGE), 0);
	lrutest_touch(test, thp);
	lrutest_drain();
	*folio = lrutest_folio_at(test, thp);
	KUNIT_ASSERT_NOT_NULL(test, *folio);
	KUNIT_ASSERT_EQ_MSG(test, folio_nr_pages(*folio), (long)THP_PAGES,
			    "the fault of a MADV_HUGEPAGE range (THP enabled=%s)",
			    hugepage_global_always() ? "always" : "madvise/never");
	KUNIT_ASSERT_EQ_MSG(test, folio_entire_mapcount(*folio), 1, "PMD-mapped");
	return thp;
}

/*
 * A THP mapped by PTEs in one VMA: the PMD of a fresh THP is split by an
 * mprotect() of its first half and the VMA merged back by the mprotect()
 * that undoes it, so the folio is whole but mapped by 512 PTEs.
 */
static unsigned long thp_map_by_ptes(struct kunit *test, struct folio **folio)
{
	unsigned long thp;
	int maps;

	thp = thp_map(test, folio);
	maps = lrutest_map_count();
	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(thp, THP_SIZE / 2, PROT_READ, -1), 0L);
	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(thp, THP_SIZE / 2, PROT_READ | PROT_WRITE, -1), 0L);
	KUNIT_ASSERT_EQ_MSG(test, folio_entire_mapcount(*folio), 0, "set up: PMD split");
	KUNIT_ASSERT_EQ_MSG(test, folio_mapcount(*folio), (int)THP_PAGES,
			    "set up: every page mapped by a PTE");
	KUNIT_ASSERT_EQ_MSG(test, lrutest_map_count(), maps, "set up: the VMAs merged back");
	lrutest_drain();
	return thp;
}

/*
 * mlock() then munlock() of all of the THP at @thp, each checked as the
 * system call returns (mlock_vma_pages_range() drains, and a large folio
 * skips the mlock batch): mlocked once, counted in pages, then rescued.
 * @entire_mapcount is what the mlock leaves: 1 PMD-mapped, 0 PTE-mapped.
 */
static void thp_mlock_then_munlock_all(struct kunit *test, unsigned long thp,
				       struct folio *folio, int entire_mapcount,
				       const char *how)
{
	struct lrutest_stat before;

	lrutest_stat(&before);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, THP_SIZE, 0), 0L);
	KUNIT_EXPECT_EQ_MSG(test, folio_entire_mapcount(folio), entire_mapcount,
			    "%s: entire mapcount after mlock", how);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)THP_PAGES);
	lrutest_expect_mlocked(test, folio, 1, "after mlock of the THP");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = THP_PAGES, .mlocked = THP_PAGES,
					.culled = THP_PAGES },
				  "mlock of all of the THP");

	KUNIT_ASSERT_EQ(test, ksys_munlock(thp, THP_SIZE), 0L);
	lrutest_expect_evictable(test, folio, false, "after munlock of the THP");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = THP_PAGES, .culled = THP_PAGES,
					.munlocked = THP_PAGES, .rescued = THP_PAGES },
				  "mlock then munlock of all of the THP");
}

/* mlock() of exactly a PMD-mapped THP: unevictable, counted in pages. */
static void mlock_of_a_pmd_mapped_thp_counts_every_page(struct kunit *test)
{
	struct folio *folio;
	unsigned long thp;

	thp = thp_map(test, &folio);
	thp_mlock_then_munlock_all(test, thp, folio, 1, "PMD-mapped THP");
	lrutest_vm_end(test);
}

/* mlock() of half a THP: its PMD is split, the folio stays evictable. */
static void mlock_of_half_a_thp_leaves_it_evictable(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long thp;

	thp = thp_map(test, &folio);
	lrutest_stat(&before);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, THP_SIZE / 2, 0), 0L);
	lrutest_drain();
	KUNIT_EXPECT_EQ_MSG(test, folio_entire_mapcount(folio), 0,
			    "PMD split at the VM_LOCKED border");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)THP_PAGES / 2);
	lrutest_expect_evictable(test, folio, false, "after mlock of half the THP");
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "mlock of half a THP");
	lrutest_vm_end(test);
}

/*
 * mlock() of all of the THP at @thp, then munlock() of its first half, each
 * checked as the system call returns (a large folio skips the mlock batch,
 * and mlock_vma_pages_range() drains): nobody mlocks all of it any more,
 * so it is rescued.
 */
static void thp_mlock_then_munlock_half(struct kunit *test, unsigned long thp,
					struct folio *folio, const char *how)
{
	struct lrutest_stat before;

	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, THP_SIZE, 0), 0L);
	lrutest_expect_mlocked(test, folio, 1, "after mlock of the THP");
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_munlock(thp, THP_SIZE / 2), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)THP_PAGES / 2);
	lrutest_expect_evictable(test, folio, false, "after munlock of half the THP");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -THP_PAGES, .munlocked = THP_PAGES,
					.rescued = THP_PAGES },
				  how);
}

/*
 * munlock() of half a locked PMD-mapped THP: the PMD is split at the new
 * VMA border, and that rmap removal in the still VM_LOCKED VMA munlocks it.
 */
static void munlock_of_half_a_locked_thp_rescues_it(struct kunit *test)
{
	struct folio *folio;
	unsigned long thp;

	thp = thp_map(test, &folio);
	thp_mlock_then_munlock_half(test, thp, folio, "munlock of half a locked THP");
	lrutest_vm_end(test);
}

/*
 * munlock() of half a locked THP mapped by PTEs: no PMD is left to split,
 * so no rmap removal munlocks it on the way (as it does for a PMD-mapped
 * one, above); mlock_pte_range() meets the folio only partly in the
 * munlocked range and must still munlock it (allow_mlock_munlock(): "allow
 * munlock large folio which is partially mapped to VMA"), which rescues
 * it.
 */
static void munlock_of_half_a_pte_mapped_locked_thp_rescues_it(struct kunit *test)
{
	struct folio *folio;
	unsigned long thp;

	thp = thp_map_by_ptes(test, &folio);
	thp_mlock_then_munlock_half(test, thp, folio,
				    "munlock of half a locked PTE-mapped THP");
	lrutest_vm_end(test);
}

/*
 * mlock() of a THP mapped by PTEs (thp_map_by_ptes()), all of it in the
 * range: mlock_pte_range() steps over its PTEs in one batch
 * (folio_mlock_step()) and, the folio being fully in the locked range,
 * mlocks it once: mlock_count 1, counted in pages; munlock() rescues it.
 */
static void mlock_of_a_pte_mapped_thp_locks_it_once(struct kunit *test)
{
	struct folio *folio;
	unsigned long thp;

	thp = thp_map_by_ptes(test, &folio);
	thp_mlock_then_munlock_all(test, thp, folio, 0, "PTE-mapped THP");
	lrutest_vm_end(test);
}

/*
 * munmap() of half a locked THP: the PMD is split at the new VMA border and
 * the rmap removals in the VM_LOCKED VMA munlock the folio; the half left
 * mapped by PTEs in the locked VMA does not mlock it again, so the folio is
 * rescued, as unevictable-lru.rst wants of a huge page nobody mlocks whole.
 * (The document says munlock_vma_folio() is not called for "a PTE mapping
 * of a part of a transparent huge page"; 6.12's munlocks on every removal
 * from a VM_LOCKED VMA, "reclaim will correct it if it's wrong": the code
 * is what this checks.)
 */
static void munmap_of_half_a_locked_thp_rescues_it(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long thp;

	thp = thp_map(test, &folio);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, THP_SIZE, 0), 0L);
	lrutest_drain();
	lrutest_expect_mlocked(test, folio, 1, "after mlock of the THP");
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, vm_munmap(thp, THP_SIZE / 2), 0);
	lrutest_drain();
	KUNIT_EXPECT_EQ_MSG(test, folio_entire_mapcount(folio), 0,
			    "PMD split at the new VMA border");
	KUNIT_EXPECT_EQ_MSG(test, folio_mapcount(folio), (int)THP_PAGES / 2,
			    "the locked half still mapped by PTEs");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)THP_PAGES / 2);
	lrutest_expect_evictable(test, folio, false, "after munmap of half the THP");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -THP_PAGES, .munlocked = THP_PAGES,
					.rescued = THP_PAGES },
				  "munmap of half a locked THP");
	lrutest_vm_end(test);
}

#else /* !CONFIG_TRANSPARENT_HUGEPAGE */

static void thp_skip(struct kunit *test)
{
	kunit_skip(test, "CONFIG_TRANSPARENT_HUGEPAGE is off: no PMD-mapped THP");
}

#define mlock_of_a_pmd_mapped_thp_counts_every_page	thp_skip
#define mlock_of_half_a_thp_leaves_it_evictable		thp_skip
#define munlock_of_half_a_locked_thp_rescues_it		thp_skip
#define munmap_of_half_a_locked_thp_rescues_it		thp_skip
#define mlock_of_a_pte_mapped_thp_locks_it_once		thp_skip
#define munlock_of_half_a_pte_mapped_locked_thp_rescues_it	thp_skip

#endif

static struct kunit_case mlock_thp_cases[] = {
	KUNIT_CASE(mlock_of_a_pmd_mapped_thp_counts_every_page),
	KUNIT_CASE(mlock_of_half_a_thp_leaves_it_evictable),
	KUNIT_CASE(munlock_of_half_a_locked_thp_rescues_it),
	KUNIT_CASE(munmap_of_half_a_locked_thp_rescues_it),
	KUNIT_CASE(mlock_of_a_pte_mapped_thp_locks_it_once),
	KUNIT_CASE(munlock_of_half_a_pte_mapped_locked_thp_rescues_it),
	{}
};

static struct kunit_suite mlock_thp_suite = {
	.name = "mm_mlock_thp",
	.init = lrutest_vm_init,
	.test_cases = mlock_thp_cases,
};

kunit_test_suite(mlock_thp_suite);

MODULE_DESCRIPTION("KUnit tests of mlock and munlock of transparent huge pages");
MODULE_LICENSE("GPL");
