// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of SysV SHM_LOCK / SHM_UNLOCK and the unevictable LRU.
 *
 * What the kernel promises (Documentation/mm/unevictable-lru.rst): SHM_LOCK
 * marks the segment's mapping unevictable (shmem_lock() ->
 * mapping_set_unevictable()) but moves no folio; reclaim or a putback that
 * meets one later culls it to LRU_UNEVICTABLE.  SHM_UNLOCK clears the mark
 * and rescues every folio through shmem_unlock_mapping() ->
 * check_move_unevictable_folios().  The lock is charged to the locker's
 * ucounts against RLIMIT_MEMLOCK unless it has CAP_IPC_LOCK, and released
 * on SHM_UNLOCK or when the segment is destroyed (IPC_RMID, last detach).
 *
 * The test kthread gets a user mm (lrutest_mm_attach()), attaches segments
 * with do_shmat() and touches their pages with copy_to_user(); shmctl() is
 * ksys_shmctl().  The folios are on the real node: counts
 * are deltas of the global counters around each step.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/ipc.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/shm.h>
#include <linux/shmem_fs.h>
#include <linux/swap.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>
#include <linux/vmstat.h>
#include <uapi/linux/shm.h>

#include "internal.h"	/* mm/internal.h, by -I in the Makefile */
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define SHM_TEST_PAGES	8

static struct folio *shm_folio(struct kunit *test, struct lrutest_shm *seg, pgoff_t i)
{
	struct folio *folio = filemap_get_folio(seg->mapping, i);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(folio), "no shm folio %lu", i);
	folio_put(folio);	/* the page cache keeps it while the segment lives */
	return folio;
}

/*
 * Each folio evictable, swap-backed, threaded on an anon list, mapped
 * @mapped times: by the attached segment, and by a second mapping where the
 * case made one.
 */
static void expect_all_anon(struct kunit *test, struct lrutest_shm *seg, int mapped,
			    const char *step)
{
	unsigned long i;

	for (i = 0; i < seg->pages; i++) {
		struct folio *folio = shm_folio(test, seg, i);
		int lru = lrutest_locate(folio);

		KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(folio),
				      "%s: folio %lu: PG_lru", step, i);
		KUNIT_EXPECT_FALSE_MSG(test, folio_test_unevictable(folio),
				       "%s: folio %lu: PG_unevictable", step, i);
		KUNIT_EXPECT_TRUE_MSG(test, folio_test_swapbacked(folio),
				      "%s: folio %lu: swap-backed", step, i);
		if (lru_gen_enabled())
			KUNIT_EXPECT_TRUE_MSG(test,
					      lru == LRU_INACTIVE_ANON || lru == LRU_ACTIVE_ANON,
					      "%s: folio %lu on list %d, not an anon list",
					      step, i, lru);
		else
			KUNIT_EXPECT_EQ_MSG(test, lru, (int)LRU_INACTIVE_ANON,
					    "%s: folio %lu", step, i);
		lrutest_expect_refs(test, folio, mapped, 0, step);
	}
}

static void expect_all_unevictable(struct kunit *test, struct lrutest_shm *seg,
				   int mapped, bool mlocked, const char *step)
{
	unsigned long i;

	for (i = 0; i < seg->pages; i++) {
		struct folio *folio = shm_folio(test, seg, i);

		lrutest_expect_unevictable(test, lrutest_locate(folio), folio, step, i);
		KUNIT_EXPECT_EQ_MSG(test, folio_test_mlocked(folio), mlocked,
				    "%s: folio %lu: PG_mlocked", step, i);
		lrutest_expect_refs(test, folio, mapped, 0, step);
	}
}

/*
 * The counter deltas of each step, every field exact (lrutest_stat, lists
 * included).  No drain after SHM_LOCK and SHM_UNLOCK: the snapshot is taken
 * right as the call returns (shmem_lock() moves no folio,
 * shmem_unlock_mapping() moves them under the LRU lock, no batch); the
 * other steps drain first.
 */
#define SHM_DELTA(...)	(&(struct lrutest_stat){ .lists = true, __VA_ARGS__ })

/* Attach, touch, lock: the mapping is unevictable, no folio has moved. */
static struct lrutest_shm *locked_segment(struct kunit *test)
{
	struct lrutest_shm *seg;
	struct lrutest_stat a;

	lrutest_shm_user_mm(test);
	seg = lrutest_shm_create(test, SHM_TEST_PAGES);
	lrutest_shm_attach(test, seg);
	lrutest_shm_touch(test, seg);
	expect_all_anon(test, seg, 1, "touched");
	KUNIT_ASSERT_FALSE(test, mapping_unevictable(seg->mapping));

	lrutest_drain();
	lrutest_stat(&a);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_shm_ctl(seg->id, SHM_LOCK), 0L, "SHM_LOCK");
	lrutest_expect_stat_delta(test, &a, SHM_DELTA(), "SHM_LOCK");
	KUNIT_EXPECT_TRUE_MSG(test, mapping_unevictable(seg->mapping),
			      "SHM_LOCK left the mapping evictable");
	expect_all_anon(test, seg, 1, "SHM_LOCK (folios move lazily)");
	return seg;
}

/*
 * After SHM_LOCK, reclaim (reclaim_pages() of the first half) and
 * folio_putback_lru() (the second half) each meet the folios and cull them
 * to LRU_UNEVICTABLE, counted once each in UNEVICTABLE_PGCULLED.
 */
static void shm_lock_culls_on_reclaim_and_putback(struct kunit *test)
{
	struct lrutest_shm *seg = locked_segment(test);
	const unsigned long half = SHM_TEST_PAGES / 2;
	struct list_head *list = lrutest_isolated_list(test);
	struct lrutest_stat a;
	unsigned long i;

	lrutest_drain();
	lrutest_stat(&a);
	for (i = 0; i < half; i++) {
		struct folio *folio = shm_folio(test, seg, i);

		KUNIT_ASSERT_TRUE_MSG(test, folio_isolate_lru(folio), "isolate %lu", i);
		list_add_tail(&folio->lru, list);
	}
	KUNIT_EXPECT_EQ_MSG(test, reclaim_pages(list), 0UL, "reclaim freed locked shm folios");
	for (i = half; i < SHM_TEST_PAGES; i++) {
		struct folio *folio = shm_folio(test, seg, i);

		KUNIT_ASSERT_TRUE_MSG(test, folio_isolate_lru(folio), "isolate %lu", i);
		folio_putback_lru(folio);
	}
	lrutest_drain();
	lrutest_expect_stat_delta(test, &a,
				  SHM_DELTA(.culled = SHM_TEST_PAGES,
					    .unevictable = SHM_TEST_PAGES,
					    .anon = -SHM_TEST_PAGES),
				  "cull");
	expect_all_unevictable(test, seg, 1, false, "culled");
	KUNIT_EXPECT_EQ(test, seg->mapping->nrpages, (unsigned long)SHM_TEST_PAGES);
	lrutest_shm_destroy(test, seg);
}

/*
 * Pages first touched after SHM_LOCK: each new folio is added to the LRU
 * (folio_add_lru() -> lru_add()) with its mapping already unevictable, so it
 * goes straight to LRU_UNEVICTABLE, culled once, and never onto an anon list.
 */
static void shm_pages_touched_after_shm_lock_are_culled_as_added(struct kunit *test)
{
	struct lrutest_shm *seg;
	struct lrutest_stat a;

	lrutest_shm_user_mm(test);
	seg = lrutest_shm_create(test, SHM_TEST_PAGES);
	lrutest_shm_attach(test, seg);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_shm_ctl(seg->id, SHM_LOCK), 0L, "SHM_LOCK");
	KUNIT_ASSERT_EQ(test, seg->mapping->nrpages, 0UL);
	lrutest_drain();
	lrutest_stat(&a);
	lrutest_shm_touch(test, seg);	/* and drains the lru_add batch */
	lrutest_expect_stat_delta(test, &a,
				  SHM_DELTA(.culled = SHM_TEST_PAGES,
					    .unevictable = SHM_TEST_PAGES,
					    .file_pages = SHM_TEST_PAGES),
				  "touch after SHM_LOCK");
	expect_all_unevictable(test, seg, 1, false, "touched after SHM_LOCK");
	lrutest_shm_destroy(test, seg);
}

/* Lock and cull every folio of a new segment. */
static struct lrutest_shm *culled_segment(struct kunit *test)
{
	struct lrutest_shm *seg = locked_segment(test);
	unsigned long i;

	for (i = 0; i < seg->pages; i++) {
		struct folio *folio = shm_folio(test, seg, i);

		KUNIT_ASSERT_TRUE_MSG(test, folio_isolate_lru(folio), "isolate %lu", i);
		folio_putback_lru(folio);
	}
	lru_add_drain();
	expect_all_unevictable(test, seg, 1, false, "culled");
	return seg;
}

/*
 * SHM_UNLOCK rescues every folio: shmem_unlock_mapping() ->
 * check_move_unevictable_folios() scans each page once and moves each back
 * to the inactive anon list (shmem folios are swap-backed).
 */
static void shm_unlock_rescues_all(struct kunit *test)
{
	struct lrutest_shm *seg = culled_segment(test);
	struct lrutest_stat a;

	lrutest_drain();
	lrutest_stat(&a);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_shm_ctl(seg->id, SHM_UNLOCK), 0L, "SHM_UNLOCK");
	lrutest_expect_stat_delta(test, &a,
				  SHM_DELTA(.rescued = SHM_TEST_PAGES,
					    .scanned = SHM_TEST_PAGES,
					    .unevictable = -SHM_TEST_PAGES,
					    .anon = SHM_TEST_PAGES),
				  "SHM_UNLOCK");
	KUNIT_EXPECT_FALSE_MSG(test, mapping_unevictable(seg->mapping),
			       "SHM_UNLOCK left the mapping unevictable");
	expect_all_anon(test, seg, 1, "SHM_UNLOCK");

	/* A second SHM_UNLOCK of an unlocked segment scans nothing. */
	lrutest_drain();
	lrutest_stat(&a);
	KUNIT_EXPECT_EQ(test, lrutest_shm_ctl(seg->id, SHM_UNLOCK), 0L);
	lrutest_expect_stat_delta(test, &a, SHM_DELTA(), "second SHM_UNLOCK");
	lrutest_shm_destroy(test, seg);
}

static long locked_ucount(void)
{
	return get_rlimit_value(current_ucounts(), UCOUNT_RLIMIT_MEMLOCK);
}

/*
 * Without CAP_IPC_LOCK, SHM_LOCK is charged to the caller's ucounts against
 * RLIMIT_MEMLOCK (user_shm_lock()).  The segment of these cases, touched.
 */
struct rlimit_seg {
	struct lrutest_shm *seg;
	struct lrutest_stat before;	/* the counters before it existed */
	long shmem;			/* NR_SHMEM then */
	long base;			/* the caller's memlock charge, once touched */
};

static void rlimit_segment(struct kunit *test, struct rlimit_seg *r)
{
	lrutest_shm_user_mm(test);
	lrutest_drain();
	lrutest_stat(&r->before);
	r->shmem = lrutest_node_state(NR_SHMEM);
	r->seg = lrutest_shm_create(test, SHM_TEST_PAGES);
	lrutest_shm_attach(test, r->seg);
	lrutest_shm_touch(test, r->seg);
	r->base = locked_ucount();
}

/* rlimit_segment(), SHM_LOCKed by a caller without CAP_IPC_LOCK at its limit. */
static void rlimit_locked_segment(struct kunit *test, struct rlimit_seg *r)
{
	struct lrutest_cred *sc;

	rlimit_segment(test, r);
	sc = lrutest_drop_ipc_lock(test, r->base + SHM_TEST_PAGES);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_shm_ctl(r->seg->id, SHM_LOCK), 0L,
			    "set up: SHM_LOCK at RLIMIT_MEMLOCK");
	lrutest_restore_ipc_lock(test, sc);
}

struct rlimit_row {
	const char *desc;
	long over;		/* pages of the segment above RLIMIT_MEMLOCK */
	long ret;		/* of shmctl(SHM_LOCK) */
	bool locked;		/* the mapping unevictable after */
	long charged;		/* the UCOUNT_RLIMIT_MEMLOCK charge taken */
};

static const struct rlimit_row rlimit_rows[] = {
	{ "one page over RLIMIT_MEMLOCK: -ENOMEM, uncharged", 1, -ENOMEM, false, 0 },
	{ "at RLIMIT_MEMLOCK: locked, the segment charged", 0, 0, true, SHM_TEST_PAGES },
};

KUNIT_ARRAY_PARAM_DESC(rlimit, rlimit_rows, desc);

/*
 * SHM_LOCK by a caller without CAP_IPC_LOCK: user_shm_lock() charges the
 * segment's pages to its ucounts against RLIMIT_MEMLOCK; one page over the
 * limit it takes the charge back and shmctl() fails with ENOMEM, the
 * mapping left evictable; exactly at the limit it succeeds.
 */
static void shm_lock_charges_the_segment_up_to_rlimit_memlock(struct kunit *test)
{
	const struct rlimit_row *row = test->param_value;
	struct lrutest_cred *sc;
	struct rlimit_seg r;

	rlimit_segment(test, &r);
	sc = lrutest_drop_ipc_lock(test, r.base + SHM_TEST_PAGES - row->over);
	KUNIT_EXPECT_EQ(test, lrutest_shm_ctl(r.seg->id, SHM_LOCK), row->ret);
	KUNIT_EXPECT_EQ_MSG(test, mapping_unevictable(r.seg->mapping), row->locked,
			    "mapping_unevictable() after SHM_LOCK");
	KUNIT_EXPECT_EQ_MSG(test, locked_ucount(), r.base + row->charged, "SHM_LOCK charge");
	lrutest_restore_ipc_lock(test, sc);
	lrutest_shm_destroy(test, r.seg);
}

/*
 * SHM_LOCK of a segment locked already charges nothing: shmem_lock() calls
 * user_shm_lock() only for a file it has not locked yet, so at the limit
 * it succeeds.
 */
static void shm_lock_of_a_locked_segment_is_not_charged_again(struct kunit *test)
{
	struct lrutest_cred *sc;
	struct rlimit_seg r;

	rlimit_locked_segment(test, &r);
	sc = lrutest_drop_ipc_lock(test, r.base + SHM_TEST_PAGES);
	KUNIT_EXPECT_EQ(test, lrutest_shm_ctl(r.seg->id, SHM_LOCK), 0L);
	KUNIT_EXPECT_EQ_MSG(test, locked_ucount(), r.base + SHM_TEST_PAGES,
			    "second SHM_LOCK charge");
	lrutest_restore_ipc_lock(test, sc);
	lrutest_shm_destroy(test, r.seg);
}

/*
 * IPC_RMID of the attached, locked segment only marks it for destruction
 * at the last detach (do_shm_rmid(), SHM_DEST): the lock, its charge and
 * the pages stay.
 */
static void shm_rmid_while_attached_keeps_the_lock_and_the_pages(struct kunit *test)
{
	struct rlimit_seg r;

	rlimit_locked_segment(test, &r);
	KUNIT_EXPECT_EQ_MSG(test, ksys_shmctl(r.seg->id, IPC_RMID, NULL, IPC_64), 0L,
			    "IPC_RMID");
	lrutest_flush_fput();
	KUNIT_EXPECT_EQ_MSG(test, locked_ucount(), r.base + SHM_TEST_PAGES,
			    "IPC_RMID while attached released the lock");
	KUNIT_EXPECT_TRUE_MSG(test, mapping_unevictable(r.seg->mapping),
			      "IPC_RMID while attached unlocked the mapping");
	KUNIT_EXPECT_EQ(test, r.seg->mapping->nrpages, (unsigned long)SHM_TEST_PAGES);
	lrutest_shm_destroy(test, r.seg);
}

/*
 * The last detach of a removed, locked segment destroys it (shm_close() ->
 * shm_destroy()): shmem_lock() releases the charge (user_shm_unlock()) and
 * the last fput() of the file frees the folios.
 */
static void shm_last_detach_after_rmid_releases_the_lock_and_the_pages(struct kunit *test)
{
	struct rlimit_seg r;

	rlimit_locked_segment(test, &r);
	KUNIT_ASSERT_EQ_MSG(test, ksys_shmctl(r.seg->id, IPC_RMID, NULL, IPC_64), 0L,
			    "set up: IPC_RMID");
	lrutest_flush_fput();
	lrutest_shm_detach(test, r.seg);
	lrutest_drain();
	KUNIT_EXPECT_EQ_MSG(test, locked_ucount(), r.base, "last detach: lock charge left");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_node_state(NR_SHMEM), r.shmem,
			    "last detach: shmem pages left");
	/* Made, locked, never culled, freed: every counter back. */
	lrutest_expect_stat_delta(test, &r.before, SHM_DELTA(), "last detach");
	lrutest_shm_destroy(test, r.seg);
}

/*
 * SHM_LOCK from a child user namespace (same uid, no CAP_IPC_LOCK in the
 * initial namespace): user_shm_lock() charges the child's ucounts, and
 * inc_rlimit_ucounts() adds the pages at the child level and at its parent
 * level (the initial namespace's count of the uid), checking the parent
 * level's count against the max kept in the child namespace when it was
 * created, its creator's RLIMIT_MEMLOCK (kept in bytes, compared as a page
 * count).  Over that max the lock fails with -ENOMEM whatever the locker's
 * own rlimit, which user_shm_lock() checks apart, even RLIM_INFINITY, and
 * the charge is taken back at both levels.  A row may first lock another
 * segment in the initial namespace, which charges the parent level.
 */
struct userns_row {
	const char *name;
	bool charge_parent;	/* SHM_LOCK another segment first, outside */
	unsigned long ns_max;	/* the creator's RLIMIT_MEMLOCK: read as pages */
	unsigned long rlimit;	/* RLIMIT_MEMLOCK inside, bytes */
	long ret;
};

static const struct userns_row userns_rows[] = {
	{ "infinite_rlimit_inside_over_a_parent_max_of_0", false, 0, RLIM_INFINITY, -ENOMEM },
	{ "parent_level_charged_outside_over_its_max", true, SHM_TEST_PAGES, SZ_1G, -ENOMEM },
	{ "within_every_max", false, SZ_1G, SZ_1G, 0 },
};

KUNIT_ARRAY_PARAM_DESC(userns, userns_rows, name);

#ifdef CONFIG_USER_NS
/*
 * The segment @row locks from the child namespace, attached; and, where
 * @row charges the parent level first, another segment (*@outside) locked
 * outside.
 */
static struct lrutest_shm *userns_segment(struct kunit *test, const struct userns_row *row,
					  struct lrutest_shm **outside)
{
	struct lrutest_shm *seg;

	lrutest_shm_user_mm(test);
	seg = lrutest_shm_create(test, SHM_TEST_PAGES);
	lrutest_shm_attach(test, seg);
	*outside = NULL;
	if (row->charge_parent) {
		*outside = lrutest_shm_create(test, SHM_TEST_PAGES);
		KUNIT_ASSERT_EQ(test, lrutest_shm_ctl((*outside)->id, SHM_LOCK), 0L);
	}
	return seg;
}
#endif

static void shm_lock_in_a_child_user_namespace(struct kunit *test)
{
#ifdef CONFIG_USER_NS
	const struct userns_row *row = test->param_value;
	struct lrutest_shm *seg, *outside;
	struct lrutest_cred *sc;
	long base, child;

	seg = userns_segment(test, row, &outside);
	base = locked_ucount();

	sc = lrutest_userns_locker(test, row->ns_max, row->rlimit);
	KUNIT_EXPECT_EQ(test, lrutest_shm_ctl(seg->id, SHM_LOCK), row->ret);
	KUNIT_EXPECT_EQ(test, mapping_unevictable(seg->mapping), !row->ret);
	child = locked_ucount();
	lrutest_restore_ipc_lock(test, sc);
	KUNIT_EXPECT_EQ_MSG(test, child, row->ret ? 0L : (long)SHM_TEST_PAGES,
			    "the child namespace's charge");
	KUNIT_EXPECT_EQ_MSG(test, locked_ucount(), base + (row->ret ? 0 : SHM_TEST_PAGES),
			    "the parent level's charge");
	if (!row->ret)
		KUNIT_EXPECT_EQ(test, lrutest_shm_ctl(seg->id, SHM_UNLOCK), 0L);
	if (row->charge_parent)
		KUNIT_EXPECT_EQ(test, lrutest_shm_ctl(outside->id, SHM_UNLOCK), 0L);
	KUNIT_EXPECT_EQ(test, locked_ucount(), base - (row->charge_parent ? SHM_TEST_PAGES : 0));
#else
	kunit_skip(test, "CONFIG_USER_NS is off: no child user namespace");
#endif
}

/*
 * Pages of a locked segment also mlocked in a VMA (a second, MAP_LOCKED
 * mapping of it): SHM_UNLOCK leaves them unevictable while the VMA holds
 * them, and munmap of the VMA leaves them unevictable while SHM_LOCK does.
 * Only when both are gone are they rescued.
 *
 * The second mapping of @seg's file, MAP_SHARED | MAP_LOCKED: populated,
 * each folio mlocked as the rmap maps it (mlock_vma_folio()).  A case that
 * keeps it to its end ends with its mm (lrutest_mm_exit(): the mapping,
 * the attach it counts as and its mlock go) and a drain of the munlocks.
 */
static unsigned long shm_map_locked(struct kunit *test, struct lrutest_shm *seg)
{
	struct vm_area_struct *vma;
	struct file *file = NULL;
	unsigned long addr;

	mmap_read_lock(current->mm);
	vma = find_vma(current->mm, seg->addr);
	if (vma && vma->vm_file)
		file = get_file(vma->vm_file);
	mmap_read_unlock(current->mm);
	KUNIT_ASSERT_NOT_NULL(test, file);
	addr = vm_mmap(file, 0, seg->pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_LOCKED, 0);
	fput(file);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_VALUE(addr), "MAP_LOCKED mmap: %ld", (long)addr);
	return addr;
}

/*
 * The folios of a locked segment, not culled yet (locked_segment()), are
 * moved by the mlock of the MAP_LOCKED mapping, once each.
 */
static void shm_locked_segment_mapped_locked_is_mlocked_and_culled_once(struct kunit *test)
{
	struct lrutest_shm *seg = locked_segment(test);
	const long n = SHM_TEST_PAGES;
	struct lrutest_stat a;

	lrutest_drain();
	lrutest_stat(&a);
	/* No drain: a MAP_LOCKED mmap() ends in mm_populate()'s drain. */
	shm_map_locked(test, seg);
	lrutest_expect_stat_delta(test, &a,
				  SHM_DELTA(.nr_mlock = n, .mlocked = n, .culled = n,
					    .unevictable = n, .anon = -n),
				  "MAP_LOCKED");
	expect_all_unevictable(test, seg, 2, true, "MAP_LOCKED");
	lrutest_shm_destroy(test, seg);
	lrutest_mm_exit(test);
	lrutest_drain();
}

/* locked_segment(), mapped MAP_LOCKED at *@addr too, the batches drained. */
static struct lrutest_shm *mlocked_segment(struct kunit *test, unsigned long *addr)
{
	struct lrutest_shm *seg = locked_segment(test);

	*addr = shm_map_locked(test, seg);
	lrutest_drain();
	return seg;
}

/*
 * SHM_UNLOCK of the mlocked segment: check_move_unevictable_folios() scans
 * each folio but rescues none, mlocked folios not being folio_evictable().
 */
static void shm_unlock_of_an_mlocked_segment_rescues_nothing(struct kunit *test)
{
	const long n = SHM_TEST_PAGES;
	struct lrutest_shm *seg;
	struct lrutest_stat a;
	unsigned long addr;

	seg = mlocked_segment(test, &addr);
	lrutest_drain();
	lrutest_stat(&a);
	KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_UNLOCK), 0L);
	lrutest_expect_stat_delta(test, &a, SHM_DELTA(.scanned = n),
				  "SHM_UNLOCK while mlocked");
	KUNIT_EXPECT_FALSE(test, mapping_unevictable(seg->mapping));
	expect_all_unevictable(test, seg, 2, true, "SHM_UNLOCK while mlocked");
	lrutest_shm_destroy(test, seg);
	lrutest_mm_exit(test);
	lrutest_drain();
}

/* mlocked_segment(), SHM_UNLOCKed and SHM_LOCKed again. */
static struct lrutest_shm *relocked_segment(struct kunit *test, unsigned long *addr)
{
	struct lrutest_shm *seg = mlocked_segment(test, addr);

	lrutest_drain();
	KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_UNLOCK), 0L);
	KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_LOCK), 0L);
	return seg;
}

/*
 * munmap of the MAP_LOCKED mapping munlocks each folio, but
 * __munlock_folio() leaves it unevictable: folio_evictable() is false
 * while its mapping is locked.
 */
static void munmap_of_the_locked_vma_keeps_a_shm_locked_segment_unevictable(struct kunit *test)
{
	const long n = SHM_TEST_PAGES;
	struct lrutest_shm *seg;
	struct lrutest_stat a;
	unsigned long addr;

	seg = relocked_segment(test, &addr);
	lrutest_drain();
	lrutest_stat(&a);
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, n * PAGE_SIZE), 0);
	/* Since 6.14 an unmap leaves its munlocks in the mlock batch. */
	lrutest_drain();
	lrutest_expect_stat_delta(test, &a, SHM_DELTA(.nr_mlock = -n, .munlocked = n),
				  "munmap while SHM_LOCKed");
	expect_all_unevictable(test, seg, 1, false, "munmap while SHM_LOCKed");
	lrutest_shm_destroy(test, seg);
}

/* With the mlock gone, the last SHM_UNLOCK rescues every folio. */
static void shm_unlock_after_the_munlock_rescues_the_segment(struct kunit *test)
{
	const long n = SHM_TEST_PAGES;
	struct lrutest_shm *seg;
	struct lrutest_stat a;
	unsigned long addr;

	seg = relocked_segment(test, &addr);
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, n * PAGE_SIZE), 0);
	lrutest_drain();
	lrutest_stat(&a);
	KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_UNLOCK), 0L);
	lrutest_expect_stat_delta(test, &a,
				  SHM_DELTA(.scanned = n, .rescued = n,
					    .unevictable = -n, .anon = n),
				  "last SHM_UNLOCK");
	expect_all_anon(test, seg, 1, "last SHM_UNLOCK");
	lrutest_shm_destroy(test, seg);
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * SHM_LOCK and SHM_UNLOCK of a large shmem folio (a PMD-sized one of a
 * tmpfs mounted huge=always): shmctl()'s shmem part, shmem_lock() and
 * shmem_unlock_mapping().  The folio of these cases, on an anon list
 * (its list in *@lru), the batches drained.
 */
static struct folio *shm_large_folio(struct kunit *test, struct file **file, int *lru)
{
	struct folio *folio = lrutest_shmem_huge_folio(test, file);

	lrutest_drain();
	*lru = lrutest_locate(folio);
	KUNIT_ASSERT_TRUE_MSG(test, *lru == LRU_INACTIVE_ANON || *lru == LRU_ACTIVE_ANON,
			      "set up: on an anon list (%d)", *lru);
	return folio;
}

/*
 * The lock marks the mapping unevictable and moves nothing: no folio
 * changes list, no counter moves, and no reference is taken or dropped.
 */
static void shm_lock_leaves_a_large_folio_on_its_list(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	struct file *file;
	int lru;

	folio = shm_large_folio(test, &file, &lru);
	lrutest_stat(&before);
	lrutest_shmem_lock(test, file);
	KUNIT_EXPECT_TRUE(test, mapping_unevictable(file->f_mapping));
	KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folio), lru, "SHM_LOCK moved the folio");
	KUNIT_EXPECT_FALSE(test, folio_test_unevictable(folio));
	/* Not mapped: the page cache's HPAGE_PMD_NR and the case's one. */
	lrutest_expect_refs(test, folio, 0, 1, "SHM_LOCK");
	lrutest_expect_stat_delta(test, &before, SHM_DELTA(), "SHM_LOCK of a large folio");
}

/*
 * A putback of the locked folio culls it (folio_putback_lru() ->
 * lru_add()), counted in pages: PGCULLED and NR_UNEVICTABLE +HPAGE_PMD_NR.
 */
static void putback_of_a_shm_locked_large_folio_culls_it_by_pages(struct kunit *test)
{
	const long n = HPAGE_PMD_NR;
	struct lrutest_stat before;
	struct folio *folio;
	struct file *file;
	int lru;

	folio = shm_large_folio(test, &file, &lru);
	lrutest_stat(&before);
	lrutest_shmem_lock(test, file);
	lrutest_isolate(test, folio);
	lrutest_putback(test, folio);
	/* No drain: folio_add_lru() lists a large folio at once, unbatched. */
	lrutest_expect_unevictable(test, lrutest_locate(folio), folio, "putback", 0);
	/* Not mapped: the page cache's HPAGE_PMD_NR and the case's one. */
	lrutest_expect_refs(test, folio, 0, 1, "putback");
	lrutest_expect_stat_delta(test, &before,
				  SHM_DELTA(.culled = n, .unevictable = n, .anon = -n),
				  "putback of a locked large folio");
}

/*
 * shm_large_folio(), locked (the counters in @before just before) and
 * culled by a putback.
 */
static struct folio *shm_culled_large_folio(struct kunit *test, struct lrutest_stat *before,
					    struct lrutest_shmem_lock **lock)
{
	struct folio *folio;
	struct file *file;
	int lru;

	folio = shm_large_folio(test, &file, &lru);
	lrutest_stat(before);
	*lock = lrutest_shmem_lock(test, file);
	lrutest_isolate(test, folio);
	lrutest_putback(test, folio);
	/* No drain: folio_add_lru() lists a large folio at once, unbatched. */
	return folio;
}

/*
 * The unlock's check_move_unevictable_folios() scans and rescues the
 * culled folio, counted in pages too (PGSCANNED, PGRESCUED +HPAGE_PMD_NR),
 * back to the inactive anon list.
 */
static void shm_unlock_rescues_a_culled_large_folio_by_pages(struct kunit *test)
{
	const long n = HPAGE_PMD_NR;
	struct lrutest_shmem_lock *lock;
	struct lrutest_stat before;
	struct folio *folio;

	folio = shm_culled_large_folio(test, &before, &lock);
	lrutest_shmem_unlock(test, lock);
	/*
	 * The cull cleared PG_active: the rescue lists it inactive (on the
	 * multi-gen LRU, in max_seq - 1, as any anon folio).
	 */
	lrutest_expect_rescued(test, folio, false, "SHM_UNLOCK");
	lrutest_expect_refs(test, folio, 0, 1, "SHM_UNLOCK");
	lrutest_expect_stat_delta(test, &before,
				  SHM_DELTA(.culled = n, .scanned = n, .rescued = n),
				  "SHM_UNLOCK of a culled large folio");
}
#else
static void shm_lock_leaves_a_large_folio_on_its_list(struct kunit *test)
{
	kunit_skip(test, "CONFIG_TRANSPARENT_HUGEPAGE is off: no large shmem folio");
}

static void putback_of_a_shm_locked_large_folio_culls_it_by_pages(struct kunit *test)
{
	kunit_skip(test, "CONFIG_TRANSPARENT_HUGEPAGE is off: no large shmem folio");
}

static void shm_unlock_rescues_a_culled_large_folio_by_pages(struct kunit *test)
{
	kunit_skip(test, "CONFIG_TRANSPARENT_HUGEPAGE is off: no large shmem folio");
}
#endif

static struct kunit_case shm_lock_cases[] = {
	KUNIT_CASE(shm_lock_culls_on_reclaim_and_putback),
	KUNIT_CASE(shm_pages_touched_after_shm_lock_are_culled_as_added),
	KUNIT_CASE(shm_unlock_rescues_all),
	KUNIT_CASE_PARAM(shm_lock_charges_the_segment_up_to_rlimit_memlock, rlimit_gen_params),
	KUNIT_CASE(shm_lock_of_a_locked_segment_is_not_charged_again),
	KUNIT_CASE(shm_rmid_while_attached_keeps_the_lock_and_the_pages),
	KUNIT_CASE(shm_last_detach_after_rmid_releases_the_lock_and_the_pages),
	KUNIT_CASE_PARAM(shm_lock_in_a_child_user_namespace, userns_gen_params),
	KUNIT_CASE(shm_locked_segment_mapped_locked_is_mlocked_and_culled_once),
	KUNIT_CASE(shm_unlock_of_an_mlocked_segment_rescues_nothing),
	KUNIT_CASE(munmap_of_the_locked_vma_keeps_a_shm_locked_segment_unevictable),
	KUNIT_CASE(shm_unlock_after_the_munlock_rescues_the_segment),
	KUNIT_CASE(shm_lock_leaves_a_large_folio_on_its_list),
	KUNIT_CASE(putback_of_a_shm_locked_large_folio_culls_it_by_pages),
	KUNIT_CASE(shm_unlock_rescues_a_culled_large_folio_by_pages),
	{}
};

static struct kunit_suite shm_lock_suite = {
	.name = "mm_shm_lock",
	.init = lrutest_init,
	.test_cases = shm_lock_cases,
};

kunit_test_suite(shm_lock_suite);

MODULE_DESCRIPTION("KUnit tests of SysV SHM_LOCK and the unevictable LRU");
MODULE_LICENSE("GPL");
