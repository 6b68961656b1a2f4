// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the munlock that unmapping does: munmap() of a locked
 * range, exit_mmap() of an mm with locked VMAs, truncation and hole punch of
 * a locked file zap the PTEs, and
 * folio_remove_rmap_*() -> munlock_vma_folio() must drop every mlock, so
 * that nothing stays PG_mlocked and NR_MLOCK returns to where it was.
 * The test holds a reference on each folio, so it can be checked after it
 * is unmapped (it is back on an evictable list until that reference goes).
 */
#include <kunit/test.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>

#include "lrutest.h"
#include "lrutest_mlock.h"

#define NPAGES	8
#define LEN(n)	((unsigned long)(n) << PAGE_SHIFT)

static const struct lrutest_stat locked_then_unlocked = {
	.mlocked = NPAGES, .culled = NPAGES,
	.munlocked = NPAGES, .rescued = NPAGES,
};

static void lock_populated(struct kunit *test, unsigned long *addr,
			   struct folio **folios)
{
	int i;

	*addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	for (i = 0; i < NPAGES; i++) {
		folios[i] = lrutest_folio_at(test, *addr + LEN(i));
		KUNIT_ASSERT_NOT_NULL(test, folios[i]);
	}
	KUNIT_ASSERT_EQ(test, ksys_mlock2(*addr, LEN(NPAGES), 0), 0L);
	lrutest_expect_mlocked(test, folios[0], 1, "locked before unmap");
}

/*
 * As an unmap returns, with no drain by the test: every munlock done.  The
 * zap queues each munlock in this CPU's mlock batch ("munlock_folio() uses
 * the mlock pagevec", unevictable-lru.rst), and the TLB flush that ends the
 * unmap frees the gathered pages through free_pages_and_swap_cache(), whose
 * lru_add_drain() drains it (the case's thread stays on its CPU): each
 * folio is back on its list with the test's reference only, so a folio
 * nobody else held would be free by now.  Without CONFIG_SWAP that free is
 * release_pages(), which drains nothing, and since 6.14 ("mm: remove
 * unnecessary calls to lru_add_drain") free_pages_and_swap_cache() does not
 * drain either: the munlocks then wait for the next drain, taken here
 * (drain_unless_the_unmap_did()).  By release, not by a probe of
 * free_pages_and_swap_cache(): a probe would take a drain lost from a
 * 6.12 kernel for that kernel's rule.
 */
static void drain_unless_the_unmap_did(void)
{
	if (IS_ENABLED(CONFIG_SWAP) && LRUTEST_RELEASE < KERNEL_VERSION(6, 14, 0))
		return;
	lrutest_drain();
}

static void expect_all_munlocked_by_unmap(struct kunit *test, struct folio **folios,
					  const char *what)
{
	int i;

	drain_unless_the_unmap_did();
	for (i = 0; i < NPAGES; i++) {
		KUNIT_EXPECT_FALSE_MSG(test, folio_mapped(folios[i]),
				       "%s: folio %d still mapped", what, i);
		lrutest_expect_rescued(test, folios[i], false, what);
		lrutest_expect_refs(test, folios[i], 0, 1, what);
	}
}

/* munmap() of a whole locked VMA munlocks every folio. */
static void munmap_of_locked_vma_munlocks_every_folio(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	lrutest_stat(&before);
	lock_populated(test, &addr, folios);

	KUNIT_ASSERT_EQ(test, vm_munmap(addr, LEN(NPAGES)), 0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	expect_all_munlocked_by_unmap(test, folios, "as munmap() returns");
	lrutest_expect_stat_delta(test, &before, &locked_then_unlocked,
				  "mlock then munmap");
	lrutest_vm_end(test);
}

/* munmap() of the middle of a locked VMA munlocks those folios only. */
static void munmap_of_locked_middle_munlocks_only_it(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;
	int i;

	lrutest_stat(&before);
	lock_populated(test, &addr, folios);

	KUNIT_ASSERT_EQ(test, vm_munmap(addr + LEN(3), LEN(2)), 0);
	/* As munmap() returns (expect_all_munlocked_by_unmap()). */
	drain_unless_the_unmap_did();
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES - 2);
	for (i = 0; i < NPAGES; i++) {
		if (i == 3 || i == 4)
			lrutest_expect_rescued(test, folios[i], false, "unmapped");
		else
			lrutest_expect_mlocked(test, folios[i], 1, "still mapped");
		lrutest_expect_refs(test, folios[i], i == 3 || i == 4 ? 0 : 1, 1,
				    "munmap of the middle");
	}
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES - 2, .mlocked = NPAGES,
					.culled = NPAGES, .munlocked = 2,
					.rescued = 2 },
				  "mlock then munmap of 2 pages");

	/*
	 * munlock() over the hole: apply_vma_lock_flags() unlocks the VMA
	 * before it, then finds the hole and stops with -ENOMEM, the VMA
	 * after it still locked.
	 */
	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), -ENOMEM);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES - 5);
	for (i = 0; i < NPAGES; i++) {
		if (i == 3 || i == 4)
			continue;
		if (i < 3)
			lrutest_expect_rescued(test, folios[i], false, "munlock up to the hole");
		else
			lrutest_expect_mlocked(test, folios[i], 1, "after the hole");
		lrutest_expect_refs(test, folios[i], 1, 1, "munlock over the hole");
	}
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES - 5, .mlocked = NPAGES,
					.culled = NPAGES, .munlocked = 5,
					.rescued = 5 },
				  "munlock over the hole");
	lrutest_vm_end(test);
}

/* The last mmput() of an mm with a locked VMA munlocks every folio. */
static void mm_exit_munlocks_every_folio(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	lrutest_stat(&before);
	lock_populated(test, &addr, folios);

	/*
	 * exit_mmap() unmaps through the same batch, flush and free; the
	 * fixture's release of the mm then runs the deferred fputs, which
	 * drains: this is checked after that drain, not as mmput() returns.
	 */
	lrutest_mm_exit(test);
	expect_all_munlocked_by_unmap(test, folios, "after the mm's exit");
	lrutest_expect_stat_delta(test, &before, &locked_then_unlocked,
				  "mlock then mm exit");
}

/*
 * munmap() of one of two locked VMAs that share a tmpfs file: the zap
 * munlocks each folio once for the VMA it unmaps (munlock_vma_folio()),
 * and each stays mlocked, mlock_count 1, for the VMA left: "__munlock_folio()
 * decrements the folio's mlock_count, and when that reaches 0 it clears the
 * mlocked flag" (unevictable-lru.rst, "munmap()/exit()/exec() System Call
 * Handling").  The munlocks are done as munmap() returns (the unmap's
 * drain, drain_unless_the_unmap_did()).
 */
static void munmap_of_one_of_two_locked_vmas_keeps_the_folios_locked(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long a, b;
	int i;

	lrutest_shmem_mapped_twice(test, NPAGES, &a, &b);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(a, LEN(NPAGES), 0), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(b, LEN(NPAGES), 0), 0L);
	for (i = 0; i < NPAGES; i++) {
		folios[i] = lrutest_folio_at(test, a + LEN(i));
		KUNIT_ASSERT_NOT_NULL(test, folios[i]);
		lrutest_expect_mlocked(test, folios[i], 2, "set up: locked in both VMAs");
	}
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, vm_munmap(a, LEN(NPAGES)), 0);
	drain_unless_the_unmap_did();
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	for (i = 0; i < NPAGES; i++) {
		lrutest_expect_mlocked(test, folios[i], 1, "still locked in the second VMA");
		lrutest_expect_refs(test, folios[i], 1, 1, "munmap of the first VMA");
	}
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "munmap of one of two locked VMAs");
	lrutest_vm_end(test);
}

/*
 * Truncation and hole punch of a locked tmpfs mapping ("Truncating MLOCKED
 * Pages", unevictable-lru.rst): the range is unmapped from every VMA by
 * unmap_mapping_range(), whose zap munlocks each folio as it unmaps it
 * (folio_remove_rmap_ptes() -> munlock_vma_folio()), before the folios
 * leave the page cache.  Truncation passes even_cows, so the anon copies a
 * private mapping made by COW go too ("truncation even unmaps and deletes
 * any private anonymous pages which had been Copied-On-Write"); a hole punch
 * does not (shmem_fallocate(): "hole-punching leaves COWed pages").
 */
struct truncate_row {
	const char *desc;
	bool private;	/* MAP_PRIVATE: mlock()'s populate copies every page */
	bool punch;	/* FALLOC_FL_PUNCH_HOLE, else ftruncate() to 0 */
};

static const struct truncate_row truncate_rows[] = {
	{ "ftruncate() of a locked shared mapping", false, false },
	{ "hole punch of a locked shared mapping", false, true },
	{ "ftruncate() of the COW copies of a locked private mapping", true, false },
};

KUNIT_ARRAY_PARAM_DESC(truncate, truncate_rows, desc);

/*
 * A tmpfs file of NPAGES pages mapped shared or private and mlock()ed: its
 * folios (the page cache, or the anon copies of a writable private mapping:
 * the populate writes) each mlocked once, a reference held by the case.
 */
static struct file *lock_tmpfs(struct kunit *test, bool private,
			       unsigned long *addr, struct folio **folios)
{
	struct file *file;
	int i;

	file = lrutest_shmem_file(test, NPAGES);
	*addr = lrutest_mmap(test, file, NPAGES, private ? MAP_PRIVATE : MAP_SHARED);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(*addr, LEN(NPAGES), 0), 0L);
	for (i = 0; i < NPAGES; i++) {
		folios[i] = lrutest_folio_at(test, *addr + LEN(i));
		KUNIT_ASSERT_NOT_NULL(test, folios[i]);
		KUNIT_ASSERT_EQ_MSG(test, folio_test_anon(folios[i]), private,
				    "set up: page %d anon", i);
		lrutest_expect_mlocked(test, folios[i], 1, "set up: locked");
	}
	return file;
}

static int zap_range(struct file *file, bool punch)
{
	if (punch)
		return vfs_fallocate(file, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				     0, LEN(NPAGES));
	return vfs_truncate(&file->f_path, 0);
}

/*
 * Each folio unmapped and munlocked as the call returns, with no drain by
 * the test: the munlocks queued by the zap are done by the lru_add_drain()
 * of the truncation's folio_batch_release(), which drains so that the
 * truncated folios can be freed at once.  The folios wait on an anon list
 * (tmpfs is swap-backed) for the case's reference to go; the VMA stays
 * VM_LOCKED, so locked_vm does not change.
 */
static void truncation_munlocks_the_locked_folios_it_unmaps(struct kunit *test)
{
	const struct truncate_row *row = test->param_value;
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	struct file *file;
	unsigned long addr;
	int i;

	file = lock_tmpfs(test, row->private, &addr, folios);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, zap_range(file, row->punch), 0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	for (i = 0; i < NPAGES; i++) {
		KUNIT_EXPECT_FALSE_MSG(test, folio_mapped(folios[i]),
				       "folio %d still mapped", i);
		if (!row->private)
			KUNIT_EXPECT_NULL_MSG(test, folios[i]->mapping,
					      "folio %d still in the page cache", i);
		lrutest_expect_rescued(test, folios[i], false, row->desc);
		lrutest_expect_refs(test, folios[i], 0, 1, row->desc);
	}
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -NPAGES, .munlocked = NPAGES,
					.rescued = NPAGES },
				  row->desc);
	lrutest_vm_end(test);
}

/*
 * A hole punch unmaps the page cache only: the anon copies of a locked
 * private mapping stay mapped, mlocked once and unevictable.
 */
static void hole_punch_keeps_the_locked_cow_copies_of_a_private_mapping(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	struct file *file;
	unsigned long addr;
	int i;

	file = lock_tmpfs(test, true, &addr, folios);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, zap_range(file, true), 0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	for (i = 0; i < NPAGES; i++) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, lrutest_folio_at(test, addr + LEN(i)),
					folios[i], "page %d: its copy unmapped", i);
		lrutest_expect_mlocked(test, folios[i], 1, "after the hole punch");
		/* Two: the lookup's just now and the set-up's. */
		lrutest_expect_refs(test, folios[i], 1, 2, "after the hole punch");
	}
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "hole punch of a locked private mapping");
	lrutest_vm_end(test);
}

static struct kunit_case munlock_unmap_cases[] = {
	KUNIT_CASE(munmap_of_locked_vma_munlocks_every_folio),
	KUNIT_CASE(munmap_of_locked_middle_munlocks_only_it),
	KUNIT_CASE(mm_exit_munlocks_every_folio),
	KUNIT_CASE(munmap_of_one_of_two_locked_vmas_keeps_the_folios_locked),
	KUNIT_CASE_PARAM(truncation_munlocks_the_locked_folios_it_unmaps, truncate_gen_params),
	KUNIT_CASE(hole_punch_keeps_the_locked_cow_copies_of_a_private_mapping),
	{}
};

static struct kunit_suite munlock_unmap_suite = {
	.name = "mm_munlock_unmap",
	.init = lrutest_vm_init,
	.test_cases = munlock_unmap_cases,
};

kunit_test_suite(munlock_unmap_suite);

MODULE_DESCRIPTION("KUnit tests of munlock by munmap, mm exit, truncation and hole punch");
MODULE_LICENSE("GPL");
