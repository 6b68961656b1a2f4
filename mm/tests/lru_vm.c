// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest fixture for the mlock/munlock tests: a user mm for the test
 * kthread, mappings in it, lookups of the folios behind them, and exact
 * readings of NR_MLOCK and the unevictable_pgs_* vm events.
 *
 * These cases run on the real node: the folios are the test's own, but the
 * lruvec is the machine's, so they check the test's folios and counter
 * deltas, never absolute list totals.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/anon_inodes.h>
#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/huge_mm.h>
#include <linux/file.h>
#include <linux/kthread.h>
#include <linux/major.h>
#include <linux/memcontrol.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/pagewalk.h>
#include <linux/romfs_fs.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <linux/swap.h>
#include <linux/vmstat.h>

#include "internal.h"
#include "lrutest.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

void lrutest_stat(struct lrutest_stat *stat)
{
	static unsigned long ev[NR_VM_EVENT_ITEMS];

	all_vm_events(ev);
	stat->nr_mlock = lrutest_zone_state(NR_MLOCK);
	stat->mlocked = ev[UNEVICTABLE_PGMLOCKED];
	stat->munlocked = ev[UNEVICTABLE_PGMUNLOCKED];
	stat->culled = ev[UNEVICTABLE_PGCULLED];
	stat->scanned = ev[UNEVICTABLE_PGSCANNED];
	stat->rescued = ev[UNEVICTABLE_PGRESCUED];
	stat->stranded = ev[UNEVICTABLE_PGSTRANDED];
	stat->cleared = ev[UNEVICTABLE_PGCLEARED];
	stat->unevictable = lrutest_node_state(NR_UNEVICTABLE);
	stat->anon = lrutest_node_state(NR_INACTIVE_ANON) +
		     lrutest_node_state(NR_ACTIVE_ANON);
	stat->file = lrutest_node_state(NR_INACTIVE_FILE) +
		     lrutest_node_state(NR_ACTIVE_FILE);
	stat->file_pages = lrutest_node_state(NR_FILE_PAGES);
	stat->lists = false;
}

/**
 * lrutest_vm_event - a vm event's count, summed over every CPU
 * @item: the event
 *
 * For a case that counts one event over a call: the count before and after.
 */
unsigned long lrutest_vm_event(enum vm_event_item item)
{
	static unsigned long ev[NR_VM_EVENT_ITEMS];

	all_vm_events(ev);
	return ev[item];
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/**
 * lrutest_thp_map - a PMD-mapped anon THP
 * @test: the test case
 * @folio: set to the THP, a reference held until the case ends
 *
 * Twice its size mapped, the aligned half made MADV_HUGEPAGE and faulted by
 * a write, the batches drained.  Returns its address.
 */
unsigned long lrutest_thp_map(struct kunit *test, struct folio **folio)
{
	unsigned long addr, thp;

	addr = lrutest_mmap_anon(test, 2 * HPAGE_PMD_NR, false);
	thp = ALIGN(addr, HPAGE_PMD_SIZE);
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, thp, HPAGE_PMD_SIZE, MADV_HUGEPAGE), 0);
	lrutest_touch(test, thp);
	lrutest_drain();
	*folio = lrutest_folio_at(test, thp);
	KUNIT_ASSERT_NOT_NULL(test, *folio);
	KUNIT_ASSERT_EQ_MSG(test, folio_nr_pages(*folio), (long)HPAGE_PMD_NR,
			    "the fault of a MADV_HUGEPAGE range (THP enabled=%s)",
			    hugepage_global_always() ? "always" : "madvise/never");
	KUNIT_ASSERT_EQ_MSG(test, folio_entire_mapcount(*folio), 1, "PMD-mapped");
	return thp;
}

/**
 * lrutest_thp_map_by_ptes - an anon THP mapped by PTEs in one VMA
 * @test: the test case
 * @folio: set to the THP, a reference held until the case ends
 *
 * The PMD of a fresh THP (lrutest_thp_map()) is split by an mprotect() of
 * its first half and the VMA merged back by the mprotect() that undoes it,
 * so the folio is whole but mapped by HPAGE_PMD_NR PTEs.  Returns its
 * address.
 */
unsigned long lrutest_thp_map_by_ptes(struct kunit *test, struct folio **folio)
{
	unsigned long thp;
	int maps;

	thp = lrutest_thp_map(test, folio);
	maps = lrutest_map_count();
	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(thp, HPAGE_PMD_SIZE / 2, PROT_READ, -1), 0L);
	KUNIT_ASSERT_EQ(test, do_mprotect_pkey(thp, HPAGE_PMD_SIZE / 2,
					       PROT_READ | PROT_WRITE, -1), 0L);
	KUNIT_ASSERT_EQ_MSG(test, folio_entire_mapcount(*folio), 0, "set up: PMD split");
	KUNIT_ASSERT_EQ_MSG(test, folio_mapcount(*folio), (int)HPAGE_PMD_NR,
			    "set up: every page mapped by a PTE");
	KUNIT_ASSERT_EQ_MSG(test, lrutest_map_count(), maps, "set up: the VMAs merged back");
	lrutest_drain();
	return thp;
}
#endif

static const struct {
	const char *name;
	size_t offset;
	bool list;
} lrutest_stat_fields[] = {
	{ "NR_MLOCK", offsetof(struct lrutest_stat, nr_mlock) },
	{ "PGMLOCKED", offsetof(struct lrutest_stat, mlocked) },
	{ "PGMUNLOCKED", offsetof(struct lrutest_stat, munlocked) },
	{ "PGCULLED", offsetof(struct lrutest_stat, culled) },
	{ "PGSCANNED", offsetof(struct lrutest_stat, scanned) },
	{ "PGRESCUED", offsetof(struct lrutest_stat, rescued) },
	{ "PGSTRANDED", offsetof(struct lrutest_stat, stranded) },
	{ "PGCLEARED", offsetof(struct lrutest_stat, cleared) },
	{ "NR_UNEVICTABLE", offsetof(struct lrutest_stat, unevictable), true },
	{ "anon LRU pages", offsetof(struct lrutest_stat, anon), true },
	{ "file LRU pages", offsetof(struct lrutest_stat, file), true },
	{ "NR_FILE_PAGES", offsetof(struct lrutest_stat, file_pages), true },
};

static long lrutest_stat_field(const struct lrutest_stat *stat, int i)
{
	return *(const long *)((const char *)stat + lrutest_stat_fields[i].offset);
}

void lrutest_expect_stat_delta(struct kunit *test,
			       const struct lrutest_stat *before,
			       const struct lrutest_stat *want,
			       const char *what)
{
	struct lrutest_stat now;
	int i;

	lrutest_stat(&now);
	for (i = 0; i < ARRAY_SIZE(lrutest_stat_fields); i++) {
		if (lrutest_stat_fields[i].list && !want->lists)
			continue;
		KUNIT_EXPECT_EQ_MSG(test,
				    lrutest_stat_field(&now, i) - lrutest_stat_field(before, i),
				    lrutest_stat_field(want, i),
				    "%s: delta of %s", what, lrutest_stat_fields[i].name);
	}
}

void lrutest_drain(void)
{
	lrutest_step();
	lru_add_drain();
	mlock_drain_local();
}

/*
 * The list @folio is threaded on in its lruvec, found by walking it under
 * its lru_lock, or LRUTEST_NOT_LISTED.
 */
int lrutest_locate(struct folio *folio)
{
	struct lruvec *lruvec;
	int lru;

	lruvec = folio_lruvec_lock_irq(folio);
	lru = lrutest_find_folio(lruvec, folio);
	lrutest_lruvec_unlock_irq(lruvec);
	return lru;
}

/*
 * "On LRU_UNEVICTABLE": PG_lru and PG_unevictable set, PG_active clear,
 * threaded on none of the evictable lists (LRU_UNEVICTABLE itself is not a
 * list: its folios' lru field holds mlock_count).
 */
void lrutest_expect_mlocked(struct kunit *test, struct folio *folio,
			    unsigned int mlock_count, const char *what)
{
	int lru = lrutest_locate(folio);

	KUNIT_EXPECT_TRUE_MSG(test, folio_test_mlocked(folio),
			      "%s: PG_mlocked", what);
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(folio), "%s: PG_lru", what);
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_unevictable(folio),
			      "%s: PG_unevictable", what);
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_active(folio),
			       "%s: PG_active with PG_unevictable", what);
	KUNIT_EXPECT_EQ_MSG(test, lru, LRUTEST_NOT_LISTED,
			    "%s: unevictable folio threaded on %s", what,
			    lru >= 0 ? lrutest_lru_names[lru] : "-");
	if (folio_test_unevictable(folio))
		KUNIT_EXPECT_EQ_MSG(test, folio->mlock_count, mlock_count,
				    "%s: mlock_count", what);
}

/* Evictable, listed on @lru (walked), a list of the right type. */
static void expect_evictable_on(struct kunit *test, struct folio *folio, int lru,
				bool file, const char *what)
{
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_mlocked(folio),
			       "%s: PG_mlocked", what);
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_unevictable(folio),
			       "%s: PG_unevictable", what);
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(folio), "%s: PG_lru", what);
	KUNIT_EXPECT_NE_MSG(test, lru, LRUTEST_NOT_LISTED,
			    "%s: on no evictable list", what);
	if (lru != LRUTEST_NOT_LISTED)
		KUNIT_EXPECT_EQ_MSG(test, is_file_lru(lru), file,
				    "%s: on %s", what, lrutest_lru_names[lru]);
}

/* Back on an evictable list of the right type, found by walking it. */
void lrutest_expect_evictable(struct kunit *test, struct folio *folio,
			      bool file, const char *what)
{
	expect_evictable_on(test, folio, lrutest_locate(folio), file, what);
}

/**
 * lrutest_expect_rescued - @folio was munlocked and rescued
 * @test: the test case
 * @folio: a folio the case locked and then unlocked
 * @file: whether it belongs on a file list
 * @what: the step, for the message
 *
 * As lrutest_expect_evictable(), and on the classic LRU on the inactive
 * list of its type (unevictable-lru.rst: munlock "moves the folio to the
 * inactive list"; mlock cleared PG_active).  The multi-gen LRU places it by
 * generation instead (lru_gen_add_folio()): an anon folio not in the swap
 * cache, as a rescued one is, in the second youngest generation, max_seq
 * - 1 ("mm/mglru: fix underprotected page cache"); a file folio's
 * generation depends on the ages of the lruvec and is not checked.
 */
void lrutest_expect_rescued(struct kunit *test, struct folio *folio,
			    bool file, const char *what)
{
	int lru = lrutest_locate(folio);

	expect_evictable_on(test, folio, lru, file, what);
	if (lru == LRUTEST_NOT_LISTED)
		return;
	if (!lru_gen_enabled()) {
		KUNIT_EXPECT_FALSE_MSG(test, is_active_lru(lru), "%s: rescued onto %s",
				       what, lrutest_lru_names[lru]);
		return;
	}
#ifdef CONFIG_LRU_GEN
	if (!file && !folio_test_swapcache(folio)) {
		unsigned long max_seq;

		rcu_read_lock();
		max_seq = READ_ONCE(folio_lruvec(folio)->lrugen.max_seq);
		rcu_read_unlock();
		KUNIT_EXPECT_EQ_MSG(test, folio_lru_gen(folio), lru_gen_from_seq(max_seq - 1),
				    "%s: generation of the rescued folio (max_seq %lu)",
				    what, max_seq);
	}
#endif
}

/**
 * lrutest_expect_refs - @folio is mapped and referenced as its users say
 * @test: the test case
 * @folio: a folio the case looked up or made
 * @mapped: the page table mappings the case made and left (a PTE or a PMD
 *	each): its own count, checked against folio_mapcount()
 * @held: the references the case itself holds on it
 * @what: the step, for the message
 *
 * The kernel's accounting: one reference per mapping, folio_nr_pages()
 * while it is in the page cache or the swap cache, one for private data
 * (buffer heads, folio_attach_private()), and the case's own.  A batch
 * that still holds it, or a step that took one and kept it, shows as one
 * more; a reference dropped twice as one fewer.
 */
void lrutest_expect_refs(struct kunit *test, struct folio *folio, int mapped,
			 int held, const char *what)
{
	bool cached = folio_test_swapcache(folio) ||
		      (folio->mapping && !folio_test_anon(folio));
	int priv = folio_test_private(folio) ? 1 : 0;
	int want = mapped + held + priv + (cached ? folio_nr_pages(folio) : 0);

	KUNIT_EXPECT_EQ_MSG(test, folio_mapcount(folio), mapped, "%s: mappings", what);
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), want,
			    "%s: references (%d mappings, %s, %d private, %d held by the test)",
			    what, mapped, cached ? "cached" : "not cached", priv, held);
}

static void lrutest_real_folio_release(void *data)
{
	struct folio *folio = data;

	struct kunit *test = kunit_get_current_test();

	/*
	 * Every CPU's batches let go of it (a case may fail while another
	 * CPU's batch holds it), then it is checked off the LRU (the case
	 * isolated it): free_pages_prepare() checks.
	 */
	lru_add_drain_all();
	/* The case's own is the last: an isolation or a batch not undone is a leak. */
	if (test)
		KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), 1,
				    "leak: references on a test folio at the end of the case");
	if (!folio_test_lru(folio)) {
		folio_clear_active(folio);
		folio_clear_unevictable(folio);
	}
	/* The last put takes it off its LRU and clears PG_mlocked. */
	folio_put(folio);
}

/*
 * Free a test-owned folio now, as its release at the end of the case
 * would: the case's reference must be the last.
 */
void lrutest_real_folio_free(struct kunit *test, struct folio *folio)
{
	kunit_release_action(test, lrutest_real_folio_release, folio);
}

/**
 * lrutest_real_folio - a test-owned folio on the machine's own LRU
 * @test: the test case
 * @order: its order
 * @flags: LRUTEST_ANON for a swap-backed folio, LRUTEST_ACTIVE
 * @add: put it on the LRU (folio_add_lru() and a drain), or leave it off
 *
 * The folio is put when the case ends, which frees it and takes it off
 * whatever list it is on.
 */
struct folio *lrutest_real_folio(struct kunit *test, unsigned int order,
				 unsigned long flags, bool add)
{
	return lrutest_real_folio_on(test, order, flags, add, NUMA_NO_NODE);
}

/**
 * lrutest_real_folio_on - lrutest_real_folio() from node @nid's memory
 * @test: the test case
 * @order: its order
 * @flags: as for lrutest_real_folio()
 * @add: as for lrutest_real_folio()
 * @nid: the node (__GFP_THISNODE), or NUMA_NO_NODE for the local one
 */
struct folio *lrutest_real_folio_on(struct kunit *test, unsigned int order,
				    unsigned long flags, bool add, int nid)
{
	struct folio *folio;

	if (nid == NUMA_NO_NODE)
		folio = folio_alloc(GFP_KERNEL, order);
	else
		folio = __folio_alloc_node(GFP_KERNEL | __GFP_THISNODE, order, nid);
	KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "order-%u folio on node %d", order, nid);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_real_folio_release,
						  folio));
	/* Charged like any user folio (root memcg for a kthread), if memcg. */
	KUNIT_ASSERT_EQ(test, mem_cgroup_charge(folio, NULL, GFP_KERNEL), 0);
	if (flags & LRUTEST_ANON)
		__folio_set_swapbacked(folio);
	/* Set before listing: a listed folio's flags must match its list. */
	if (flags & LRUTEST_ACTIVE)
		folio_set_active(folio);
	if (add) {
		folio_add_lru(folio);
		lrutest_drain();
		KUNIT_ASSERT_TRUE(test, folio_test_lru(folio));
	}
	return folio;
}

/*
 * The suite's own reference on a case's mm (lrutest_mm_attach()), dropped
 * by this action whatever the case did.  Run by lrutest_mm_exit(), the
 * test thread's reference is gone already and this mmput() is the last:
 * exit_mmap() runs here.  Run by KUnit's cleanup after a failed ASSERT,
 * the test thread may still be exiting (KUnit stops waiting for it in
 * exit_mm_release(), before its mmput()): its VMAs are unmapped here, from
 * the cleanup thread, so that whatever they locked is munlocked and the
 * files they held released before the case's leak check and the next
 * case, and the last mmput(), ours or the exiting thread's, only frees
 * what is left.
 */
static void lrutest_mm_release(void *data)
{
	struct mm_struct *mm = data;

	if (atomic_read(&mm->mm_users) > 1 && !current->mm) {
		kthread_use_mm(mm);
		vm_munmap(0, TASK_SIZE);
		kthread_unuse_mm(mm);
	}
	mmput(mm);
	/* The files its VMAs held (shm, shmem, page cache) go now. */
	lrutest_flush_fput();
}

/*
 * Give the test kthread a user mm of its own, as kunit_vm_mmap() does, but
 * return it so that a case can tear it down itself (lrutest_mm_exit()).
 * The suite holds a second reference (lrutest_mm_release()), so that a
 * case that ends early has its VMAs gone before it is reported.
 */
struct mm_struct *lrutest_mm_attach(struct kunit *test)
{
	struct mm_struct *mm;

	KUNIT_ASSERT_NULL_MSG(test, current->mm, "test kthread already has an mm");
	mm = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, mm);
	mm->task_size = TASK_SIZE;
	arch_pick_mmap_layout(mm, &current->signal->rlim[RLIMIT_STACK]);
	mmget(mm);
	kthread_use_mm(mm);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_mm_release, mm));
	return mm;
}

/* Detach and drop the kthread's mm now: exit_mmap() runs before return. */
void lrutest_mm_exit(struct kunit *test)
{
	struct mm_struct *mm = current->mm;

	kthread_unuse_mm(mm);
	mmput(mm);
	kunit_release_action(test, lrutest_mm_release, mm);
}

/* Suite init of the VMA cases: runs in the case's kthread, gives it an mm. */
int lrutest_vm_init(struct kunit *test)
{
	struct lrutest_stat *start;

	start = kunit_kzalloc(test, sizeof(*start), GFP_KERNEL);
	if (!start)
		return -ENOMEM;
	if (lrutest_init(test))
		return -EINVAL;
	lrutest_mm_attach(test);
	lrutest_drain();
	lrutest_stat(start);
	test->priv = start;
	return 0;
}

/*
 * The last step of a VMA case: tear its mm down now, not when the kthread
 * exits (KUnit's next case may already run by then), and check that
 * NR_MLOCK is back where it was before the case.
 */
void lrutest_vm_end(struct kunit *test)
{
	const struct lrutest_stat *start = test->priv;
	struct lrutest_stat now;

	lrutest_mm_exit(test);
	lrutest_drain();
	lrutest_stat(&now);
	KUNIT_EXPECT_EQ_MSG(test, now.nr_mlock, start->nr_mlock,
			    "NR_MLOCK after the case's mm is gone");
}

unsigned long lrutest_mmap(struct kunit *test, struct file *file,
			   unsigned long pages, unsigned long flags)
{
	unsigned long addr;

	addr = kunit_vm_mmap(test, file, 0, pages << PAGE_SHIFT,
			     PROT_READ | PROT_WRITE, flags, 0);
	KUNIT_ASSERT_FALSE_MSG(test, !addr || IS_ERR_VALUE(addr),
			       "mmap of %lu pages: %ld", pages, (long)addr);
	return addr;
}

unsigned long lrutest_mmap_anon(struct kunit *test, unsigned long pages,
				bool populate)
{
	return lrutest_mmap(test, NULL, pages,
			    MAP_PRIVATE | MAP_ANONYMOUS |
			    (populate ? MAP_POPULATE : 0));
}

/* A tmpfs (shmem) file of @pages pages, put when the case ends. */
struct file *lrutest_shmem_file(struct kunit *test, unsigned long pages)
{
	struct file *file;

	file = lrutest_shmem_kernel_file("lrutest", pages << PAGE_SHIFT);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "shmem file: %ld",
			       PTR_ERR(file));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_fput, file));
	return file;
}

/**
 * lrutest_shmem_mapped_twice - a tmpfs file mapped shared, twice
 * @test: the test case
 * @pages: the file's size and each mapping's, in pages
 * @a: set to the address of the first mapping
 * @b: set to the address of the second
 *
 * Both mappings populated (``MAP_POPULATE``) and this CPU's batches
 * drained: each page's folio is mapped by both and listed.
 */
void lrutest_shmem_mapped_twice(struct kunit *test, unsigned long pages,
				unsigned long *a, unsigned long *b)
{
	struct file *file = lrutest_shmem_file(test, pages);

	*a = lrutest_mmap(test, file, pages, MAP_SHARED | MAP_POPULATE);
	*b = lrutest_mmap(test, file, pages, MAP_SHARED | MAP_POPULATE);
	lrutest_drain();
}

static void lrutest_bdev_release(void *file)
{
	/* Drop the page cache the case read in, then the device. */
	lrutest_flush_fput();
	invalidate_mapping_pages(((struct file *)file)->f_mapping, 0, -1);
	lrutest_fput(file);
}

/**
 * lrutest_ramdisk - a page-cache file: a RAM disk (CONFIG_BLK_DEV_RAM)
 * @test: the test case
 * @minor: which one, /dev/ram@minor
 *
 * Opened read-write; its folios are file-backed and not swap-backed.  Its
 * page cache is dropped now and again when the case ends, before the device
 * is closed.  Fails
 * the case if the device cannot be opened.
 */
struct file *lrutest_ramdisk(struct kunit *test, int minor)
{
	struct file *file;

	file = bdev_file_open_by_dev(MKDEV(RAMDISK_MAJOR, minor),
				     BLK_OPEN_READ | BLK_OPEN_WRITE, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "open /dev/ram%d: %ld",
			       minor, PTR_ERR(file));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_bdev_release, file));
	/*
	 * Nothing cached from before (the boot's partition scan, say):
	 * invalidate_bdev() drains every CPU's LRU batches first, or a folio
	 * another CPU added at boot would stay cached, off the LRU.
	 */
	invalidate_bdev(file_bdev(file));
	return file;
}

/* The page-cache file of the mlock cases: /dev/ram0. */
struct file *lrutest_pagecache_file(struct kunit *test)
{
	return lrutest_ramdisk(test, 0);
}

#define LRUTEST_ROMFS_MINOR	3
#define LRUTEST_ROMFS_PATH	"/lrutest-romfs"
#define LRUTEST_ROMFS_ROOT	32	/* after the 16-byte-padded volume name */
#define LRUTEST_ROMFS_FILE	64
#define LRUTEST_ROMFS_DATA	96

/* The sum of the big-endian 32-bit words romfs checksums add up to 0. */
static u32 lrutest_romfs_sum(const void *data, size_t size)
{
	const __be32 *p = data;
	u32 sum = 0;

	for (; size >= 4; size -= 4)
		sum += be32_to_cpu(*p++);
	return sum;
}

/* A romfs file header (name of at most 15 bytes) at @at, checksummed. */
static void lrutest_romfs_header(void *at, u32 next, u32 spec, u32 size,
				 const char *name)
{
	struct romfs_inode *ri = at;

	ri->next = cpu_to_be32(next);
	ri->spec = cpu_to_be32(spec);
	ri->size = cpu_to_be32(size);
	strscpy(ri->name, name, ROMFH_SIZE);
	ri->checksum = cpu_to_be32(-lrutest_romfs_sum(ri, 2 * ROMFH_SIZE));
}

/*
 * The romfs image of lrutest_exec_file(), written, mounted and its file
 * opened and read once; the file's own page cache dropped.
 */
static struct file *lrutest_romfs_file(struct kunit *test, unsigned long pages)
{
	const u32 size = pages << PAGE_SHIFT;
	struct romfs_super_block *rsb;
	struct vfsmount *mnt;
	struct file *dev, *file;
	unsigned long i;
	loff_t pos = 0;
	ssize_t n;

	rsb = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rsb);
	memcpy(rsb, "-rom1fs-", 8);
	rsb->size = cpu_to_be32(LRUTEST_ROMFS_DATA + size);
	strscpy(rsb->name, "lrutest", ROMFH_SIZE);
	lrutest_romfs_header((void *)rsb + LRUTEST_ROMFS_ROOT, ROMFH_DIR | ROMFH_EXEC,
			     LRUTEST_ROMFS_FILE, 0, ".");
	lrutest_romfs_header((void *)rsb + LRUTEST_ROMFS_FILE, ROMFH_REG | ROMFH_EXEC,
			     0, size, "f");
	rsb->checksum = cpu_to_be32(-lrutest_romfs_sum(rsb, 512));

	dev = lrutest_ramdisk(test, LRUTEST_ROMFS_MINOR);
	n = kernel_write(dev, rsb, PAGE_SIZE, &pos);
	KUNIT_ASSERT_EQ_MSG(test, n, (ssize_t)PAGE_SIZE, "write the romfs image");
	KUNIT_ASSERT_EQ(test, vfs_fsync(dev, 0), 0);
	/* Closed before the mount: a block device may refuse writers and a mount at once. */
	kunit_release_action(test, lrutest_bdev_release, dev);
	lrutest_ramdisk_node(test, LRUTEST_ROMFS_MINOR, LRUTEST_ROMFS_PATH);
	mnt = lrutest_mount_dev(test, "romfs", LRUTEST_ROMFS_PATH);

	file = file_open_root_mnt(mnt, "f", O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "open the romfs file: %ld", PTR_ERR(file));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_fput, file));
	KUNIT_ASSERT_EQ(test, i_size_read(file_inode(file)), (loff_t)size);
	for (i = 0; i < pages; i++) {
		struct folio *folio = read_mapping_folio(file->f_mapping, i, file);

		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(folio), "read of page %lu", i);
		folio_put(folio);
	}
	/* The read's folios leave every CPU's lru_add batch, then the cache. */
	lru_add_drain_all();
	invalidate_mapping_pages(file->f_mapping, 0, -1);
	KUNIT_ASSERT_EQ(test, file->f_mapping->nrpages, 0UL);
	return file;
}

/**
 * lrutest_exec_file - an executable page-cache file: one file on romfs
 * @test: the test case
 * @pages: its size in pages
 *
 * A romfs image (Documentation/filesystems/romfs.rst) of a root directory
 * holding one regular file with the exec bit, zero-filled, written to
 * /dev/ram3 and mounted read-only; the file opened read-only.  Its folios
 * are file LRU ones, and it can be mapped PROT_EXEC (a block device's own
 * page cache cannot be where pseudo filesystems are SB_I_NOEXEC).  The
 * file is read once, so that the device blocks romfs_read_folio() copies
 * from are cached, and its own page cache dropped: a fault of the file
 * then adds the file's folio alone.  What the set-up caches is charged to
 * the root memcg, not to a test memcg the case made first; made after the
 * test memcg, it is all undone before that memcg goes.
 */
struct file *lrutest_exec_file(struct kunit *test, unsigned long pages)
{
	struct file *file;

	if (!IS_ENABLED(CONFIG_ROMFS_ON_BLOCK))
		kunit_skip(test, "CONFIG_ROMFS_ON_BLOCK is off: no executable page cache");
#ifdef CONFIG_MEMCG
	{
		struct mem_cgroup *old = set_active_memcg(root_mem_cgroup);

		file = lrutest_romfs_file(test, pages);
		set_active_memcg(old);
	}
#else
	file = lrutest_romfs_file(test, pages);
#endif
	return file;
}

/* Write-fault the page at @addr in, as a user store would. */
void lrutest_touch(struct kunit *test, unsigned long addr)
{
	struct page *page;
	long got;

	mmap_read_lock(current->mm);
	got = get_user_pages(addr, 1, FOLL_WRITE, &page);
	mmap_read_unlock(current->mm);
	KUNIT_ASSERT_EQ_MSG(test, got, 1L, "fault at %lx", addr);
	put_page(page);
}

/* The KUnit action that frees a page from alloc_page(). */
void lrutest_free_page_action(void *page)
{
	__free_page(page);
}

void lrutest_folio_put_action(void *folio)
{
	folio_put(folio);
}

/* KUnit action: folio_putback_lru() of a folio the case isolated. */
void lrutest_putback_action(void *folio)
{
	folio_putback_lru(folio);
}

/**
 * lrutest_isolate - folio_isolate_lru() of @folio, put back when the case ends
 * @test: the test case
 * @folio: a folio on the LRU
 *
 * Fails the case if @folio is not on the LRU.  lrutest_putback() puts it
 * back before the end, once.
 */
void lrutest_isolate(struct kunit *test, struct folio *folio)
{
	int refs = folio_ref_count(folio);

	KUNIT_ASSERT_TRUE_MSG(test, folio_isolate_lru(folio), "isolate a folio");
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_putback_action, folio));
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs + 1,
			    "folio_isolate_lru() takes exactly one reference");
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_lru(folio), "isolated: PG_lru");
}

/*
 * folio_putback_lru(): the isolation's reference is dropped; an order-0
 * folio waits in this CPU's lru_add batch, which holds one of its own
 * until drained, a large one is listed at once (folio_add_lru()).
 */
void lrutest_putback(struct kunit *test, struct folio *folio)
{
	int refs = folio_ref_count(folio);

	kunit_release_action(test, lrutest_putback_action, folio);
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio),
			    refs - (folio_test_large(folio) ? 1 : 0),
			    "references right after folio_putback_lru()");
}

/* An empty list, handed to @empty when the case ends. */
static struct list_head *lrutest_list(struct kunit *test, kunit_action_t *empty)
{
	struct list_head *list = kunit_kzalloc(test, sizeof(*list), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, list);
	INIT_LIST_HEAD(list);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, empty, list));
	return list;
}

static void lrutest_putback_list_action(void *data)
{
	struct list_head *list = data;

	while (!list_empty(list)) {
		struct folio *folio = lru_to_folio(list);

		list_del(&folio->lru);
		folio_putback_lru(folio);
	}
}

/**
 * lrutest_isolated_list - a list for isolated folios, emptied when the case ends
 * @test: the test case
 *
 * Whatever is still on it when the case ends (reclaim_pages() empties it)
 * is put back on the LRU.
 */
struct list_head *lrutest_isolated_list(struct kunit *test)
{
	return lrutest_list(test, lrutest_putback_list_action);
}

/*
 * KUnit action: putback_movable_pages() of a migration list.  A folio put
 * back waits in this CPU's lru_add batch, and a case's cleanup runs on
 * whatever CPU it is given: every CPU's batches are drained, so that the
 * folio is listed (and, unmapped, freed) before the next case.
 */
void lrutest_putback_movable_action(void *list)
{
	putback_movable_pages(list);
	lru_add_drain_all();
}

/**
 * lrutest_migrate_list - a list for folios isolated for migration
 * @test: the test case
 *
 * For isolate_folio_to_list() and compaction's isolation, which count each
 * folio in NR_ISOLATED_*: what is still on it when the case ends (what
 * migrate_pages() did not move) goes back through putback_movable_pages(),
 * as migrate_pages()' own callers do it.
 */
struct list_head *lrutest_migrate_list(struct kunit *test)
{
	return lrutest_list(test, lrutest_putback_movable_action);
}

#ifdef CONFIG_COMPACTION
/*
 * Synchronous compaction of @folio's zone, skip hints ignored and none
 * set (an initializer: compact_control has const members).
 */
#define LRUTEST_COMPACT_CONTROL(folio) {	\
	.zone = folio_zone(folio),		\
	.order = -1,				\
	.mode = MIGRATE_SYNC,			\
	.ignore_skip_hint = true,		\
	.no_set_skip_hint = true,		\
	.gfp_mask = GFP_KERNEL,			\
}

/**
 * lrutest_compact_isolate - compaction's isolation of the pages of @folio
 * @test: the test case
 * @folio: a folio on the LRU
 * @list: where the isolated folios go (lrutest_migrate_list())
 *
 * isolate_migratepages_range() over @folio's pfns alone: the migrate
 * scanner's isolate_migratepages_block() with ISOLATE_UNEVICTABLE, the mode
 * of synchronous compaction while compact_unevictable_allowed is set (the
 * default), and of alloc_contig_range().  Skip hints are ignored;
 * GFP_KERNEL lets it take page-cache folios.  Returns the pages isolated.
 */
unsigned long lrutest_compact_isolate(struct kunit *test, struct folio *folio,
				      struct list_head *list)
{
	struct compact_control cc = LRUTEST_COMPACT_CONTROL(folio);
	unsigned long pfn = folio_pfn(folio);
	int ret;

	INIT_LIST_HEAD(&cc.migratepages);
	ret = isolate_migratepages_range(&cc, pfn, pfn + folio_nr_pages(folio));
	list_splice(&cc.migratepages, list);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "isolate_migratepages_range()");
	return cc.nr_migratepages;
}

/**
 * lrutest_compact_scan - the migrate scanner of compaction over @folio
 * @test: the test case
 * @folio: a folio on the LRU
 * @list: where the isolated folios go (lrutest_migrate_list())
 * @mode: the mode isolate_migratepages() passes: in synchronous compaction
 *	ISOLATE_UNEVICTABLE while compact_unevictable_allowed is set, 0 when
 *	it is cleared
 *
 * isolate_migratepages_block() over @folio's pfns alone, as compaction of
 * its zone runs it on the pageblock that holds them.  Returns the pages
 * isolated.
 */
unsigned long lrutest_compact_scan(struct kunit *test, struct folio *folio,
				   struct list_head *list, isolate_mode_t mode)
{
	struct compact_control cc = LRUTEST_COMPACT_CONTROL(folio);
	unsigned long pfn = folio_pfn(folio);
	int ret;

	INIT_LIST_HEAD(&cc.migratepages);
	ret = isolate_migratepages_block(&cc, pfn, pfn + folio_nr_pages(folio), mode);
	list_splice(&cc.migratepages, list);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "isolate_migratepages_block()");
	return cc.nr_migratepages;
}
#endif

/* ->mmap() of a driver that maps its page: vm_insert_page(), VM_MIXEDMAP. */
static int lrutest_insert_page_mmap(struct file *file, struct vm_area_struct *vma)
{
	return vm_insert_page(vma, vma->vm_start, file->private_data);
}

/* ->mmap() of a driver that maps its page by pfn: VM_IO | VM_PFNMAP. */
static int lrutest_remap_pfn_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct page *page = file->private_data;

	return remap_pfn_range(vma, vma->vm_start, page_to_pfn(page), PAGE_SIZE,
			       vma->vm_page_prot);
}

/* ->mmap() of a driver that marks the VMA VM_IO and maps nothing yet. */
static int lrutest_io_only_mmap(struct file *file, struct vm_area_struct *vma)
{
	vm_flags_set(vma, VM_IO);
	return 0;
}

/* ->mmap() of a driver that marks the VMA VM_PFNMAP and maps nothing yet. */
static int lrutest_pfnmap_only_mmap(struct file *file, struct vm_area_struct *vma)
{
	vm_flags_set(vma, VM_PFNMAP);
	return 0;
}

/* ->fault() of a driver that hands out its page: what is mapped at a fault. */
static vm_fault_t lrutest_page_fault(struct vm_fault *vmf)
{
	struct page *page = vmf->vma->vm_file->private_data;

	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct lrutest_fault_vm_ops = {
	.fault = lrutest_page_fault,
};

/*
 * ->mmap() of a driver that marks the VMA VM_DONTEXPAND and maps its page
 * at the first fault.
 */
static int lrutest_dontexpand_only_mmap(struct file *file, struct vm_area_struct *vma)
{
	vm_flags_set(vma, VM_DONTEXPAND);
	vma->vm_ops = &lrutest_fault_vm_ops;
	return 0;
}

static const struct file_operations lrutest_driver_fops[] = {
	[LRUTEST_DRIVER_MIXEDMAP] = { .mmap = lrutest_insert_page_mmap },
	[LRUTEST_DRIVER_PFNMAP] = { .mmap = lrutest_remap_pfn_mmap },
	[LRUTEST_DRIVER_IO_ONLY] = { .mmap = lrutest_io_only_mmap },
	[LRUTEST_DRIVER_PFNMAP_ONLY] = { .mmap = lrutest_pfnmap_only_mmap },
	[LRUTEST_DRIVER_DONTEXPAND_ONLY] = { .mmap = lrutest_dontexpand_only_mmap },
};

/**
 * lrutest_driver_file - a file whose ->mmap() maps a page, as a driver's does
 * @test: the test case
 * @kind: LRUTEST_DRIVER_MIXEDMAP, vm_insert_page() (``VM_MIXEDMAP``),
 *	LRUTEST_DRIVER_PFNMAP, remap_pfn_range() (``VM_IO | VM_PFNMAP |
 *	VM_DONTEXPAND``), LRUTEST_DRIVER_IO_ONLY and
 *	LRUTEST_DRIVER_PFNMAP_ONLY, one flag set and nothing mapped, or
 *	LRUTEST_DRIVER_DONTEXPAND_ONLY, ``VM_DONTEXPAND`` and the page mapped
 *	by ->fault(): the special VMAs of unevictable-lru.rst, "Filtering
 *	Special VMAs"
 * @page: set to the page it maps (the IO and PFNMAP *_ONLY kinds map
 *	none), a kernel page freed when the case ends
 *
 * Returns the file (anon_inode_getfile()), put when the case ends.  Its
 * mappings are one page long.
 */
struct file *lrutest_driver_file(struct kunit *test, enum lrutest_driver kind,
				 struct page **page)
{
	struct file *file;

	*page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *page);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_free_page_action, *page));
	file = anon_inode_getfile("lrutest", &lrutest_driver_fops[kind], *page, O_RDWR);
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_fput, file));
	return file;
}

/**
 * lrutest_mlocked_page - one populated anon page, mlock()ed
 * @test: the test case
 * @addr: where it is mapped
 *
 * Checked mlocked (mlock_count 1) as mlock() returns.  Returns its folio,
 * a reference held until the case ends (lrutest_folio_at()).
 */
struct folio *lrutest_mlocked_page(struct kunit *test, unsigned long *addr)
{
	struct folio *folio;

	*addr = lrutest_mmap_anon(test, 1, true);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(*addr, PAGE_SIZE, 0), 0L);
	folio = lrutest_folio_at(test, *addr);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	lrutest_expect_mlocked(test, folio, 1, "set up");
	return folio;
}

/*
 * The folio mapped at @addr, or NULL if none is, looked up without
 * faulting.  The test holds a reference until the case ends, so the folio
 * can still be checked after it is unmapped.
 */
struct folio *lrutest_folio_at(struct kunit *test, unsigned long addr)
{
	struct vm_area_struct *vma;
	struct folio_walk fw;
	struct folio *folio = NULL;

	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, addr);
	if (vma) {
		folio = folio_walk_start(&fw, vma, addr, 0);
		if (folio) {
			folio_get(folio);
			folio_walk_end(&fw, vma);
		}
	}
	mmap_read_unlock(current->mm);
	if (folio)
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test, lrutest_folio_put_action,
							  folio));
	return folio;
}

/* The flags of the VMA at @addr, 0 if none. */
vm_flags_t lrutest_vma_flags(unsigned long addr)
{
	struct vm_area_struct *vma;
	vm_flags_t flags = 0;

	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, addr);
	if (vma)
		flags = vma->vm_flags;
	mmap_read_unlock(current->mm);
	return flags;
}

/* The bounds of the VMA at @addr; -ENOENT if none. */
int lrutest_vma_span(unsigned long addr, unsigned long *start,
		     unsigned long *end)
{
	struct vm_area_struct *vma;
	int ret = -ENOENT;

	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, addr);
	if (vma) {
		*start = vma->vm_start;
		*end = vma->vm_end;
		ret = 0;
	}
	mmap_read_unlock(current->mm);
	return ret;
}

int lrutest_map_count(void)
{
	return current->mm->map_count;
}

unsigned long lrutest_locked_vm(void)
{
	return current->mm->locked_vm;
}
