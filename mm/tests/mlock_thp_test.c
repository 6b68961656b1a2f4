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
#include <linux/pagemap.h>
#include <linux/rmap.h>

#include "lrutest.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#ifdef CONFIG_TRANSPARENT_HUGEPAGE

#define THP_PAGES	HPAGE_PMD_NR
#define THP_SIZE	HPAGE_PMD_SIZE

/*
 * Since @before, @folio mlocked once, as the whole of it: mlock_count 1 on
 * LRU_UNEVICTABLE, and NR_MLOCK, PGMLOCKED and PGCULLED each up by its
 * pages (a large folio skips the mlock batch: no drain).
 */
static void expect_thp_mlocked_since(struct kunit *test, struct folio *folio,
				     const struct lrutest_stat *before, const char *what)
{
	lrutest_expect_mlocked(test, folio, 1, what);
	lrutest_expect_stat_delta(test, before,
				  &(struct lrutest_stat){
					.nr_mlock = THP_PAGES, .mlocked = THP_PAGES,
					.culled = THP_PAGES },
				  what);
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
	expect_thp_mlocked_since(test, folio, &before, "mlock of all of the THP");

	KUNIT_ASSERT_EQ(test, ksys_munlock(thp, THP_SIZE), 0L);
	lrutest_expect_rescued(test, folio, false, "after munlock of the THP");
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

	thp = lrutest_thp_map(test, &folio);
	thp_mlock_then_munlock_all(test, thp, folio, 1, "PMD-mapped THP");
	lrutest_vm_end(test);
}

/* mlock() of half a THP: its PMD is split, the folio stays evictable. */
static void mlock_of_half_a_thp_leaves_it_evictable(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long thp;

	thp = lrutest_thp_map(test, &folio);
	lrutest_stat(&before);
	/* No drain: mlock2() ends with populate_vma_page_range()'s. */
	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, THP_SIZE / 2, 0), 0L);
	KUNIT_EXPECT_EQ_MSG(test, folio_entire_mapcount(folio), 0,
			    "PMD split at the VM_LOCKED border");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)THP_PAGES / 2);
	lrutest_expect_evictable(test, folio, false, "after mlock of half the THP");
	/* Mapped by its PTEs now, a reference each, and the case's own. */
	lrutest_expect_refs(test, folio, THP_PAGES, 1, "after mlock of half the THP");
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
	lrutest_expect_rescued(test, folio, false, "after munlock of half the THP");
	lrutest_expect_refs(test, folio, THP_PAGES, 1, "after munlock of half the THP");
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

	thp = lrutest_thp_map(test, &folio);
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

	thp = lrutest_thp_map_by_ptes(test, &folio);
	thp_mlock_then_munlock_half(test, thp, folio,
				    "munlock of half a locked PTE-mapped THP");
	lrutest_vm_end(test);
}

/*
 * mlock() of a THP mapped by PTEs (lrutest_thp_map_by_ptes()), all of it in the
 * range: mlock_pte_range() steps over its PTEs in one batch
 * (folio_mlock_step()) and, the folio being fully in the locked range,
 * mlocks it once: mlock_count 1, counted in pages; munlock() rescues it.
 */
static void mlock_of_a_pte_mapped_thp_locks_it_once(struct kunit *test)
{
	struct folio *folio;
	unsigned long thp;

	thp = lrutest_thp_map_by_ptes(test, &folio);
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

	thp = lrutest_thp_map(test, &folio);
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
	lrutest_expect_rescued(test, folio, false, "after munmap of half the THP");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -THP_PAGES, .munlocked = THP_PAGES,
					.rescued = THP_PAGES },
				  "munmap of half a locked THP");
	lrutest_vm_end(test);
}

/*
 * A THP mapped whole, by PTEs, in one VM_LOCKED VMA, and not mlocked: the
 * mlock of it, undone by a munlock of its first page (which splits the VMA
 * and munlocks the folio), is not redone by the mlock of that page that
 * merges the VMAs back, since mlock_pte_range() mlocks a large folio only
 * if the range covers it (allow_mlock_munlock()).  The mlock that went
 * missing is for reclaim's rmap walks to restore.
 */
static unsigned long thp_map_locked_unmlocked(struct kunit *test, struct folio **folio)
{
	unsigned long thp;
	int maps;

	thp = lrutest_thp_map_by_ptes(test, folio);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, THP_SIZE, 0), 0L);
	maps = lrutest_map_count();
	KUNIT_ASSERT_EQ(test, ksys_munlock(thp, PAGE_SIZE), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, PAGE_SIZE, 0), 0L);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_map_count(), maps,
			    "set up: the locked VMA whole again");
	KUNIT_ASSERT_TRUE(test, lrutest_vma_flags(thp) & VM_LOCKED);
	KUNIT_ASSERT_EQ(test, folio_mapcount(*folio), (int)THP_PAGES);
	lrutest_expect_evictable(test, *folio, false, "set up: not mlocked");
	return thp;
}

/*
 * folio_referenced() (reclaim's check of a folio's references) that meets
 * a VM_LOCKED VMA mapping the whole large folio, within one page table,
 * restores the mlock that went missing and reports VM_LOCKED, so that
 * reclaim culls the folio rather than evicting it.
 */
static void folio_referenced_restores_the_mlock_of_a_locked_pte_mapped_thp(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	bool locked;

	thp_map_locked_unmlocked(test, &folio);
	lrutest_stat(&before);
	folio_lock(folio);
	lrutest_folio_referenced(folio, &locked);
	folio_unlock(folio);
	KUNIT_EXPECT_TRUE_MSG(test, locked, "VM_LOCKED reported to reclaim");
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), (int)THP_PAGES);
	expect_thp_mlocked_since(test, folio, &before, "folio_referenced() of a locked THP");
	lrutest_vm_end(test);
}

/*
 * folio_referenced() of a THP that a VM_LOCKED VMA maps only in part (its
 * first half mlock()ed, which leaves it evictable), isolated as reclaim
 * has it: folio_referenced_one() restores a missed mlock of a large folio
 * only if the locked VMA maps all of it (6.12: folio_within_vma() and
 * every PTE; 7.3: "Only mlock fully mapped pages"), so the walk neither
 * mlocks it nor reports VM_LOCKED, and it counts no reference of the
 * pages in the locked VMA.  Every PTE is young (the PMD the split copied
 * was), so the unlocked VMA alone is the one referencing VMA: 1.  Put back,
 * the folio is listed at once (a large folio skips the lru_add batch).
 */
static void folio_referenced_skips_the_locked_half_of_a_thp(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long thp;
	bool locked;
	int ret;

	thp = lrutest_thp_map(test, &folio);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(thp, THP_SIZE / 2, 0), 0L);
	KUNIT_ASSERT_EQ_MSG(test, folio_mapcount(folio), (int)THP_PAGES,
			    "set up: mapped by the PTEs of two VMAs");
	lrutest_stat(&before);
	lrutest_isolate(test, folio);

	folio_lock(folio);
	ret = lrutest_folio_referenced(folio, &locked);
	folio_unlock(folio);
	KUNIT_EXPECT_EQ_MSG(test, ret, 1, "referencing VMAs");
	KUNIT_EXPECT_FALSE_MSG(test, locked, "VM_LOCKED reported to reclaim");
	lrutest_putback(test, folio);
	lrutest_expect_evictable(test, folio, false, "put back after folio_referenced()");
	lrutest_expect_refs(test, folio, THP_PAGES, 1, "put back after folio_referenced()");
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "folio_referenced() of half a locked THP");
	lrutest_vm_end(test);
}

/*
 * try_to_unmap() (reclaim's unmap, reached without folio_referenced() when
 * references are ignored) that meets the VM_LOCKED VMA mapping the whole
 * large folio unmaps nothing and restores the missing mlock.  Linux before
 * 6.19 restored it for small folios only.
 */
static void try_to_unmap_restores_the_mlock_of_a_locked_thp(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;

	thp_map_locked_unmlocked(test, &folio);
	lrutest_stat(&before);
	folio_lock(folio);
	try_to_unmap(folio, 0);
	folio_unlock(folio);
	KUNIT_EXPECT_EQ_MSG(test, folio_mapcount(folio), (int)THP_PAGES, "nothing unmapped");
	lrutest_skip_known_bug(test, folio_test_mlocked(folio), KERNEL_VERSION(6, 19, 0),
			       "8c49fbafedf1 (\"mm/rmap: mlock large folios in try_to_unmap_one()\")");
	expect_thp_mlocked_since(test, folio, &before, "try_to_unmap() of a locked THP");
	lrutest_vm_end(test);
}

/*
 * mmap(MAP_LOCKED) of a huge tmpfs file: the populate faults the PMD-sized
 * folio in, mapped whole by the VM_LOCKED VMA, and unevictable-lru.rst
 * ("mmap(MAP_LOCKED) System Call Handling") wants the pages mlocked as the
 * call returns.  A large folio skips the mlock batch, so no drain is needed.
 * Linux before 6.19 mlocks no large folio at map time ("leave page reclaim
 * to handle large folio"): Mlocked is short by the whole folio until reclaim
 * happens to meet it.
 */
static void map_locked_of_a_huge_tmpfs_folio_mlocks_it(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	struct file *file;

	folio = lrutest_shmem_huge_folio(test, &file);
	lrutest_stat(&before);
	lrutest_mmap(test, file, THP_PAGES, MAP_SHARED | MAP_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)THP_PAGES);
	KUNIT_ASSERT_EQ_MSG(test, folio_entire_mapcount(folio), 1,
			    "the populate maps the whole folio by its PMD");
	lrutest_skip_known_bug(test, folio_test_mlocked(folio), KERNEL_VERSION(6, 19, 0),
			       "ab521b4142aa (\"mm/rmap: improve mlock tracking for large folios\")");
	expect_thp_mlocked_since(test, folio, &before, "mmap(MAP_LOCKED) of a huge tmpfs folio");
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
#define map_locked_of_a_huge_tmpfs_folio_mlocks_it	thp_skip
#define folio_referenced_restores_the_mlock_of_a_locked_pte_mapped_thp	thp_skip
#define folio_referenced_skips_the_locked_half_of_a_thp	thp_skip
#define try_to_unmap_restores_the_mlock_of_a_locked_thp	thp_skip

#endif

static struct kunit_case mlock_thp_cases[] = {
	KUNIT_CASE(mlock_of_a_pmd_mapped_thp_counts_every_page),
	KUNIT_CASE(mlock_of_half_a_thp_leaves_it_evictable),
	KUNIT_CASE(munlock_of_half_a_locked_thp_rescues_it),
	KUNIT_CASE(munmap_of_half_a_locked_thp_rescues_it),
	KUNIT_CASE(mlock_of_a_pte_mapped_thp_locks_it_once),
	KUNIT_CASE(munlock_of_half_a_pte_mapped_locked_thp_rescues_it),
	KUNIT_CASE(map_locked_of_a_huge_tmpfs_folio_mlocks_it),
	KUNIT_CASE(folio_referenced_restores_the_mlock_of_a_locked_pte_mapped_thp),
	KUNIT_CASE(folio_referenced_skips_the_locked_half_of_a_thp),
	KUNIT_CASE(try_to_unmap_restores_the_mlock_of_a_locked_thp),
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
