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
#include <linux/hugetlb.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/mman.h>

#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

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

static void expect_all_mlocked(struct kunit *test, struct folio **folios, int pages,
			       int mapped, unsigned int count, const char *what)
{
	int i;

	for (i = 0; i < pages; i++) {
		lrutest_expect_mlocked(test, folios[i], count, what);
		lrutest_expect_refs(test, folios[i], mapped, 1, what);
	}
}

/*
 * Each folio evictable (and, @rescued from an mlock, on the inactive list
 * where the classic LRU says so), @mapped times, no reference kept.
 */
static void expect_all_evictable(struct kunit *test, struct folio **folios, int pages,
				 int mapped, bool file, bool rescued, const char *what)
{
	int i;

	for (i = 0; i < pages; i++) {
		if (rescued)
			lrutest_expect_rescued(test, folios[i], file, what);
		else
			lrutest_expect_evictable(test, folios[i], file, what);
		lrutest_expect_refs(test, folios[i], mapped, 1, what);
	}
}

/* NPAGES populated anon pages, this CPU's batches drained: their folios. */
static unsigned long map_populated(struct kunit *test, struct folio **folios)
{
	unsigned long addr = lrutest_mmap_anon(test, NPAGES, true);

	lrutest_drain();
	get_folios(test, addr, NPAGES, folios);
	return addr;
}

/* map_populated()'s pages, mlock()ed: every folio mlocked once. */
static unsigned long lock_populated(struct kunit *test, struct folio **folios)
{
	unsigned long addr = map_populated(test, folios);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	return addr;
}

/*
 * mlock() of populated anon memory: mlock_fixup() sets VM_LOCKED only and
 * charges locked_vm, mlock_vma_pages_range() mlocks every present folio and
 * culls it to the unevictable list, and drains before it returns.
 */
static void mlock_of_populated_anon_culls_every_folio(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	addr = map_populated(test, folios);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & (VM_LOCKED | VM_LOCKONFAULT),
			(vm_flags_t)VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	expect_all_mlocked(test, folios, NPAGES, 1, 1, "after mlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock of populated anon");
	lrutest_vm_end(test);
}

/*
 * mlock() of unpopulated anon memory faults every page in, mlocked: the
 * populate's faults add each new folio with mlock_new_folio(), and
 * populate_vma_page_range() drains before mlock() returns.
 */
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
	expect_all_mlocked(test, folios, NPAGES, 1, 1, "faulted in by mlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock of unpopulated anon");
	lrutest_vm_end(test);
}

/* NPAGES unpopulated anon pages, mlock()ed: faulted in, each folio mlocked. */
static unsigned long lock_unpopulated(struct kunit *test, struct folio **folios)
{
	unsigned long addr = lrutest_mmap_anon(test, NPAGES, false);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	get_folios(test, addr, NPAGES, folios);
	return addr;
}

/*
 * mlock2(MLOCK_ONFAULT) sets VM_LOCKED | VM_LOCKONFAULT and charges
 * locked_vm, but do_mlock() populates nothing (populate_vma_page_range()
 * returns at once on a VM_LOCKONFAULT VMA): no page is faulted in, no
 * counter moves.
 */
static void mlock2_onfault_populates_nothing(struct kunit *test)
{
	struct lrutest_stat before;
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
	lrutest_vm_end(test);
}

/*
 * A write fault in a VM_LOCKONFAULT VMA: folio_add_lru_vma() adds the new
 * folio with mlock_new_folio(), mlocked and culled once the batch drains;
 * no other page is faulted in.
 */
static void mlock2_onfault_locks_only_the_faulted_folio(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long addr;
	int i;

	addr = lrutest_mmap_anon(test, NPAGES, false);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), MLOCK_ONFAULT), 0L);
	lrutest_stat(&before);

	lrutest_touch(test, addr + LEN(3));
	lrutest_drain();
	folio = lrutest_folio_at(test, addr + LEN(3));
	KUNIT_ASSERT_NOT_NULL(test, folio);
	lrutest_expect_mlocked(test, folio, 1, "faulted in a VM_LOCKONFAULT VMA");
	lrutest_expect_refs(test, folio, 1, 1, "faulted in a VM_LOCKONFAULT VMA");
	for (i = 0; i < NPAGES; i++)
		if (i != 3)
			KUNIT_EXPECT_NULL_MSG(test, lrutest_folio_at(test, addr + LEN(i)),
					      "the fault populated page %d too", i);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 1, .mlocked = 1, .culled = 1 },
				  "one fault after MLOCK_ONFAULT");
	lrutest_vm_end(test);
}

/*
 * munlock() of a VM_LOCKONFAULT VMA with one page faulted in: mlock_fixup()
 * clears both flags and uncharges locked_vm, and mlock_vma_pages_range()
 * rescues the one folio it finds.
 */
static void munlock_of_an_onfault_vma_rescues_the_faulted_folio(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, false);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), MLOCK_ONFAULT), 0L);
	lrutest_touch(test, addr + LEN(3));
	lrutest_drain();
	folio = lrutest_folio_at(test, addr + LEN(3));
	KUNIT_ASSERT_NOT_NULL(test, folio);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	lrutest_expect_rescued(test, folio, false, "after munlock");
	lrutest_expect_refs(test, folio, 1, 1, "after munlock");
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK, (vm_flags_t)0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -1, .munlocked = 1, .rescued = 1 },
				  "munlock of the VM_LOCKONFAULT VMA");
	lrutest_vm_end(test);
}

/*
 * mlock() of pages 2 to 5 of a VMA: mlock_fixup() -> vma_modify_flags()
 * splits the VMA at both ends of the range, only the middle VMA gets
 * VM_LOCKED, and locked_vm is charged for it alone.
 */
static void mlock_of_the_middle_splits_the_vma_in_three(struct kunit *test)
{
	struct folio *folios[NPAGES];
	unsigned long addr, start, end;
	int maps;

	addr = map_populated(test, folios);
	maps = lrutest_map_count();

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr + LEN(2), LEN(4), 0), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_map_count(), maps + 2);
	KUNIT_ASSERT_EQ(test, lrutest_vma_span(addr + LEN(2), &start, &end), 0);
	KUNIT_EXPECT_EQ(test, start, addr + LEN(2));
	KUNIT_EXPECT_EQ(test, end, addr + LEN(6));
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(addr + LEN(2)) & VM_LOCKED);
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr + LEN(6)) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 4UL);
	lrutest_vm_end(test);
}

/*
 * mlock() of pages 2 to 5: mlock_vma_pages_range() walks the middle VMA
 * only, so its four folios are mlocked and the others stay evictable.
 */
static void mlock_of_the_middle_locks_only_its_folios(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;
	int i;

	addr = map_populated(test, folios);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr + LEN(2), LEN(4), 0), 0L);
	for (i = 0; i < NPAGES; i++) {
		if (i >= 2 && i < 6)
			lrutest_expect_mlocked(test, folios[i], 1, "inside the range");
		else
			lrutest_expect_evictable(test, folios[i], false,
						 "outside the range");
		lrutest_expect_refs(test, folios[i], 1, 1, "mlock of the middle");
	}
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 4, .mlocked = 4, .culled = 4 },
				  "mlock of 4 middle pages");
	lrutest_vm_end(test);
}

/*
 * map_populated()'s pages with pages 2 to 5 mlock()ed, three VMAs; @maps
 * set to the mm's VMAs before the mlock.
 */
static unsigned long lock_the_middle(struct kunit *test, struct folio **folios, int *maps)
{
	unsigned long addr = map_populated(test, folios);

	*maps = lrutest_map_count();
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr + LEN(2), LEN(4), 0), 0L);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_map_count(), *maps + 2, "set up: the VMA split");
	return addr;
}

/*
 * munlock() of the locked middle: mlock_fixup() clears VM_LOCKED, and
 * vma_modify_flags() merges the middle VMA with both neighbours, now alike,
 * back into the one VMA of the mapping.
 */
static void munlock_of_the_middle_merges_the_vmas(struct kunit *test)
{
	struct folio *folios[NPAGES];
	unsigned long addr, start, end;
	int maps;

	addr = lock_the_middle(test, folios, &maps);

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr + LEN(2), LEN(4)), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_map_count(), maps);
	KUNIT_ASSERT_EQ(test, lrutest_vma_span(addr, &start, &end), 0);
	KUNIT_EXPECT_EQ(test, start, addr);
	KUNIT_EXPECT_EQ(test, end, addr + LEN(NPAGES));
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	lrutest_vm_end(test);
}

/*
 * munlock() of the locked middle rescues its four folios; the other four,
 * never locked, stay evictable.
 */
static void munlock_of_the_middle_rescues_its_folios(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;
	int maps;

	addr = lock_the_middle(test, folios, &maps);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr + LEN(2), LEN(4)), 0L);
	/* Pages 2 to 5 rescued; the others were never locked. */
	expect_all_evictable(test, folios, 2, 1, false, false, "before the middle");
	expect_all_evictable(test, folios + 2, 4, 1, false, true, "after munlock");
	expect_all_evictable(test, folios + 6, NPAGES - 6, 1, false, false, "after the middle");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -4, .munlocked = 4, .rescued = 4 },
				  "munlock of the 4 middle pages");
	lrutest_vm_end(test);
}

/* NPAGES mlocked pages, each folio mlocked once, with their counters. */
static const struct lrutest_stat locked_all = {
	.nr_mlock = NPAGES, .mlocked = NPAGES, .culled = NPAGES,
};

/*
 * mlock() of a range partly locked already: apply_vma_lock_flags() calls
 * mlock_fixup() on each VMA of the range, which leaves a VMA that is
 * VM_LOCKED alone ("mlocking twice would be wrong") and locks the rest, so
 * each page is charged and mlocked once.
 */
static void overlapping_mlocks_lock_each_page_once(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	addr = map_populated(test, folios);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(4), 0), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr + LEN(2), LEN(NPAGES - 2), 0), 0L);
	expect_all_mlocked(test, folios, NPAGES, 1, 1, "overlapping mlocks");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	lrutest_expect_stat_delta(test, &before, &locked_all, "overlapping mlocks");
	lrutest_vm_end(test);
}

/* overlapping_mlocks_lock_each_page_once()'s locked range. */
static unsigned long lock_overlapping(struct kunit *test, struct folio **folios)
{
	unsigned long addr = map_populated(test, folios);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(4), 0), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr + LEN(2), LEN(NPAGES - 2), 0), 0L);
	return addr;
}

/*
 * The mlock2() calls of the whole locked range, in turn: each row's call is
 * made after the calls of the rows before it (made as its set up).
 */
struct relock_row {
	const char *desc;
	int flags;		/* of mlock2() */
	vm_flags_t vma;		/* VM_LOCKED_MASK of the VMA after it */
};

static const struct relock_row relock_rows[] = {
	{ "mlock() of the locked range", 0, VM_LOCKED },
	{ "mlock2(MLOCK_ONFAULT) of the locked range", MLOCK_ONFAULT,
	  VM_LOCKED | VM_LOCKONFAULT },
	{ "mlock() of the range locked on fault", 0, VM_LOCKED },
};

KUNIT_ARRAY_PARAM_DESC(relock, relock_rows, desc);

/*
 * mlock2() of a range that is all locked already, at once or on fault:
 * mlock_fixup() finds the flags unchanged, or VM_LOCKED before and after
 * and only sets the new ones; either way it neither charges locked_vm nor
 * calls mlock_vma_pages_range(), and the populate finds every page present,
 * so mlock_count and the counters do not drift.
 */
static void mlock_of_a_locked_range_changes_only_its_flags(struct kunit *test)
{
	const struct relock_row *row = test->param_value, *r;
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	addr = lock_overlapping(test, folios);
	for (r = relock_rows; r < row; r++)
		KUNIT_ASSERT_EQ_MSG(test, ksys_mlock2(addr, LEN(NPAGES), r->flags), 0L,
				    "set up: %s", r->desc);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), row->flags), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK, row->vma);
	expect_all_mlocked(test, folios, NPAGES, 1, 1, row->desc);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){}, row->desc);
	lrutest_vm_end(test);
}

/* lock_overlapping()'s range, then every call of relock_rows[] in turn. */
static unsigned long lock_over_and_over(struct kunit *test, struct folio **folios)
{
	unsigned long addr = lock_overlapping(test, folios);
	int i;

	for (i = 0; i < ARRAY_SIZE(relock_rows); i++)
		KUNIT_ASSERT_EQ_MSG(test, ksys_mlock2(addr, LEN(NPAGES), relock_rows[i].flags),
				    0L, "set up: %s", relock_rows[i].desc);
	return addr;
}

#define SHMEM_PAGES	4

/*
 * A SHMEM_PAGES tmpfs file mapped shared at @a and @b, populated: its
 * folios, each mapped by both.
 */
static void map_shmem_twice(struct kunit *test, struct folio **folios,
			    unsigned long *a, unsigned long *b)
{
	struct folio *other;
	int i;

	lrutest_shmem_mapped_twice(test, SHMEM_PAGES, a, b);
	get_folios(test, *a, SHMEM_PAGES, folios);
	for (i = 0; i < SHMEM_PAGES; i++) {
		other = lrutest_folio_at(test, *b + LEN(i));
		KUNIT_ASSERT_PTR_EQ_MSG(test, other, folios[i],
					"page %d: the two mappings differ", i);
		kunit_release_action(test, lrutest_folio_put_action, other);
	}
}

/* map_shmem_twice()'s file, mlock()ed in both mappings. */
static void lock_shmem_twice(struct kunit *test, struct folio **folios,
			     unsigned long *a, unsigned long *b)
{
	map_shmem_twice(test, folios, a, b);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(*a, LEN(SHMEM_PAGES), 0), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(*b, LEN(SHMEM_PAGES), 0), 0L);
}

/*
 * A shmem folio mapped in two VMAs, both mlock()ed: mlock_folio() culls it
 * at the first and raises mlock_count at the second, so it is mlocked
 * twice but counted once.
 */
static void mlock_of_both_vmas_of_a_shmem_folio_counts_two_mlocks(struct kunit *test)
{
	struct folio *folios[SHMEM_PAGES];
	struct lrutest_stat before;
	unsigned long a, b;

	map_shmem_twice(test, folios, &a, &b);
	lrutest_expect_evictable(test, folios[0], false, "shmem before mlock");
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(a, LEN(SHMEM_PAGES), 0), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(b, LEN(SHMEM_PAGES), 0), 0L);
	expect_all_mlocked(test, folios, SHMEM_PAGES, 2, 2, "locked in both VMAs");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = SHMEM_PAGES, .mlocked = SHMEM_PAGES,
					.culled = SHMEM_PAGES },
				  "mlock of both VMAs");
	lrutest_vm_end(test);
}

/*
 * munlock() of one of the two locked VMAs: __munlock_folio() lowers
 * mlock_count to 1 and leaves the folio mlocked and unevictable; no
 * counter moves.
 */
static void munlock_of_one_of_two_vmas_keeps_the_shmem_folio_mlocked(struct kunit *test)
{
	struct folio *folios[SHMEM_PAGES];
	struct lrutest_stat before;
	unsigned long a, b;

	lock_shmem_twice(test, folios, &a, &b);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_munlock(a, LEN(SHMEM_PAGES)), 0L);
	/* locked_vm counts each VMA's pages: the second's are left. */
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)SHMEM_PAGES);
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(a) & VM_LOCKED);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(b) & VM_LOCKED);
	expect_all_mlocked(test, folios, SHMEM_PAGES, 2, 1, "still locked in the second VMA");
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "munlock of the first VMA");
	lrutest_vm_end(test);
}

/*
 * munlock() of the second locked VMA takes mlock_count to 0: the folio is
 * munlocked and rescued to an anon list (shmem is swap-backed).
 */
static void munlock_of_the_second_vma_rescues_the_shmem_folio(struct kunit *test)
{
	struct folio *folios[SHMEM_PAGES];
	struct lrutest_stat before;
	unsigned long a, b;

	lock_shmem_twice(test, folios, &a, &b);
	KUNIT_ASSERT_EQ(test, ksys_munlock(a, LEN(SHMEM_PAGES)), 0L);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_munlock(b, LEN(SHMEM_PAGES)), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(b) & VM_LOCKED);
	expect_all_evictable(test, folios, SHMEM_PAGES, 2, false, true,
			     "unlocked in both VMAs");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -SHMEM_PAGES, .munlocked = SHMEM_PAGES,
					.rescued = SHMEM_PAGES },
				  "munlock of the second VMA");
	lrutest_vm_end(test);
}

/*
 * NPAGES pages of a shared mapping of a page-cache file (a RAM disk),
 * populated, this CPU's batches drained: their folios.
 */
static unsigned long map_shared_page_cache(struct kunit *test, struct folio **folios)
{
	unsigned long addr;

	addr = lrutest_mmap(test, lrutest_pagecache_file(test), NPAGES,
			    MAP_SHARED | MAP_POPULATE);
	lrutest_drain();
	get_folios(test, addr, NPAGES, folios);
	return addr;
}

/* map_shared_page_cache()'s pages, mlock()ed. */
static unsigned long lock_shared_page_cache(struct kunit *test, struct folio **folios)
{
	unsigned long addr = map_shared_page_cache(test, folios);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	return addr;
}

/*
 * mlock() of a shared mapping of page cache: mlock_vma_pages_range()
 * mlocks each folio and culls it from the file LRU, as it does anon ones.
 */
static void mlock_of_shared_page_cache_culls_it_from_the_file_lru(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	addr = map_shared_page_cache(test, folios);
	KUNIT_EXPECT_FALSE(test, folio_test_swapbacked(folios[0]));
	expect_all_evictable(test, folios, NPAGES, 1, true, false, "page cache before mlock");
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	expect_all_mlocked(test, folios, NPAGES, 1, 1, "page cache after mlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock of a page-cache mapping");
	lrutest_vm_end(test);
}

/*
 * NPAGES pages of a private mapping of a page-cache file, mlock()ed
 * read-only: mlock()'s populate maps the page-cache folios themselves, each
 * mlocked; @cache set to them.
 */
static unsigned long lock_private_file_read_only(struct kunit *test, struct folio **cache)
{
	unsigned long addr;
	int i;

	addr = lrutest_mmap(test, lrutest_pagecache_file(test), NPAGES, MAP_PRIVATE);
	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(addr, LEN(NPAGES), PROT_READ, -1), 0L);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	get_folios(test, addr, NPAGES, cache);
	for (i = 0; i < NPAGES; i++)
		KUNIT_ASSERT_FALSE_MSG(test, folio_test_anon(cache[i]),
				       "set up: page %d already copied", i);
	expect_all_mlocked(test, cache, NPAGES, 1, 1, "page cache locked read-only");
	return addr;
}

/*
 * mprotect(PROT_WRITE) of a locked private file mapping breaks COW at once:
 * mprotect_fixup() populates a private VM_LOCKED VMA that becomes writable.
 * Each page-cache folio is replaced by an anon copy, mlocked as it is added
 * (mlock_new_folio()), and the page-cache folio, no longer mapped by a
 * locked VMA, is munlocked back to the file LRU.  The lock moves: NR_MLOCK
 * and locked_vm do not change.  The populate ends with lru_add_drain(), so
 * the state holds when mprotect() returns.
 */
static void mprotect_write_of_locked_private_file_moves_mlock_to_copies(struct kunit *test)
{
	struct folio *cache[NPAGES], *copies[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;
	int i;

	addr = lock_private_file_read_only(test, cache);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(addr, LEN(NPAGES), PROT_READ | PROT_WRITE, -1),
			0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & (VM_LOCKED | VM_WRITE),
			(vm_flags_t)(VM_LOCKED | VM_WRITE));
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	get_folios(test, addr, NPAGES, copies);
	for (i = 0; i < NPAGES; i++)
		KUNIT_EXPECT_TRUE_MSG(test, folio_test_anon(copies[i]),
				      "page %d not copied by mprotect()", i);
	expect_all_mlocked(test, copies, NPAGES, 1, 1, "the anon copies");
	expect_all_evictable(test, cache, NPAGES, 0, true, true,
			     "the page cache after the copy");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = NPAGES, .culled = NPAGES,
					.munlocked = NPAGES, .rescued = NPAGES },
				  "mprotect(PROT_WRITE) of the locked private mapping");
	lrutest_vm_end(test);
}

/* mprotect() of part of a locked VMA splits it; everything stays locked. */
static void mprotect_of_locked_range_keeps_it_locked(struct kunit *test)
{
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;
	int maps, i;

	addr = map_populated(test, folios);
	lrutest_stat(&before);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	maps = lrutest_map_count();

	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(addr + LEN(2), LEN(2), PROT_READ, -1), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_map_count(), maps + 2);
	for (i = 0; i < NPAGES; i += 2)
		KUNIT_EXPECT_TRUE_MSG(test, lrutest_vma_flags(addr + LEN(i)) & VM_LOCKED,
				      "page %d lost VM_LOCKED", i);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	expect_all_mlocked(test, folios, NPAGES, 1, 1, "after mprotect");
	lrutest_expect_stat_delta(test, &before, &locked_all, "mprotect of a locked range");
	lrutest_vm_end(test);
}

/* lock_populated()'s range split in three by mprotect() of its middle. */
static unsigned long lock_split_by_mprotect(struct kunit *test, struct folio **folios)
{
	unsigned long addr = lock_populated(test, folios);

	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(addr + LEN(2), LEN(2), PROT_READ, -1), 0L);
	return addr;
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
	/*
	 * No drain: mremap() populates the locked growth (mm_populate()),
	 * and populate_vma_page_range() ends with lru_add_drain().
	 */
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(new_addr) & VM_LOCKED);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(new_addr + LEN(NPAGES - 1)) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	get_folios(test, new_addr, NPAGES, folios);
	expect_all_mlocked(test, folios, NPAGES, 1, 1, "after mremap grow");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock then mremap grow");
	lrutest_vm_end(test);
}

/* mremap_grow_of_locked_vma_locks_new_pages()'s grown VMA: its address. */
static unsigned long lock_grown_by_mremap(struct kunit *test, struct folio **folios)
{
	unsigned long addr = lrutest_mmap_anon(test, 4, true);
	long ret;

	lrutest_drain();
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(4), 0), 0L);
	ret = ksys_mremap(addr, LEN(4), LEN(NPAGES), MREMAP_MAYMOVE, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(ret), "set up: mremap: %ld", ret);
	lrutest_drain();
	get_folios(test, ret, NPAGES, folios);
	return ret;
}

/*
 * lrutest_mlocked_page()'s folio isolated to @list by isolate_folio_to_list(), the
 * case's own reference dropped: held by its mapping and the isolation only.
 */
static struct folio *isolate_locked_page(struct kunit *test, struct list_head *list,
					 unsigned long *addr)
{
	struct folio *folio = lrutest_mlocked_page(test, addr);

	KUNIT_ASSERT_TRUE(test, isolate_folio_to_list(folio, list));
	kunit_release_action(test, lrutest_folio_put_action, folio);
	return folio;
}

/* migrate_pages() of @list as compaction runs it, to any node: its return. */
static int migrate_list(struct list_head *list, unsigned int *nr)
{
	struct migration_target_control mtc = {
		.nid = NUMA_NO_NODE,
		.gfp_mask = GFP_HIGHUSER_MOVABLE,
	};

	return migrate_pages(list, alloc_migration_target, NULL, (unsigned long)&mtc,
			     MIGRATE_SYNC, MR_COMPACTION, nr);
}

/*
 * unevictable-lru.rst, "Migrating MLOCKED Pages": the mlock follows the
 * mapping.  Run through the kernel's migrate_pages() of an isolated folio,
 * as compaction does, the counters add up so: the unmap munlocks the old
 * folio, isolated and so off every list (stranded); the new folio takes its
 * PG_unevictable and goes on the LRU first, where, evictable until mapped,
 * it is rescued; the migration PTEs replaced in the VM_LOCKED VMA mlock it
 * (mlocked) and, found on the LRU, move it to the unevictable list
 * (culled), mlock_count 1.  NR_MLOCK ends as it began.  The case drops its
 * own reference first: migration needs the folio held by its mapping and
 * its isolation alone.
 */
static void migration_of_a_locked_folio_keeps_it_mlocked(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *old, *new;
	struct list_head *list;
	unsigned int nr = 0;
	unsigned long addr;

	if (!IS_ENABLED(CONFIG_MIGRATION))
		kunit_skip(test, "CONFIG_MIGRATION is off: no page migration");
	list = lrutest_migrate_list(test);
	old = isolate_locked_page(test, list, &addr);
	lrutest_stat(&before);

	KUNIT_EXPECT_EQ(test, migrate_list(list, &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 1U);
	KUNIT_EXPECT_TRUE(test, list_empty(list));
	new = lrutest_folio_at(test, addr);
	KUNIT_ASSERT_NOT_NULL(test, new);
	KUNIT_EXPECT_PTR_NE(test, new, old);
	lrutest_expect_mlocked(test, new, 1, "after migration");
	lrutest_expect_refs(test, new, 1, 1, "after migration");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = 1, .culled = 1, .rescued = 1,
					.stranded = 1 },
				  "migration of a locked folio");
	lrutest_vm_end(test);
}

/*
 * A locked page for compaction's scanner, @list for what it isolates, and
 * the counters before.  The case's own reference is dropped first: the
 * scanner passes by an anon folio with more references than mappings
 * (pinned), whatever the mode.
 */
static struct folio *compaction_locked_page(struct kunit *test, struct list_head **list,
					    struct lrutest_stat *before)
{
	struct folio *folio;
	unsigned long addr;

	if (!IS_ENABLED(CONFIG_COMPACTION))
		kunit_skip(test, "CONFIG_COMPACTION is off: no compaction");
	*list = lrutest_migrate_list(test);
	folio = lrutest_mlocked_page(test, &addr);
	kunit_release_action(test, lrutest_folio_put_action, folio);
	lrutest_stat(before);
	return folio;
}

/*
 * unevictable-lru.rst, "Compacting MLOCKED Pages": "the default behavior is
 * to let unevictable pages be moved" (compact_unevictable_allowed set).
 * Compaction's migrate scanner takes the locked folio off LRU_UNEVICTABLE,
 * still mlocked and unevictable: migration, not isolation, moves the mlock
 * (migration_of_a_locked_folio_keeps_it_mlocked()).  The isolation holds a
 * reference of its own, the folio's only one besides its mapping's; no
 * counter moves.  The folio goes back on the LRU before the mm goes: its
 * munlock and free then happen within the case, and the counters have
 * settled when the next begins.
 */
static void compaction_isolates_a_locked_folio(struct kunit *test)
{
	struct lrutest_stat before;
	struct list_head *list;
	struct folio *folio = compaction_locked_page(test, &list, &before);

#ifdef CONFIG_COMPACTION
	KUNIT_EXPECT_EQ(test, lrutest_compact_isolate(test, folio, list), 1UL);
#endif
	KUNIT_EXPECT_TRUE(test, list_is_singular(list));
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry_or_null(list, struct folio, lru), folio);
	KUNIT_EXPECT_FALSE(test, folio_test_lru(folio));
	KUNIT_EXPECT_TRUE(test, folio_test_mlocked(folio));
	KUNIT_EXPECT_TRUE(test, folio_test_unevictable(folio));
	/* The isolation's, on the case's list (mlock_count shares ->lru: not read). */
	lrutest_expect_refs(test, folio, 1, 1, "isolated");
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "compaction's isolation of a locked folio");
	kunit_release_action(test, lrutest_putback_movable_action, list);
	lrutest_vm_end(test);
}

/*
 * unevictable-lru.rst, "Compacting MLOCKED Pages": with
 * compact_unevictable_allowed cleared, compaction leaves unevictable pages
 * where they are.  isolate_migratepages() then runs the migrate scanner
 * without ISOLATE_UNEVICTABLE (in synchronous compaction, a mode of 0),
 * and isolate_migratepages_block() passes the locked folio by: still on
 * LRU_UNEVICTABLE with mlock_count 1, no reference taken, no counter moved.
 */
static void compaction_without_unevictable_allowed_leaves_a_locked_folio(struct kunit *test)
{
	struct lrutest_stat before;
	struct list_head *list;
	struct folio *folio = compaction_locked_page(test, &list, &before);

#ifdef CONFIG_COMPACTION
	KUNIT_EXPECT_EQ(test, lrutest_compact_scan(test, folio, list, 0), 0UL);
#endif
	KUNIT_EXPECT_TRUE(test, list_empty(list));
	lrutest_expect_mlocked(test, folio, 1, "passed by compaction");
	lrutest_expect_refs(test, folio, 1, 0, "passed by compaction");
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "compaction without compact_unevictable_allowed");
	lrutest_vm_end(test);
}

struct special_row {
	const char *desc;
	enum lrutest_driver kind;
	vm_flags_t special;	/* the VMA's VM_SPECIAL bits */
	int mapped;		/* the driver's page is mapped (rmap) after mlock() */
};

static const struct special_row special_rows[] = {
	{ "VM_MIXEDMAP: vm_insert_page()", LRUTEST_DRIVER_MIXEDMAP, VM_MIXEDMAP, 1 },
	/* remap_pfn_range() maps the pfn without the page's rmap or a reference. */
	{ "VM_IO | VM_PFNMAP: remap_pfn_range()", LRUTEST_DRIVER_PFNMAP,
	  VM_IO | VM_PFNMAP | VM_DONTEXPAND, 0 },
	{ "VM_IO alone", LRUTEST_DRIVER_IO_ONLY, VM_IO, 0 },
	{ "VM_PFNMAP alone", LRUTEST_DRIVER_PFNMAP_ONLY, VM_PFNMAP, 0 },
	{ "VM_DONTEXPAND alone: the page faulted in", LRUTEST_DRIVER_DONTEXPAND_ONLY,
	  VM_DONTEXPAND, 1 },
};

KUNIT_ARRAY_PARAM_DESC(special, special_rows, desc);

/*
 * unevictable-lru.rst, "Filtering Special VMAs": mlock_fixup() neither sets
 * VM_LOCKED on a VM_IO, VM_PFNMAP, VM_MIXEDMAP or VM_DONTEXPAND VMA nor
 * counts it in locked_vm.  mlock() still succeeds: __mm_populate() skips a
 * VM_IO or VM_PFNMAP range, finds the VM_MIXEDMAP page present and faults
 * the VM_DONTEXPAND one in.  The driver's page is not mlocked.  The rows
 * with one flag alone show that each of VM_IO, VM_PFNMAP and VM_DONTEXPAND
 * is enough on its own.
 */
static void mlock_of_a_special_vma_locks_nothing(struct kunit *test)
{
	const struct special_row *row = test->param_value;
	struct lrutest_stat before;
	struct page *page;
	unsigned long addr;

	addr = lrutest_mmap(test, lrutest_driver_file(test, row->kind, &page), 1, MAP_SHARED);
	KUNIT_ASSERT_EQ(test, lrutest_vma_flags(addr) & VM_SPECIAL, row->special);
	lrutest_stat(&before);

	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, LEN(1), 0), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK, (vm_flags_t)0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	KUNIT_EXPECT_FALSE(test, folio_test_mlocked(page_folio(page)));
	/* The driver's allocation and a reference per mapping. */
	lrutest_expect_refs(test, page_folio(page), row->mapped, 1, row->desc);
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){}, row->desc);
	lrutest_vm_end(test);
}

#ifdef CONFIG_HUGETLBFS
/*
 * unevictable-lru.rst, "Filtering Special VMAs", 2): hugetlbfs pages are
 * "already effectively pinned", so mlock_fixup() neither sets VM_LOCKED on
 * a hugetlbfs VMA nor counts it in locked_vm, "but __mm_populate() includes
 * hugetlbfs ranges, allocating the huge pages and populating the PTEs":
 * mlock() takes the pool's free huge page and maps it.  The huge folio is
 * on no LRU list and not mlocked, and no mlock counter moves.
 */
static void mlock_of_a_hugetlb_vma_populates_it_and_locks_nothing(struct kunit *test)
{
	struct file *file = lrutest_hugetlb_file(test);
	struct hstate *h = hstate_file(file);
	unsigned long addr, free;
	struct lrutest_stat before;
	struct folio *folio;

	addr = lrutest_mmap(test, file, pages_per_huge_page(h), MAP_SHARED);
	KUNIT_ASSERT_TRUE(test, lrutest_vma_flags(addr) & VM_HUGETLB);
	KUNIT_ASSERT_NULL(test, lrutest_folio_at(test, addr));
	free = h->free_huge_pages;
	lrutest_stat(&before);

	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, huge_page_size(h), 0), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK, (vm_flags_t)0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	KUNIT_EXPECT_EQ_MSG(test, free - h->free_huge_pages, 1UL, "HugePages_Free");
	folio = lrutest_folio_at(test, addr);
	KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "the huge page is not mapped");
	KUNIT_EXPECT_EQ(test, folio_size(folio), huge_page_size(h));
	KUNIT_EXPECT_FALSE(test, folio_test_mlocked(folio));
	KUNIT_EXPECT_FALSE(test, folio_test_lru(folio));
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){}, "hugetlbfs VMA");
	lrutest_vm_end(test);
}
#else
static void mlock_of_a_hugetlb_vma_populates_it_and_locks_nothing(struct kunit *test)
{
	kunit_skip(test, "CONFIG_HUGETLBFS is off: no hugetlbfs VMA");
}
#endif

struct prot_none_row {
	const char *desc;
	bool map_locked;	/* mmap(MAP_LOCKED), else mmap() and mlock() */
	long ret;		/* of mlock() */
};

static const struct prot_none_row prot_none_rows[] = {
	{ "mmap() and mlock(): -ENOMEM", false, -ENOMEM },
	{ "mmap(MAP_LOCKED): mapped", true, 0 },
};

KUNIT_ARRAY_PARAM_DESC(prot_none, prot_none_rows, desc);

/*
 * unevictable-lru.rst, "mmap(MAP_LOCKED) System Call Handling": "mmap() +
 * mlock() will fail if the range cannot be faulted in (e.g. because
 * mm_populate fails) and returns with ENOMEM while mmap(MAP_LOCKED) will not
 * fail".  A PROT_NONE range cannot be: populate_vma_page_range() never
 * faults one in ("That's okay", "mlock()/mlock2() System Call Handling").
 * Either way the VMA is VM_LOCKED, counted in locked_vm, and empty.
 */
static void locked_prot_none_range_is_locked_and_empty(struct kunit *test)
{
	const struct prot_none_row *row = test->param_value;
	struct lrutest_stat before;
	unsigned long addr;
	long ret = 0;
	int i;

	lrutest_stat(&before);
	addr = kunit_vm_mmap(test, NULL, 0, LEN(NPAGES), PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | (row->map_locked ? MAP_LOCKED : 0), 0);
	KUNIT_ASSERT_FALSE_MSG(test, !addr || IS_ERR_VALUE(addr), "mmap: %ld", (long)addr);
	if (!row->map_locked)
		ret = ksys_mlock2(addr, LEN(NPAGES), 0);

	KUNIT_EXPECT_EQ(test, ret, row->ret);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK, (vm_flags_t)VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	for (i = 0; i < NPAGES; i++)
		KUNIT_EXPECT_NULL_MSG(test, lrutest_folio_at(test, addr + LEN(i)),
				      "page %d present", i);
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){}, row->desc);
	lrutest_vm_end(test);
}

/*
 * A one-page VM_GROWSDOWN | VM_LOCKED VMA at the top of a hole larger than
 * stack_guard_gap: its address.
 */
static unsigned long map_locked_stack(struct kunit *test)
{
	const int hole = 2 * (SZ_1M >> PAGE_SHIFT);
	unsigned long addr;

	addr = lrutest_mmap_anon(test, hole + 1, false);
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, LEN(hole)), 0);
	addr += LEN(hole);
	KUNIT_ASSERT_EQ(test, kunit_vm_mmap(test, NULL, addr, LEN(1), PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
					    MAP_GROWSDOWN | MAP_LOCKED, 0), addr);
	KUNIT_ASSERT_EQ(test, lrutest_vma_flags(addr) & (VM_GROWSDOWN | VM_LOCKED),
			(vm_flags_t)(VM_GROWSDOWN | VM_LOCKED));
	return addr;
}

/*
 * unevictable-lru.rst: mlocked pages are noticed "when a VM_LOCKED stack
 * segment is expanded".  find_extend_vma_locked(), the expansion
 * create_elf_tables() makes below the stack, grows a VM_GROWSDOWN VMA one
 * page down: expand_downwards() charges the page to locked_vm and, the VMA
 * being VM_LOCKED, populate_vma_page_range() faults it in mlocked at once.
 */
static void locked_stack_expansion_charges_and_mlocks_the_new_page(struct kunit *test)
{
	struct vm_area_struct *vma;
	struct lrutest_stat before;
	unsigned long addr, start;
	struct folio *folio;

	addr = map_locked_stack(test);
	lrutest_stat(&before);

	mmap_write_lock(current->mm);
	vma = find_extend_vma_locked(current->mm, addr - PAGE_SIZE);
	start = vma ? vma->vm_start : 0;
	mmap_write_unlock(current->mm);

	KUNIT_ASSERT_EQ_MSG(test, start, addr - PAGE_SIZE, "the stack VMA's start");
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 2UL);
	folio = lrutest_folio_at(test, addr - PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "the new stack page not populated");
	lrutest_expect_mlocked(test, folio, 1, "the new stack page");
	lrutest_expect_refs(test, folio, 1, 1, "the new stack page");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 1, .mlocked = 1, .culled = 1 },
				  "expansion of a locked stack");
	lrutest_vm_end(test);
}

/*
 * mremap(MREMAP_DONTUNMAP) of the first page of a locked VMA: move_vma()
 * splits the locked VMA at the moved range first, so that clearing
 * VM_LOCKED on the emptied old range touches that range alone; the moved
 * page keeps its mlock in the new VMA, the rest stays locked in place, and
 * locked_vm, untouched by a move that does not unmap, still matches the
 * VM_LOCKED pages.
 */
static void mremap_dontunmap_of_part_of_a_locked_vma_keeps_the_rest_locked(struct kunit *test)
{
	struct folio *folios[4];
	unsigned long addr, new_addr;
	long ret;

	addr = lrutest_mmap_anon(test, 4, true);
	lrutest_drain();
	get_folios(test, addr, 4, folios);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, LEN(4), 0), 0L);

	ret = ksys_mremap(addr, LEN(1), LEN(1), MREMAP_MAYMOVE | MREMAP_DONTUNMAP, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(ret), "mremap: %ld", ret);
	new_addr = ret;
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(addr + LEN(1)) & VM_LOCKED);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(addr + LEN(3)) & VM_LOCKED);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(new_addr) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 4UL);
	expect_all_mlocked(test, folios + 1, 3, 1, 1, "left in place");
	KUNIT_EXPECT_PTR_EQ(test, lrutest_folio_at(test, new_addr), folios[0]);
	lrutest_expect_mlocked(test, folios[0], 1, "moved");
	lrutest_expect_refs(test, folios[0], 1, 2, "moved, looked up twice");

	KUNIT_ASSERT_EQ(test, vm_munmap(new_addr, LEN(1)), 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, LEN(4)), 0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	lrutest_vm_end(test);
}

/*
 * mlock() and munlock() over the VMA layouts a range can meet: ranges that
 * start or end inside a VMA, locked and unlocked VMAs side by side that
 * mlock_fixup() merges with the previous or the next one, and holes.
 * apply_vma_lock_flags() walks the VMAs of the range in order, fixes each
 * up (split, merge, flags, mlock_vma_pages_range()) and returns -ENOMEM at
 * the first hole, leaving what it fixed before it as fixed.  Each row sets
 * a layout up on NPAGES populated pages of one fresh VMA with @pre, then
 * makes one call: its return, which pages are mlocked (each once, with no
 * reference but the case's), how many VMAs the pages make, locked_vm and
 * the counters, by the arithmetic of the two masks: a page locked by the
 * call is mlocked, culled and counted in NR_MLOCK; one unlocked is
 * munlocked and rescued.
 */
enum layout_op { OP_NONE, OP_MLOCK, OP_MLOCK_ONFAULT, OP_MUNLOCK, OP_MUNMAP };

struct layout_step {
	enum layout_op op;
	int first, pages;
};

struct layout_row {
	const char *name;
	struct layout_step pre[3];
	struct layout_step call;
	long ret;
	unsigned int pre_locked;	/* mask of mlocked pages before the call */
	unsigned int locked;		/* ... and after it */
	unsigned int holes;		/* mask of unmapped pages */
	int vmas;			/* VMAs over the NPAGES pages after the call */
};

static const struct layout_row layout_rows[] = {
	{ "mlock_over_a_locked_middle_merges_with_the_next_vma",
	  { { OP_MLOCK, 2, 2 } }, { OP_MLOCK, 0, 8 }, 0, 0x0c, 0xff, 0, 1 },
	{ "mlock_over_a_locked_head_merges_with_the_previous_vma",
	  { { OP_MLOCK, 0, 2 } }, { OP_MLOCK, 0, 8 }, 0, 0x03, 0xff, 0, 1 },
	{ "mlock_over_a_locked_tail_merges_into_one_vma",
	  { { OP_MLOCK, 6, 2 } }, { OP_MLOCK, 0, 8 }, 0, 0xc0, 0xff, 0, 1 },
	{ "mlock_over_two_locked_islands_merges_five_vmas",
	  { { OP_MLOCK, 1, 1 }, { OP_MLOCK, 5, 2 } }, { OP_MLOCK, 0, 8 },
	  0, 0x62, 0xff, 0, 1 },
	{ "mlock_from_inside_a_locked_vma_to_inside_an_unlocked_one",
	  { { OP_MLOCK, 0, 3 } }, { OP_MLOCK, 2, 4 }, 0, 0x07, 0x3f, 0, 2 },
	{ "mlock2_onfault_over_a_locked_head_splits_by_flags",
	  { { OP_MLOCK, 0, 4 } }, { OP_MLOCK_ONFAULT, 2, 6 }, 0, 0x0f, 0xff, 0, 2 },
	{ "munlock_over_an_unlocked_middle_merges_into_one_vma",
	  { { OP_MLOCK, 0, 8 }, { OP_MUNLOCK, 2, 2 } }, { OP_MUNLOCK, 0, 8 },
	  0, 0xf3, 0x00, 0, 1 },
	{ "munlock_from_inside_a_locked_vma_to_inside_an_unlocked_one",
	  { { OP_MLOCK, 0, 4 } }, { OP_MUNLOCK, 2, 4 }, 0, 0x0f, 0x03, 0, 2 },
	{ "mlock_over_a_hole_locks_up_to_it_and_fails",
	  { { OP_MUNMAP, 4, 1 } }, { OP_MLOCK, 0, 8 }, -ENOMEM, 0x00, 0x0f, 0x10, 2 },
	{ "munlock_over_a_hole_unlocks_up_to_it_and_fails",
	  { { OP_MLOCK, 0, 8 }, { OP_MUNMAP, 4, 1 } }, { OP_MUNLOCK, 0, 8 },
	  -ENOMEM, 0xef, 0xe0, 0x10, 2 },
};

KUNIT_ARRAY_PARAM_DESC(layout, layout_rows, name);

static long layout_do(unsigned long addr, const struct layout_step *step)
{
	unsigned long start = addr + LEN(step->first), len = LEN(step->pages);

	switch (step->op) {
	case OP_MLOCK:
		return ksys_mlock2(start, len, 0);
	case OP_MLOCK_ONFAULT:
		return ksys_mlock2(start, len, MLOCK_ONFAULT);
	case OP_MUNLOCK:
		return ksys_munlock(start, len);
	case OP_MUNMAP:
		return vm_munmap(start, len);
	default:
		return 0;
	}
}

/* The VMAs that map any of the NPAGES pages at @addr. */
static int layout_vmas(unsigned long addr)
{
	unsigned long a = addr, start, end;
	int n = 0;

	while (a < addr + LEN(NPAGES)) {
		if (lrutest_vma_span(a, &start, &end)) {
			a += PAGE_SIZE;
			continue;
		}
		n++;
		a = end;
	}
	return n;
}

/*
 * The pages in @locked mlocked, those in @rescued munlocked by the call
 * (rescued), the others evictable.
 */
static void expect_layout(struct kunit *test, unsigned long addr,
			  struct folio **folios, const struct layout_row *row,
			  unsigned int locked, unsigned int rescued, const char *what)
{
	int i;

	for (i = 0; i < NPAGES; i++) {
		if (row->holes & BIT(i))
			continue;
		if (locked & BIT(i))
			lrutest_expect_mlocked(test, folios[i], 1, what);
		else if (rescued & BIT(i))
			lrutest_expect_rescued(test, folios[i], false, what);
		else
			lrutest_expect_evictable(test, folios[i], false, what);
		lrutest_expect_refs(test, folios[i], 1, 1, what);
		KUNIT_EXPECT_EQ_MSG(test, !!(lrutest_vma_flags(addr + LEN(i)) & VM_LOCKED),
				    !!(locked & BIT(i)), "%s: VM_LOCKED of page %d", what, i);
	}
}

/* map_populated()'s pages laid out by @row's set up, drained: their address. */
static unsigned long layout_set_up(struct kunit *test, const struct layout_row *row,
				   struct folio **folios)
{
	unsigned long addr = map_populated(test, folios);
	int i;

	for (i = 0; i < ARRAY_SIZE(row->pre) && row->pre[i].op != OP_NONE; i++)
		KUNIT_ASSERT_EQ_MSG(test, layout_do(addr, &row->pre[i]), 0L, "set up step %d", i);
	/* The set up's munmap leaves its munlocks in this CPU's mlock batch (7.3). */
	lrutest_drain();
	expect_layout(test, addr, folios, row, row->pre_locked, 0, "set up");
	return addr;
}

static void mlock_and_munlock_over_vma_layouts(struct kunit *test)
{
	const struct layout_row *row = test->param_value;
	unsigned int gained = row->locked & ~row->pre_locked;
	unsigned int lost = row->pre_locked & ~row->locked;
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;

	addr = layout_set_up(test, row, folios);
	lrutest_stat(&before);

	KUNIT_EXPECT_EQ(test, layout_do(addr, &row->call), row->ret);
	expect_layout(test, addr, folios, row, row->locked, lost, "after the call");
	KUNIT_EXPECT_EQ(test, layout_vmas(addr), row->vmas);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(),
			(unsigned long)hweight32(row->locked & ~row->holes));
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = (long)hweight32(gained) - hweight32(lost),
					.mlocked = hweight32(gained),
					.culled = hweight32(gained),
					.munlocked = hweight32(lost),
					.rescued = hweight32(lost) },
				  "the call");
	lrutest_vm_end(test);
}

struct munlock_row {
	const char *desc;
	/* Maps and locks NPAGES pages (each folio mlocked once): their address. */
	unsigned long (*lock)(struct kunit *test, struct folio **folios);
	bool file;		/* the folios belong on a file list */
};

static const struct munlock_row munlock_rows[] = {
	{ "populated anon, mlock()ed", lock_populated, false },
	{ "anon faulted in by mlock()", lock_unpopulated, false },
	/* Not swap-backed: rescued to a file list. */
	{ "shared page cache, mlock()ed", lock_shared_page_cache, true },
	/* mlock_count stayed 1: one munlock() is enough. */
	{ "populated anon, mlock()ed over and over", lock_over_and_over, false },
	/* Three VMAs, each munlocked by its own mlock_fixup(). */
	{ "a locked VMA split in three by mprotect()", lock_split_by_mprotect, false },
	{ "a locked VMA grown by mremap()", lock_grown_by_mremap, false },
};

KUNIT_ARRAY_PARAM_DESC(munlock, munlock_rows, desc);

/*
 * munlock() of a range whose folios are each mlocked once, however the
 * lock came: mlock_fixup() clears VM_LOCKED_MASK and uncharges locked_vm,
 * and mlock_vma_pages_range() munlocks every folio (__munlock_folio():
 * mlock_count 0, PG_mlocked cleared, NR_MLOCK back) and rescues it to an
 * evictable list of its type, drained before munlock() returns.
 */
static void munlock_of_a_locked_range_rescues_every_folio(struct kunit *test)
{
	const struct munlock_row *row = test->param_value;
	struct folio *folios[NPAGES];
	struct lrutest_stat before;
	unsigned long addr;
	int i;

	addr = row->lock(test, folios);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	for (i = 0; i < NPAGES; i++)
		KUNIT_EXPECT_EQ_MSG(test, lrutest_vma_flags(addr + LEN(i)) & VM_LOCKED_MASK,
				    (vm_flags_t)0, "VM_LOCKED_MASK of page %d", i);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	expect_all_evictable(test, folios, NPAGES, 1, row->file, true, "after munlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -NPAGES, .munlocked = NPAGES,
					.rescued = NPAGES },
				  row->desc);
	lrutest_vm_end(test);
}

static struct kunit_case mlock_vma_cases[] = {
	KUNIT_CASE(mlock_of_populated_anon_culls_every_folio),
	KUNIT_CASE(mlock_unpopulated_anon_faults_in_mlocked),
	KUNIT_CASE(mlock2_onfault_populates_nothing),
	KUNIT_CASE(mlock2_onfault_locks_only_the_faulted_folio),
	KUNIT_CASE(munlock_of_an_onfault_vma_rescues_the_faulted_folio),
	KUNIT_CASE(mlock_of_the_middle_splits_the_vma_in_three),
	KUNIT_CASE(mlock_of_the_middle_locks_only_its_folios),
	KUNIT_CASE(munlock_of_the_middle_merges_the_vmas),
	KUNIT_CASE(munlock_of_the_middle_rescues_its_folios),
	KUNIT_CASE(overlapping_mlocks_lock_each_page_once),
	KUNIT_CASE_PARAM(mlock_of_a_locked_range_changes_only_its_flags, relock_gen_params),
	KUNIT_CASE(mlock_of_both_vmas_of_a_shmem_folio_counts_two_mlocks),
	KUNIT_CASE(munlock_of_one_of_two_vmas_keeps_the_shmem_folio_mlocked),
	KUNIT_CASE(munlock_of_the_second_vma_rescues_the_shmem_folio),
	KUNIT_CASE(mlock_of_shared_page_cache_culls_it_from_the_file_lru),
	KUNIT_CASE(mprotect_of_locked_range_keeps_it_locked),
	KUNIT_CASE(mprotect_write_of_locked_private_file_moves_mlock_to_copies),
	KUNIT_CASE(mremap_grow_of_locked_vma_locks_new_pages),
	KUNIT_CASE_PARAM(munlock_of_a_locked_range_rescues_every_folio, munlock_gen_params),
	KUNIT_CASE(mremap_dontunmap_of_part_of_a_locked_vma_keeps_the_rest_locked),
	KUNIT_CASE(migration_of_a_locked_folio_keeps_it_mlocked),
	KUNIT_CASE(compaction_isolates_a_locked_folio),
	KUNIT_CASE(compaction_without_unevictable_allowed_leaves_a_locked_folio),
	KUNIT_CASE_PARAM(mlock_of_a_special_vma_locks_nothing, special_gen_params),
	KUNIT_CASE(mlock_of_a_hugetlb_vma_populates_it_and_locks_nothing),
	KUNIT_CASE_PARAM(locked_prot_none_range_is_locked_and_empty, prot_none_gen_params),
	KUNIT_CASE(locked_stack_expansion_charges_and_mlocks_the_new_page),
	KUNIT_CASE_PARAM(mlock_and_munlock_over_vma_layouts, layout_gen_params),
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
