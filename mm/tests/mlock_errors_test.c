// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the error returns of mlock(), mlock2() and mlockall():
 * EINVAL (bad flags, a range that wraps), ENOMEM (an unmapped range,
 * RLIMIT_MEMLOCK exceeded without CAP_IPC_LOCK), EPERM (RLIMIT_MEMLOCK of
 * 0 without CAP_IPC_LOCK).  A refused call must leave no PG_mlocked, no
 * VM_LOCKED, no locked_vm and no counter behind; where the kernel locks
 * part of a range before it fails, the case pins down exactly which part.
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched/signal.h>

#include "lrutest_mlock.h"

#define NPAGES	8
#define LEN(n)	((unsigned long)(n) << PAGE_SHIFT)

/* The state a refused call must leave: nothing locked at all. */
static void expect_nothing_locked(struct kunit *test, unsigned long addr,
				  const struct lrutest_stat *before,
				  const char *what)
{
	struct folio *folio = lrutest_folio_at(test, addr);

	KUNIT_EXPECT_EQ_MSG(test, lrutest_vma_flags(addr) & VM_LOCKED_MASK,
			    (vm_flags_t)0, "%s: VM_LOCKED left", what);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_locked_vm(), 0UL,
			    "%s: locked_vm left", what);
	KUNIT_EXPECT_EQ_MSG(test, current->mm->def_flags & VM_LOCKED_MASK,
			    (vm_flags_t)0, "%s: def_flags left", what);
	if (folio) {
		lrutest_expect_evictable(test, folio, false, what);
		/* Drop the lookup's reference: later steps count references. */
		kunit_release_action(test, lrutest_folio_put_action, folio);
	}
	lrutest_expect_stat_delta(test, before, &(struct lrutest_stat){},
				  what);
}

static void mlock2_unknown_flag_einval(struct kunit *test)
{
	struct lrutest_stat before;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	lrutest_stat(&before);
	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), MLOCK_ONFAULT << 1),
			(long)-EINVAL);
	lrutest_drain();
	expect_nothing_locked(test, addr, &before, "mlock2(bad flag)");
	lrutest_vm_end(test);
}

/* start + len wraps around: EINVAL from apply_vma_lock_flags(). */
static void mlock_wrapping_range_einval(struct kunit *test)
{
	struct lrutest_stat before;
	unsigned long addr;
	size_t len;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	lrutest_stat(&before);
	len = -addr + LEN(2);
	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, len, 0), (long)-EINVAL);
	KUNIT_EXPECT_EQ(test, ksys_munlock(addr, len), (long)-EINVAL);
	expect_nothing_locked(test, addr, &before, "mlock of a wrapping range");
	lrutest_vm_end(test);
}

/* A range that starts in an unmapped hole: ENOMEM, nothing locked. */
static void mlock_unmapped_range_enomem(struct kunit *test)
{
	struct lrutest_stat before;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, LEN(2)), 0);
	lrutest_stat(&before);
	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), (long)-ENOMEM);
	expect_nothing_locked(test, addr + LEN(2), &before,
			      "mlock from an unmapped hole");
	lrutest_vm_end(test);
}

/*
 * A hole inside the range: apply_vma_lock_flags() has locked the VMA
 * before the hole when it finds it, returns ENOMEM and does not populate.
 * That VMA stays locked (its present folios mlocked), the one after the
 * hole does not.
 */
static void mlock_range_with_hole_locks_up_to_it(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *first, *last;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	KUNIT_ASSERT_EQ(test, vm_munmap(addr + LEN(4), LEN(1)), 0);
	first = lrutest_folio_at(test, addr);
	last = lrutest_folio_at(test, addr + LEN(NPAGES - 1));
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_NOT_NULL(test, last);
	lrutest_stat(&before);

	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), (long)-ENOMEM);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr + LEN(5)) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 4UL);
	lrutest_expect_mlocked(test, first, 1, "before the hole");
	lrutest_expect_refs(test, first, 1, 1, "before the hole");
	lrutest_expect_evictable(test, last, false, "after the hole");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 4, .mlocked = 4, .culled = 4 },
				  "mlock of a range with a hole");

	KUNIT_EXPECT_EQ(test, ksys_munlock(addr, LEN(4)), 0L);
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	lrutest_expect_rescued(test, first, false, "munlocked before the hole");
	lrutest_expect_refs(test, first, 1, 1, "munlocked before the hole");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = 4, .culled = 4, .munlocked = 4,
					.rescued = 4 },
				  "munlock of the part before the hole");
	lrutest_vm_end(test);
}

/*
 * A range that runs past the end of the last VMA: the VMA is locked and
 * populated up to its end, then ENOMEM for the part beyond it.
 */
static void mlock_range_past_vma_end_enomem(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	KUNIT_ASSERT_EQ(test, vm_munmap(addr + LEN(4), LEN(NPAGES - 4)), 0);
	folio = lrutest_folio_at(test, addr);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	lrutest_stat(&before);

	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), (long)-ENOMEM);
	KUNIT_EXPECT_TRUE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 4UL);
	lrutest_expect_mlocked(test, folio, 1, "inside the VMA");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 4, .mlocked = 4, .culled = 4 },
				  "mlock past the end of the VMA");

	/*
	 * munlock() fails the same way, after apply_vma_lock_flags() has
	 * cleared VM_LOCKED up to the end of the VMA: its four pages are
	 * munlocked and uncharged.
	 */
	KUNIT_EXPECT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), (long)-ENOMEM);
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	lrutest_expect_rescued(test, folio, false, "munlock past the end");
	lrutest_expect_refs(test, folio, 1, 1, "munlock past the end");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = 4, .culled = 4, .munlocked = 4,
					.rescued = 4 },
				  "munlock past the end of the VMA");
	lrutest_vm_end(test);
}

/*
 * Over RLIMIT_MEMLOCK without CAP_IPC_LOCK: ENOMEM and nothing locked;
 * within it the same call succeeds, so the limit is what refused it.
 */
static void mlock_over_rlimit_without_cap_enomem(struct kunit *test)
{
	struct lrutest_stat before;
	struct lrutest_cred *cred;
	struct folio *folio;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	lrutest_stat(&before);

	cred = lrutest_drop_ipc_lock(test, NPAGES - 1);
	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), (long)-ENOMEM);
	expect_nothing_locked(test, addr, &before, "mlock over RLIMIT_MEMLOCK");
	KUNIT_EXPECT_EQ(test, ksys_mlockall(MCL_CURRENT), (long)-ENOMEM);
	expect_nothing_locked(test, addr, &before, "mlockall over RLIMIT_MEMLOCK");
	lrutest_restore_ipc_lock(test, cred);

	cred = lrutest_drop_ipc_lock(test, NPAGES);
	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, LEN(NPAGES), 0), 0L);
	lrutest_restore_ipc_lock(test, cred);
	/* No drain: mlock2() ends with populate_vma_page_range()'s. */
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), (unsigned long)NPAGES);
	folio = lrutest_folio_at(test, addr);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	lrutest_expect_mlocked(test, folio, 1, "mlock within RLIMIT_MEMLOCK");
	lrutest_expect_refs(test, folio, 1, 1, "mlock within RLIMIT_MEMLOCK");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = NPAGES, .mlocked = NPAGES,
					.culled = NPAGES },
				  "mlock within RLIMIT_MEMLOCK");

	KUNIT_EXPECT_EQ(test, ksys_munlock(addr, LEN(NPAGES)), 0L);
	KUNIT_EXPECT_FALSE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	KUNIT_EXPECT_EQ(test, lrutest_locked_vm(), 0UL);
	lrutest_expect_rescued(test, folio, false, "munlock within RLIMIT_MEMLOCK");
	lrutest_expect_refs(test, folio, 1, 1, "munlock within RLIMIT_MEMLOCK");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = NPAGES, .culled = NPAGES,
					.munlocked = NPAGES, .rescued = NPAGES },
				  "munlock within RLIMIT_MEMLOCK");
	lrutest_vm_end(test);
}

/* RLIMIT_MEMLOCK of 0 without CAP_IPC_LOCK: EPERM (can_do_mlock()). */
static void mlock_zero_rlimit_without_cap_eperm(struct kunit *test)
{
	struct lrutest_stat before;
	struct lrutest_cred *cred;
	unsigned long addr;

	addr = lrutest_mmap_anon(test, NPAGES, true);
	lrutest_drain();
	lrutest_stat(&before);
	cred = lrutest_drop_ipc_lock(test, 0);
	KUNIT_EXPECT_EQ(test, ksys_mlock2(addr, LEN(1), 0), (long)-EPERM);
	KUNIT_EXPECT_EQ(test, ksys_mlockall(MCL_FUTURE), (long)-EPERM);
	lrutest_restore_ipc_lock(test, cred);
	lrutest_drain();
	expect_nothing_locked(test, addr, &before, "mlock with a zero RLIMIT_MEMLOCK");
	lrutest_vm_end(test);
}

/*
 * The credentials without CAP_IPC_LOCK are current's with one reference,
 * the override's own, and the restore drops it and puts the old ones back
 * untouched.  override_creds() took a reference of its own until 6.13 and
 * takes none since: a helper that follows the other kernel's rule frees
 * the credentials in use or leaks them.
 */
static void dropped_ipc_lock_holds_its_credentials_once(struct kunit *test)
{
	const struct cred *old = current_cred(), *new;
	long old_usage = atomic_long_read(&old->usage);
	struct lrutest_cred *cred;

	cred = lrutest_drop_ipc_lock(test, 0);
	new = current_cred();
	KUNIT_ASSERT_PTR_NE(test, new, old);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&new->usage), 1L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&old->usage), old_usage);
	get_cred(new);
	lrutest_restore_ipc_lock(test, cred);
	KUNIT_EXPECT_PTR_EQ(test, current_cred(), old);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&new->usage), 1L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&old->usage), old_usage);
	put_cred(new);
}

static struct kunit_case mlock_errors_cases[] = {
	KUNIT_CASE(mlock2_unknown_flag_einval),
	KUNIT_CASE(mlock_wrapping_range_einval),
	KUNIT_CASE(mlock_unmapped_range_enomem),
	KUNIT_CASE(mlock_range_with_hole_locks_up_to_it),
	KUNIT_CASE(mlock_range_past_vma_end_enomem),
	KUNIT_CASE(mlock_over_rlimit_without_cap_enomem),
	KUNIT_CASE(mlock_zero_rlimit_without_cap_eperm),
	KUNIT_CASE(dropped_ipc_lock_holds_its_credentials_once),
	{}
};

static struct kunit_suite mlock_errors_suite = {
	.name = "mm_mlock_errors",
	.init = lrutest_vm_init,
	.test_cases = mlock_errors_cases,
};

kunit_test_suite(mlock_errors_suite);

MODULE_DESCRIPTION("KUnit tests of the error returns of mlock");
MODULE_LICENSE("GPL");
