// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mlock(), mlock2() and munlock() on real VMAs of a user mm
 * attached to the test kthread: do_mlock() -> apply_vma_lock_flags() ->
 * mlock_fixup() -> mlock_vma_pages_range(), the populate that follows, and
 * the fault path of a VM_LOCKED VMA (folio_add_lru_vma() ->
 * mlock_new_folio()).  Checked on the test's own folios: PG_mlocked,
 * PG_unevictable, mlock_count, their list (walked), their references (no
 * batch or step keeps one: lrutest_expect_refs()), the VMA's VM_LOCKED and
 * VM_LOCKONFAULT, mm->locked_vm, NR_MLOCK and the unevictable_pgs_* events.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mman.h>

#include "lrutest_mlock.h"

#define NPAGES	8
#define LEN(n)	((unsigned long)(n) << PAGE_SHIFT)

/* Look up the folios of @pages pages at @addr; all must be present. */
static void get_folios(struct kunit *test, unsigned long addr, int pages,
		       struct folio **folios)
{
	int i;

	for (i = 0; i < pages; i++) {
		folios[i] = lrutest_folio_at(test, addr + LEN(i));
		KUNIT_ASSERT_NOT_NULL_MSG(test, folios[i], "no folio at page %d", i);
	}
}

static void expect_all_mlocked(struct kunit *test, struct folio **folios,
			       int pages, unsigned int count, const char *what)
{
	int i;

	for (i = 0; i < pages; i++) {
		lrutest_expect_mlocked(test, folios[i], count, what);
		lrutest_expect_refs(test, folios[i], 1, what);
	}
}

static void expect_all_evictable(struct kunit *test, struct folio **folios,
				 int pages, bool file, const char *what)
{
	int i;

	for (i = 0; i < pages; i++) {
		lrutest_expect_evictable(test, folios[i], file, what);
		lrutest_expect_refs(test, folios[i], 1, what);
	}
}

/* mlock() of populated anon memory culls every folio; munlock() rescues. */
static void mlock_populated_anon_culls_then_munlock_rescues(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	get_folios(test, addr, NPAGES, folios);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & (VM_LOCKED | VM_LOCKONFAULT),
			(vm_flags_t)VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	expect_all_mlocked(test, folios, NPAGES, 1, "after mlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock of populated anon");

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK, (vm_flags_t)0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	expect_all_evictable(test, folios, NPAGES, false, "after munlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = NPAGES, .culled = NPAGES,
					.munlocked = NPAGES, .rescued = NPAGES },
				  "mlock then munlock");
	lrutest_vm_end(test);
}

/* mlock() of unpopulated anon memory faults every page in, mlocked. */
static void mlock_unpopulated_anon_faults_in_mlocked(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, false);
	KUNIT_ASSERT_NULL(test, lrutest_folio_at(test, addr));
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	get_folios(test, addr, NPAGES, folios);
	expect_all_mlocked(test, folios, NPAGES, 1, "faulted in by mlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock of unpopulated anon");

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	expect_all_evictable(test, folios, NPAGES, false, "after munlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = NPAGES, .culled = NPAGES,
					.munlocked = NPAGES, .rescued = NPAGES },
				  "mlock then munlock");
	lrutest_vm_end(test);
}

/* mlock2(MLOCK_ONFAULT) locks nothing until a fault, then that folio only. */
static void mlock2_onfault_locks_only_the_faulted_folio(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long addr;
	int i;

	addr = lrutest_mmap_anon(test, NPAGES, false);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), MLOCK_ONFAULT), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK,
			(vm_flags_t)(VM_LOCKED | VM_LOCKONFAULT));
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	for (i = 0; i < NPAGES; i++)
		KUNIT_EXPECT_NULL_MSG(test, lrutest_folio_at(test, addr + LEN(i)),
				      "MLOCK_ONFAULT populated page %d", i);
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "mlock2(MLOCK_ONFAULT) before any fault");

	lrutest_touch(test, addr + LEN(3));
	lrutest_drain();
	folio = lrutest_folio_at(test, addr + LEN(3));
	KUNIT_ASSERT_NOT_NULL(test, folio);
	lrutest_expect_mlocked(test, folio, 1, "faulted in a VM_LOCKONFAULT VMA");
	for (i = 0; i < NPAGES; i++)
		if (i != 3)
			KUNIT_EXPECT_NULL_MSG(test, lrutest_folio_at(test, addr + LEN(i)),
					      "the fault populated page %d too", i);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 1, .mlocked = 1, .culled = 1 },
				  "one fault after MLOCK_ONFAULT");

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	lrutest_expect_evictable(test, folio, false, "after munlock");
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK, (vm_flags_t)0);
	lrutest_vm_end(test);
}

/*
 * mlock() of the middle of a VMA splits it in three and locks the middle
 * folios only; munlock() of the same range merges the VMA back.
 */
static void mlock_middle_splits_vma_and_munlock_merges(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr, start, end;
	int maps, i;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	get_folios(test, addr, NPAGES, folios);
	maps = lrutest_map_count();
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr + LEN(2), LEN(4), 0), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_map_count(), maps + 2);
	KUNIT_ASSERT_EQ(test, lrutest_vma_span(addr + LEN(2), &start, &end), 0);
	KUNIT_EXPECT_EQ(test, start, addr + LEN(2));
	KUNIT_EXPECT_EQ(test, end, addr + LEN(6));
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(addr + LEN(2)) & VM_LOCKED);
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr + LEN(6)) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 4UL);
	for (i = 0; i < NPAGES; i++) {
		if (i >= 2 && i < 6)
			lrutest_expect_mlocked(test, folios[i], 1, "inside the range");
		else
			lrutest_expect_evictable(test, folios[i], false,
						 "outside the range");
	}
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 4, .mlocked = 4, .culled = 4 },
				  "mlock of 4 middle pages");

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr + LEN(2), LEN(4)), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_map_count(), maps);
	KUNIT_ASSERT_EQ(test, lrutest_vma_span(addr, &start, &end), 0);
	KUNIT_EXPECT_EQ(test, start, addr);
	KUNIT_EXPECT_EQ(test, end, addr + LEN(NPAGES));
	expect_all_evictable(test, folios, NPAGES, false, "after munlock");
	lrutest_vm_end(test);
}

/*
 * mlock() of a range that is already locked, or partly locked, locks only
 * what was not: mlock_count, locked_vm and the counters must not drift.
 */
static void mlock_locked_range_again_changes_nothing(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	const struct lrutest_stat locked = {
		.nr_mlock = NPAGES, .mlocked = NPAGES, .culled = NPAGES,
	};
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	get_folios(test, addr, NPAGES, folios);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(4), 0), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr + LEN(2), LEN(NPAGES - 2), 0), 0L);
	expect_all_mlocked(test, folios, NPAGES, 1, "overlapping mlocks");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	lrutest_expect_stat_delta(test, &before, &locked, "overlapping mlocks");

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	expect_all_mlocked(test, folios, NPAGES, 1, "mlock of a locked range");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	lrutest_expect_stat_delta(test, &before, &locked, "mlock of a locked range");

	/* Locked to locked-on-fault and back: a flags change, no new mlock. */
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), MLOCK_ONFAULT), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK,
			(vm_flags_t)(VM_LOCKED | VM_LOCKONFAULT));
	expect_all_mlocked(test, folios, NPAGES, 1, "relocked on fault");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK,
			(vm_flags_t)VM_LOCKED);
	expect_all_mlocked(test, folios, NPAGES, 1, "relocked at once");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	lrutest_expect_stat_delta(test, &before, &locked, "flags changes of a locked range");

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	expect_all_evictable(test, folios, NPAGES, false, "after one munlock");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	lrutest_vm_end(test);
}

/*
 * A shmem folio mapped in two locked VMAs is mlocked twice: the first
 * munlock leaves it unevictable, the second rescues it to an anon list
 * (shmem is swap-backed).
 */
static void shmem_folio_in_two_locked_vmas_needs_both_munlocked(struct kunit *test)
{
	const int pages = 4;
	struct folio *folios[4], *other;
	struct lrutest_stat before;
	unsigned long a, b;
	struct file *file;
	int i;

	file = lrutest_shmem_file(test, pages);
	a = lrutest_mmap(test, file, pages, MAP_SHARED | MAP_POPULATE);
	b = lrutest_mmap(test, file, pages, MAP_SHARED | MAP_POPULATE);
	lrutest_drain();
	get_folios(test, a, pages, folios);
	for (i = 0; i < pages; i++) {
		other = lrutest_folio_at(test, b + LEN(i));
		KUNIT_ASSERT_PTR_EQ_MSG(test, other, folios[i],
					"page %d: the two mappings differ", i);
		kunit_release_action(test, lrutest_folio_put_action, other);
	}
	lrutest_expect_evictable(test, folios[0], false, "shmem before mlock");
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(a, LEN(pages), 0), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(b, LEN(pages), 0), 0L);
	expect_all_mlocked(test, folios, pages, 2, "locked in both VMAs");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = pages, .mlocked = pages,
					.culled = pages },
				  "mlock of both VMAs");

	KUNIT_ASSERT_EQ(test, ksys_munlock(a, LEN(pages)), 0L);
	expect_all_mlocked(test, folios, pages, 1, "still locked in the second VMA");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = pages, .mlocked = pages,
					.culled = pages },
				  "munlock of the first VMA");

	KUNIT_ASSERT_EQ(test, ksys_munlock(b, LEN(pages)), 0L);
	expect_all_evictable(test, folios, pages, false, "unlocked in both VMAs");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = pages, .culled = pages,
					.munlocked = pages, .rescued = pages },
				  "munlock of both VMAs");
	lrutest_vm_end(test);
}

/*
 * mlock() of a shared mapping of a page-cache file (a RAM disk) culls its
 * folios from the file LRU; munlock() rescues them back to a file list.
 */
static void mlock_pagecache_file_culls_then_rescues_to_file_list(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	addr = lrutest_mmap(test, lrutest_pagecache_file(test), NPAGES,
			    MAP_SHARED | MAP_POPULATE);
	lrutest_drain();
	get_folios(test, addr, NPAGES, folios);
	KUNIT_EXPECT_FALSE(test, folio_test_swapbacked(folios[0]));
	expect_all_evictable(test, folios, NPAGES, true, "page cache before mlock");
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	expect_all_mlocked(test, folios, NPAGES, 1, "page cache after mlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock of a page-cache mapping");

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	expect_all_evictable(test, folios, NPAGES, true, "page cache after munlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = NPAGES, .culled = NPAGES,
					.munlocked = NPAGES, .rescued = NPAGES },
				  "mlock then munlock of a page-cache mapping");
	lrutest_vm_end(test);
}

/* mprotect() of part of a locked VMA splits it; everything stays locked. */
static void mprotect_of_locked_range_keeps_it_locked(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	const struct lrutest_stat locked = {
		.nr_mlock = NPAGES, .mlocked = NPAGES, .culled = NPAGES,
	};
	unsigned long addr;
	int maps, i;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	get_folios(test, addr, NPAGES, folios);
	lrutest_stat(&before);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	maps = lrutest_map_count();

	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(addr + LEN(2), LEN(2), PROT_READ, -1), 0L);
	lrutest_drain();
	KUNIT_EXPECT_EQ(test, lrutest_map_count(), maps + 2);
	for (i = 0; i < NPAGES; i += 2)
		KUNIT_EXPECT_TRUE_MSG(test, lrutest_vma_flags(addr + LEN(i)) & VM_LOCKED,
				      "page %d lost VM_LOCKED", i);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	expect_all_mlocked(test, folios, NPAGES, 1, "after mprotect");
	lrutest_expect_stat_delta(test, &before, &locked, "mprotect of a locked range");

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	expect_all_evictable(test, folios, NPAGES, false, "after munlock");
	lrutest_vm_end(test);
}

/* mremap() growing a locked VMA locks and populates the new pages. */
static void mremap_grow_of_locked_vma_locks_new_pages(struct kunit *test)
{
	const int old_pages = 4;
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr, new_addr;
	long ret;

	addr = lrutest_mmap_anon(test, old_pages, true);
	lrutest_drain();
	lrutest_stat(&before);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(old_pages), 0), 0L);

	ret = ksys_mremap(addr, LEN(old_pages), LEN(NPAGES), MREMAP_MAYMOVE, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(ret), "mremap: %ld", ret);
	new_addr = ret;
	lrutest_drain();
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(new_addr) & VM_LOCKED);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(new_addr + LEN(NPAGES - 1)) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	get_folios(test, new_addr, NPAGES, folios);
	expect_all_mlocked(test, folios, NPAGES, 1, "after mremap grow");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock then mremap grow");

	KUNIT_ASSERT_EQ(test, ksys_munlock(new_addr, LEN(NPAGES)), 0L);
	expect_all_evictable(test, folios, NPAGES, false, "after munlock");
	lrutest_vm_end(test);
}

static struct kunit_case mlock_vma_cases[] = {
	KUNIT_CASE(mlock_populated_anon_culls_then_munlock_rescues),
	KUNIT_CASE(mlock_unpopulated_anon_faults_in_mlocked),
	KUNIT_CASE(mlock2_onfault_locks_only_the_faulted_folio),
	KUNIT_CASE(mlock_middle_splits_vma_and_munlock_merges),
	KUNIT_CASE(mlock_locked_range_again_changes_nothing),
	KUNIT_CASE(shmem_folio_in_two_locked_vmas_needs_both_munlocked),
	KUNIT_CASE(mlock_pagecache_file_culls_then_rescues_to_file_list),
	KUNIT_CASE(mprotect_of_locked_range_keeps_it_locked),
	KUNIT_CASE(mremap_grow_of_locked_vma_locks_new_pages),
	{}
};

static struct kunit_suite mlock_vma_suite = {
	.name = "mm_mlock_vma",
	.init = lrutest_vm_init,
	.test_cases = mlock_vma_cases,
};

kunit_test_suite(mlock_vma_suite);

MODULE_DESCRIPTION("KUnit tests of mlock/munlock on real VMAs");
MODULE_LICENSE("GPL");
