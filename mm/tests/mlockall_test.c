// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mlockall() and munlockall() (apply_mlockall_flags()) on
 * the real VMAs of a user mm attached to the test kthread: MCL_CURRENT
 * locks and populates every VMA, MCL_FUTURE sets mm->def_flags so that new
 * mappings come locked, MCL_ONFAULT defers locking to the fault, and
 * munlockall() undoes all of it.  Each case's mm, and its def_flags, die
 * with the case's kthread.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>

#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define PAGES	4
#define LEN(n)	((unsigned long)(n) << PAGE_SHIFT)

static struct folio *folio_at(struct kunit *test, unsigned long addr)
{
	struct folio *folio = lrutest_folio_at(test, addr);

	KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "no folio at %lx", addr);
	return folio;
}

/*
 * An unpopulated anon VMA at @a and a populated shared mapping of a shmem
 * file at @s, PAGES pages each, this CPU's batches drained.
 */
static void map_anon_and_shmem(struct kunit *test, unsigned long *a, unsigned long *s)
{
	*a = lrutest_mmap_anon(test, PAGES, false);
	*s = lrutest_mmap(test, lrutest_shmem_file(test, PAGES), PAGES,
			  MAP_SHARED | MAP_POPULATE);
	lrutest_drain();
}

/*
 * mlockall(MCL_CURRENT): apply_mlockall_flags() sets nothing in def_flags
 * and runs mlock_fixup() on every VMA, which sets VM_LOCKED, charges
 * locked_vm and mlocks the present folios; the populate that follows faults
 * the rest in, mlocked, and drains.
 */
static void mlockall_current_locks_every_vma(struct kunit *test)
{
	struct folio *anon, *shm;
	struct lrutest_stat before;
	unsigned long a, s;
	int i;

	map_anon_and_shmem(test, &a, &s);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_CURRENT), 0L);
	KUNIT_EXPECT_EQ_MSG(test, current->mm->def_flags & VM_LOCKED_MASK,
			    (vm_flags_t)0, "MCL_CURRENT alone set def_flags");
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(a) & VM_LOCKED_MASK, (vm_flags_t)VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(s) & VM_LOCKED_MASK, (vm_flags_t)VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 2UL * PAGES);
	for (i = 0; i < PAGES; i++) {
		anon = folio_at(test, a + LEN(i));
		shm = folio_at(test, s + LEN(i));
		lrutest_expect_mlocked(test, anon, 1, "anon after MCL_CURRENT");
		lrutest_expect_mlocked(test, shm, 1, "shmem after MCL_CURRENT");
		lrutest_expect_refs(test, anon, 1, 1, "anon after MCL_CURRENT");
		lrutest_expect_refs(test, shm, 1, 1, "shmem after MCL_CURRENT");
	}
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 2 * PAGES, .mlocked = 2 * PAGES,
					.culled = 2 * PAGES },
				  "mlockall(MCL_CURRENT)");
	lrutest_vm_end(test);
}

/*
 * mlockall(MCL_FUTURE) alone: apply_mlockall_flags() sets VM_LOCKED in
 * mm->def_flags and returns before the VMA walk, so an existing VMA stays
 * unlocked and no counter moves.
 */
static void mlockall_future_locks_no_existing_vma(struct kunit *test)
{
	struct lrutest_stat before;
	unsigned long old;

	old = lrutest_mmap_anon(test, PAGES, true);
	lrutest_drain();
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_FUTURE), 0L);
	KUNIT_EXPECT_EQ(test, current->mm->def_flags & VM_LOCKED_MASK,
			(vm_flags_t)VM_LOCKED);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_vma_flags(old) & VM_LOCKED_MASK,
			    (vm_flags_t)0, "MCL_FUTURE locked an existing VMA");
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "mlockall(MCL_FUTURE) alone");
	lrutest_vm_end(test);
}

/*
 * A mapping made after MCL_FUTURE takes VM_LOCKED from mm->def_flags:
 * vm_mmap_pgoff() populates it, each folio mlocked as it is faulted in; the
 * mapping made before stays evictable.
 */
static void mlockall_future_locks_new_mappings(struct kunit *test)
{
	struct lrutest_stat before;
	unsigned long old, new;
	int i;

	old = lrutest_mmap_anon(test, PAGES, true);
	lrutest_drain();
	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_FUTURE), 0L);
	lrutest_stat(&before);

	/*
	 * No drain: the locked mapping is populated by mm_populate(), which
	 * ends in populate_vma_page_range()'s lru_add_drain().
	 */
	new = lrutest_mmap_anon(test, PAGES, false);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(new) & VM_LOCKED_MASK, (vm_flags_t)VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)PAGES);
	for (i = 0; i < PAGES; i++)
		lrutest_expect_mlocked(test, folio_at(test, new + LEN(i)), 1,
				       "mapped after MCL_FUTURE");
	lrutest_expect_evictable(test, folio_at(test, old), false,
				 "mapped before MCL_FUTURE");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = PAGES, .mlocked = PAGES,
					.culled = PAGES },
				  "new mapping after MCL_FUTURE");
	lrutest_vm_end(test);
}

/*
 * munlockall() clears VM_LOCKED_MASK from mm->def_flags
 * (apply_mlockall_flags(0)): a mapping made after it is neither locked nor
 * populated.
 */
static void munlockall_clears_mcl_future(struct kunit *test)
{
	unsigned long new;

	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_FUTURE), 0L);

	KUNIT_ASSERT_EQ(test, ksys_munlockall(), 0L);
	KUNIT_EXPECT_EQ(test, current->mm->def_flags & VM_LOCKED_MASK, (vm_flags_t)0);
	new = lrutest_mmap_anon(test, PAGES, false);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_vma_flags(new) & VM_LOCKED_MASK,
			    (vm_flags_t)0, "mapping after munlockall came locked");
	KUNIT_EXPECT_NULL(test, lrutest_folio_at(test, new));
	lrutest_vm_end(test);
}

/* An empty heap at the start of a free stretch of address space: its base. */
static unsigned long empty_heap(struct kunit *test)
{
	struct mm_struct *mm = current->mm;
	unsigned long base;

	base = lrutest_mmap_anon(test, 4 * PAGES, false);
	KUNIT_ASSERT_EQ(test, vm_munmap(base, LEN(4 * PAGES)), 0);
	mm->start_brk = base;
	mm->brk = base;
	return base;
}

/*
 * After MCL_FUTURE, growing the heap with brk() maps the new pages locked
 * and populates them (do_brk_flags() takes mm->def_flags).
 */
static void mlockall_future_locks_brk_growth(struct kunit *test)
{
	struct lrutest_stat before;
	unsigned long base;
	int i;

	base = empty_heap(test);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_FUTURE), 0L);
	/* No drain: brk() populates the locked growth (mm_populate()). */
	KUNIT_ASSERT_EQ(test, ksys_brk(base + LEN(PAGES)), (long)(base + LEN(PAGES)));
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(base) & VM_LOCKED_MASK, (vm_flags_t)VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)PAGES);
	for (i = 0; i < PAGES; i++)
		lrutest_expect_mlocked(test, folio_at(test, base + LEN(i)), 1,
				       "heap grown after MCL_FUTURE");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = PAGES, .mlocked = PAGES,
					.culled = PAGES },
				  "brk() growth after MCL_FUTURE");
	lrutest_vm_end(test);
}

/*
 * PAGES populated anon pages at @p and PAGES unpopulated ones at @u, this
 * CPU's batches drained.
 */
static void map_present_and_absent(struct kunit *test, unsigned long *p, unsigned long *u)
{
	*p = lrutest_mmap_anon(test, PAGES, true);
	*u = lrutest_mmap_anon(test, PAGES, false);
	lrutest_drain();
}

/*
 * MCL_CURRENT | MCL_ONFAULT: apply_mlockall_flags() marks every VMA
 * VM_LOCKED | VM_LOCKONFAULT and leaves def_flags alone; mlock_fixup()
 * mlocks the folios already present, and the populate does nothing on a
 * VM_LOCKONFAULT VMA (populate_vma_page_range()).
 */
static void mlockall_onfault_mlocks_present_folios_and_populates_nothing(struct kunit *test)
{
	struct lrutest_stat before;
	unsigned long p, u;
	int i;

	map_present_and_absent(test, &p, &u);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_CURRENT | MCL_ONFAULT), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(p) & VM_LOCKED_MASK,
			(vm_flags_t)(VM_LOCKED | VM_LOCKONFAULT));
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(u) & VM_LOCKED_MASK,
			(vm_flags_t)(VM_LOCKED | VM_LOCKONFAULT));
	KUNIT_EXPECT_EQ(test, current->mm->def_flags & VM_LOCKED_MASK, (vm_flags_t)0);
	for (i = 0; i < PAGES; i++) {
		struct folio *folio = folio_at(test, p + LEN(i));

		lrutest_expect_mlocked(test, folio, 1, "present at MCL_ONFAULT");
		lrutest_expect_refs(test, folio, 1, 1, "present at MCL_ONFAULT");
		KUNIT_EXPECT_NULL_MSG(test, lrutest_folio_at(test, u + LEN(i)),
				      "MCL_ONFAULT populated page %d", i);
	}
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = PAGES, .mlocked = PAGES,
					.culled = PAGES },
				  "mlockall(MCL_CURRENT | MCL_ONFAULT)");
	lrutest_vm_end(test);
}

/*
 * A fault in a VMA locked by MCL_CURRENT | MCL_ONFAULT: folio_add_lru_vma()
 * adds the new folio with mlock_new_folio(), mlocked once the batch drains.
 */
static void fault_after_mlockall_onfault_mlocks_the_new_folio(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long p, u;

	map_present_and_absent(test, &p, &u);
	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_CURRENT | MCL_ONFAULT), 0L);
	lrutest_stat(&before);

	lrutest_touch(test, u + LEN(1));
	lrutest_drain();
	folio = folio_at(test, u + LEN(1));
	lrutest_expect_mlocked(test, folio, 1, "faulted after MCL_ONFAULT");
	lrutest_expect_refs(test, folio, 1, 1, "faulted after MCL_ONFAULT");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 1, .mlocked = 1, .culled = 1 },
				  "one fault after MCL_ONFAULT");
	lrutest_vm_end(test);
}

/* What a set up locked: each folio, mlocked once, and its address. */
struct locked_folios {
	int nr;
	unsigned long addr[2 * PAGES];
	struct folio *folio[2 * PAGES];
};

/* Add the folios of the @pages pages at @addr to @l. */
static void add_folios(struct kunit *test, struct locked_folios *l, unsigned long addr,
		       int pages)
{
	int i;

	KUNIT_ASSERT_LE(test, l->nr + pages, (int)ARRAY_SIZE(l->folio));
	for (i = 0; i < pages; i++) {
		l->addr[l->nr] = addr + LEN(i);
		l->folio[l->nr++] = folio_at(test, addr + LEN(i));
	}
}

/* map_anon_and_shmem()'s VMAs after mlockall(MCL_CURRENT). */
static void lock_current(struct kunit *test, struct locked_folios *l)
{
	unsigned long a, s;

	map_anon_and_shmem(test, &a, &s);
	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_CURRENT), 0L);
	add_folios(test, l, a, PAGES);
	add_folios(test, l, s, PAGES);
}

/* A mapping made after mlockall(MCL_FUTURE), drained. */
static void lock_future(struct kunit *test, struct locked_folios *l)
{
	unsigned long new;

	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_FUTURE), 0L);
	new = lrutest_mmap_anon(test, PAGES, false);
	lrutest_drain();
	add_folios(test, l, new, PAGES);
}

/* The heap grown by brk() after mlockall(MCL_FUTURE), drained. */
static void lock_brk_growth(struct kunit *test, struct locked_folios *l)
{
	unsigned long base = empty_heap(test);

	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_FUTURE), 0L);
	KUNIT_ASSERT_EQ(test, ksys_brk(base + LEN(PAGES)), (long)(base + LEN(PAGES)));
	lrutest_drain();
	add_folios(test, l, base, PAGES);
}

/*
 * map_present_and_absent()'s VMAs after mlockall(MCL_CURRENT | MCL_ONFAULT)
 * and a fault of page 1 of the absent ones, drained.
 */
static void lock_onfault(struct kunit *test, struct locked_folios *l)
{
	unsigned long p, u;

	map_present_and_absent(test, &p, &u);
	add_folios(test, l, p, PAGES);
	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_CURRENT | MCL_ONFAULT), 0L);
	lrutest_touch(test, u + LEN(1));
	lrutest_drain();
	add_folios(test, l, u + LEN(1), 1);
}

struct munlockall_row {
	const char *desc;
	void (*lock)(struct kunit *test, struct locked_folios *l);
};

static const struct munlockall_row munlockall_rows[] = {
	{ "MCL_CURRENT: an anon and a shmem VMA", lock_current },
	{ "MCL_FUTURE: a mapping made after it", lock_future },
	{ "MCL_FUTURE: the heap grown by brk()", lock_brk_growth },
	{ "MCL_CURRENT | MCL_ONFAULT: present and faulted folios", lock_onfault },
};

KUNIT_ARRAY_PARAM_DESC(munlockall, munlockall_rows, desc);

/*
 * munlockall() is apply_mlockall_flags(0): mlock_fixup() on every VMA
 * clears VM_LOCKED_MASK, uncharges locked_vm and munlocks each folio,
 * mlock_count 1 to 0, rescued to an anon list (shmem is swap-backed), the
 * batch drained before it returns.
 */
static void munlockall_rescues_every_locked_folio(struct kunit *test)
{
	const struct munlockall_row *row = test->param_value;
	struct locked_folios l = {};
	struct lrutest_stat before;
	int i;

	row->lock(test, &l);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, ksys_munlockall(), 0L);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	for (i = 0; i < l.nr; i++) {
		KUNIT_EXPECT_EQ_MSG(test, lrutest_vma_flags(l.addr[i]) & VM_LOCKED_MASK,
				    (vm_flags_t)0, "the VMA of folio %d", i);
		lrutest_expect_rescued(test, l.folio[i], false, "after munlockall");
		lrutest_expect_refs(test, l.folio[i], 1, 1, "after munlockall");
	}
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -l.nr, .munlocked = l.nr,
					.rescued = l.nr },
				  row->desc);
	lrutest_vm_end(test);
}

/* Flag combinations mlockall() refuses: nothing is locked. */
static void mlockall_bad_flags_einval(struct kunit *test)
{
	static const int bad[] = { 0, MCL_ONFAULT, MCL_CURRENT | 0x100 };
	struct lrutest_stat before;
	unsigned long addr;
	int i;

	addr = lrutest_mmap_anon(test, PAGES, true);
	lrutest_drain();
	lrutest_stat(&before);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, ksys_mlockall(bad[i]), (long)-EINVAL,
				    "mlockall(%#x)", bad[i]);
	KUNIT_EXPECT_EQ(test, current->mm->def_flags & VM_LOCKED_MASK, (vm_flags_t)0);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK, (vm_flags_t)0);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "refused mlockall");
	lrutest_vm_end(test);
}

/*
 * unevictable-lru.rst, "Filtering Special VMAs": a VM_MIXEDMAP (or VM_IO,
 * VM_PFNMAP, VM_DONTEXPAND) VMA is not mlocked, and mmap_region() clears the
 * VM_LOCKED that MCL_FUTURE brings (no locked_vm charge).  The page the
 * driver's ->mmap() inserts is mapped while VM_LOCKED is still set, and
 * mlock_vma_folio() must skip it for the VM_SPECIAL bit: nothing would
 * ever munlock it.
 */
static void mlockall_future_mlocks_no_page_of_a_special_vma(struct kunit *test)
{
	struct lrutest_stat before;
	struct file *file;
	struct page *page;
	unsigned long addr;

	file = lrutest_driver_file(test, LRUTEST_DRIVER_MIXEDMAP, &page);
	KUNIT_ASSERT_EQ(test, ksys_mlockall(MCL_FUTURE), 0L);
	lrutest_stat(&before);

	addr = lrutest_mmap(test, file, 1, MAP_SHARED);
	KUNIT_EXPECT_EQ(test, lrutest_vma_flags(addr) & (VM_MIXEDMAP | VM_LOCKED_MASK),
			(vm_flags_t)VM_MIXEDMAP);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	KUNIT_EXPECT_FALSE(test, folio_test_mlocked(page_folio(page)));
	KUNIT_EXPECT_EQ(test, folio_mapcount(page_folio(page)), 1);
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){},
				  "mmap of a VM_MIXEDMAP file after MCL_FUTURE");
	KUNIT_ASSERT_EQ(test, ksys_munlockall(), 0L);
	lrutest_vm_end(test);
}

static struct kunit_case mlockall_cases[] = {
	KUNIT_CASE(mlockall_current_locks_every_vma),
	KUNIT_CASE(mlockall_future_locks_no_existing_vma),
	KUNIT_CASE(mlockall_future_locks_new_mappings),
	KUNIT_CASE(munlockall_clears_mcl_future),
	KUNIT_CASE(mlockall_future_locks_brk_growth),
	KUNIT_CASE(mlockall_onfault_mlocks_present_folios_and_populates_nothing),
	KUNIT_CASE(fault_after_mlockall_onfault_mlocks_the_new_folio),
	KUNIT_CASE_PARAM(munlockall_rescues_every_locked_folio, munlockall_gen_params),
	KUNIT_CASE(mlockall_bad_flags_einval),
	KUNIT_CASE(mlockall_future_mlocks_no_page_of_a_special_vma),
	{}
};

static struct kunit_suite mlockall_suite = {
	.name = "mm_mlockall",
	.init = lrutest_vm_init,
	.test_cases = mlockall_cases,
};

kunit_test_suite(mlockall_suite);

MODULE_DESCRIPTION("KUnit tests of mlockall/munlockall");
MODULE_LICENSE("GPL");
