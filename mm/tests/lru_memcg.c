// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest fixture for reclaim on a real lruvec: a memory cgroup of the
 * test's own, the test's folios charged to it, reclaim through the kernel's
 * memcg entry point, and a RAM-disk swap device.
 *
 * The cgroup: cgroup2 is mounted with kern_mount(), the memory controller is
 * enabled for the root's children and a child "lrutest" is made.  Anon
 * folios are charged to the memcg of their mm's owner, and memcg reclaim
 * only looks at the references of mms in the target memcg
 * (folio_referenced() -> mm_match_cgroup()): the owner of the case's mm is
 * therefore a kthread of the fixture, parked in the child cgroup (a kthread
 * that has not run yet cannot be migrated: no_cgroup_migration).  Page cache
 * is charged to the memcg by set_active_memcg() around the reads.
 *
 * Everything is undone by KUnit actions, in reverse order: the mm's owner
 * is reset, the kthread moved back to the root and stopped, the child
 * removed (nothing may still be charged to it), the controller disabled
 * and the hierarchy unmounted.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/blkdev.h>
#include <linux/cgroup.h>
#include <linux/completion.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/major.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/pagewalk.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/swap.h>
#include <linux/uaccess.h>
#include <linux/vmstat.h>
#include <asm/tlbflush.h>

#include "memcontrol-v1.h"	/* memcg_events(), mm/ by -I in the Makefile */
#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define LRUTEST_CGROUP		"lrutest"
/* The swap device: a RAM disk (CONFIG_BLK_DEV_RAM), its node in rootfs. */
#define LRUTEST_SWAP_MINOR	2
#define LRUTEST_SWAP_PATH	"/lrutest-swap"

/* Write @val to the cgroup file @name of the hierarchy mounted at @mnt. */
static int lrutest_cgroup_write(struct vfsmount *mnt, const char *name,
				const char *val)
{
	struct file *file;
	loff_t pos = 0;
	ssize_t n;

	file = file_open_root_mnt(mnt, name, O_WRONLY, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	n = kernel_write(file, val, strlen(val), &pos);
	fput(file);
	lrutest_flush_fput();
	return n < 0 ? n : 0;
}

/* Whether the cgroup file @name holds the word @word (a controller). */
static bool lrutest_cgroup_has(struct vfsmount *mnt, const char *name,
			       const char *word)
{
	char buf[128] = "";
	struct file *file;
	loff_t pos = 0;
	ssize_t n;

	file = file_open_root_mnt(mnt, name, O_RDONLY, 0);
	if (IS_ERR(file))
		return false;
	n = kernel_read(file, buf, sizeof(buf) - 1, &pos);
	fput(file);
	lrutest_flush_fput();
	return n > 0 && strstr(buf, word);
}

static int lrutest_cgroup_attach(struct vfsmount *mnt, const char *procs,
				 struct task_struct *task)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", task_pid_nr(task));
	return lrutest_cgroup_write(mnt, procs, pid);
}

static void lrutest_memory_off(void *data)
{
	struct lrutest_memcg *cg = data;

	WARN_ON(lrutest_cgroup_write(cg->mnt, "cgroup.subtree_control", "-memory"));
}

/* Remove the test cgroup, found by name (kernfs leaves mkdir's dentry negative). */
static void lrutest_cgroup_rmdir(void *data)
{
	struct lrutest_memcg *cg = data;

	WARN_ON(lrutest_rmdir(cg->mnt->mnt_root, LRUTEST_CGROUP));
}

static void lrutest_memcg_put(void *data)
{
	struct lrutest_memcg *cg = data;
	struct kunit *test = kunit_get_current_test();
	struct lrutest_reclaim_stat stat;
	enum lru_list lru;

	/*
	 * Not the page counter: it also holds the per-CPU charge stock.  Only
	 * after a passing case: after a failed ASSERT or a skip, KUnit runs
	 * the actions once the case's kthread has released its mm
	 * (vfork_done), maybe before exit_mmap() has freed its folios.
	 */
	lrutest_memcg_stat(cg, &stat);
	for_each_lru(lru)
		if (test && test->status == KUNIT_SUCCESS)
			KUNIT_EXPECT_EQ_MSG(test, stat.lru[lru], 0UL,
					    "%s of the test memcg at its removal",
					    lrutest_lru_names[lru]);
	css_put(&cg->memcg->css);
}

struct lrutest_owner_ctx {
	struct completion running;
};

/* The mm owner's thread: runs once (so it can be migrated), then waits. */
static int lrutest_owner_fn(void *data)
{
	struct lrutest_owner_ctx *ctx = data;

	complete(&ctx->running);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void lrutest_owner_stop(void *data)
{
	struct lrutest_memcg *cg = data;

	/* Back to the root first, so the child is empty when it is removed. */
	WARN_ON(lrutest_cgroup_attach(cg->mnt, "cgroup.procs", cg->owner));
	kthread_stop(cg->owner);
	put_task_struct(cg->owner);
}

static void lrutest_mm_owner_reset(void *data)
{
	struct mm_struct *mm = data;

	/* The test kthread neither owns nor re-owns it: nobody does now. */
	rcu_assign_pointer(mm->owner, NULL);
	mmdrop(mm);
}

/**
 * lrutest_memcg_create - a memory cgroup of the case's own
 * @test: the test case; its kthread must have a user mm (lrutest_vm_init())
 *
 * Anon folios faulted into the case's mm from now on are charged to the
 * new memcg, whose lruvec on this node holds nothing else.  Fails the case
 * (with the reason) if the cgroup cannot be made.
 */
struct lrutest_memcg *lrutest_memcg_create(struct kunit *test)
{
	struct lrutest_owner_ctx *ctx;
	struct cgroup_subsys_state *css;
	struct lrutest_memcg *cg;
	struct dentry *d;
	bool moved;
	int err;

	KUNIT_ASSERT_NOT_NULL_MSG(test, current->mm, "the case needs a user mm");
	if (mem_cgroup_disabled())
		kunit_skip(test,
			   "memcg disabled on the kernel command line (cgroup_disable=memory): no memory cgroup to reclaim from");
	cg = kunit_kzalloc(test, sizeof(*cg), GFP_KERNEL);
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cg);
	KUNIT_ASSERT_NOT_NULL(test, ctx);

	/*
	 * The one cgroup2 hierarchy of the system: enable the memory
	 * controller for the root's children unless it already is, and
	 * leave it as it was.
	 */
	cg->mnt = lrutest_mount(test, "cgroup2");
	if (!lrutest_cgroup_has(cg->mnt, "cgroup.subtree_control", "memory")) {
		err = lrutest_cgroup_write(cg->mnt, "cgroup.subtree_control", "+memory");
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "enable the memory controller");
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test, lrutest_memory_off, cg));
	}

	err = lrutest_mkdir(cg->mnt->mnt_root, LRUTEST_CGROUP, 0755);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "mkdir of the test cgroup");
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_cgroup_rmdir, cg));
	/* kernfs leaves the mkdir dentry negative: look the new one up. */
	d = lrutest_lookup_unlocked(LRUTEST_CGROUP, cg->mnt->mnt_root);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(d), "look up the test cgroup: %ld", PTR_ERR(d));
	css = d_is_positive(d) ? css_tryget_online_from_dir(d, &memory_cgrp_subsys) :
				 ERR_PTR(-ENOENT);
	dput(d);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(css), "memory css of the test cgroup: %ld",
			       PTR_ERR(css));
	cg->memcg = mem_cgroup_from_css(css);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_memcg_put, cg));
	cg->lruvec = mem_cgroup_lruvec(cg->memcg, NODE_DATA(numa_node_id()));

	init_completion(&ctx->running);
	cg->owner = kthread_run(lrutest_owner_fn, ctx, "lrutest-owner");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(cg->owner), "owner kthread: %ld",
			       PTR_ERR(cg->owner));
	get_task_struct(cg->owner);
	wait_for_completion(&ctx->running);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_owner_stop, cg));
	err = lrutest_cgroup_attach(cg->mnt, LRUTEST_CGROUP "/cgroup.procs", cg->owner);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "move the owner kthread into the test cgroup");
	rcu_read_lock();
	moved = mem_cgroup_from_task(cg->owner) == cg->memcg;
	rcu_read_unlock();
	KUNIT_ASSERT_TRUE_MSG(test, moved, "the owner kthread is not in the test memcg");

	mmgrab(current->mm);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_mm_owner_reset, current->mm));
	rcu_assign_pointer(current->mm->owner, cg->owner);
	return cg;
}

/**
 * lrutest_memcg_classic_init - suite init of the classic-LRU reclaim suites
 * @test: the test case
 *
 * Skips when the multi-gen LRU is enabled: memcg reclaim then runs
 * lru_gen_shrink_lruvec() instead of get_scan_count() and shrink_list(),
 * and there are no active and inactive lists to balance or age.
 */
int lrutest_memcg_classic_init(struct kunit *test)
{
	if (lru_gen_enabled())
		kunit_skip(test,
			   "the multi-gen LRU is enabled: memcg reclaim runs lru_gen_shrink_lruvec(), not shrink_list() on active/inactive lists (mm_reclaim_mglru)");
	return lrutest_vm_init(test);
}

/**
 * lrutest_memcg_mglru_init - suite init of the multi-gen LRU reclaim suite
 * @test: the test case
 *
 * Skips when the multi-gen LRU is off (not built, or not enabled): reclaim
 * then has no generations to age or evict.
 */
int lrutest_memcg_mglru_init(struct kunit *test)
{
	if (!lru_gen_enabled())
		kunit_skip(test,
			   "the multi-gen LRU is %s: no generations to age or evict (mm_reclaim_balance, mm_reclaim_aging)",
			   IS_ENABLED(CONFIG_LRU_GEN) ? "not enabled" : "not built");
	return lrutest_vm_init(test);
}

/* Fold the memcg's per-CPU statistics in, so that they are exact now. */
static void lrutest_memcg_flush(struct lrutest_memcg *cg)
{
	lrutest_memcg_rstat_flush(cg->memcg);
}

void lrutest_memcg_stat(struct lrutest_memcg *cg, struct lrutest_reclaim_stat *stat)
{
	static unsigned long ev[NR_VM_EVENT_ITEMS];
	enum lru_list lru;
	int zid;

	lrutest_memcg_flush(cg);
	for_each_lru(lru) {
		stat->lru[lru] = 0;
		/*
		 * The multi-gen LRU keeps no per-zone sizes in the memcg
		 * (lru_gen_update_size() calls __update_lru_size() only): its
		 * sizes are the lruvec statistics, split active/inactive as
		 * lru_gen_is_active() says, exact after the flush above.
		 */
		if (lru_gen_enabled()) {
			stat->lru[lru] = lruvec_page_state_local(cg->lruvec, NR_LRU_BASE + lru);
			continue;
		}
		for (zid = 0; zid < MAX_NR_ZONES; zid++)
			stat->lru[lru] += mem_cgroup_get_zone_lru_size(cg->lruvec, lru, zid);
	}
	all_vm_events(ev);
	stat->scan_anon = lrutest_reclaim_count(ev, PGSCAN_ANON);
	stat->scan_file = lrutest_reclaim_count(ev, PGSCAN_FILE);
	stat->steal_anon = lrutest_reclaim_count(ev, PGSTEAL_ANON);
	stat->steal_file = lrutest_reclaim_count(ev, PGSTEAL_FILE);
	stat->pswpout = ev[PSWPOUT];
	stat->scan_memcg = lrutest_memcg_reclaim_count(cg->memcg, LRUTEST_PGSCAN_PROACTIVE);
	stat->steal_memcg = lrutest_memcg_reclaim_count(cg->memcg, LRUTEST_PGSTEAL_PROACTIVE);
	stat->refill = lrutest_memcg_reclaim_count(cg->memcg, PGREFILL);
	stat->activate = memcg_events(cg->memcg, PGACTIVATE);
	stat->deactivate = memcg_events(cg->memcg, PGDEACTIVATE);
	stat->rotate_file = lrutest_rotated_file(cg->lruvec);
}

/**
 * lrutest_memcg_reclaim - reclaim from the test memcg, as memory.reclaim does
 * @cg: the test memcg
 * @nr_pages: the pages to reclaim
 * @swappiness: 0..200, or -1 for the memcg's own (vm_swappiness)
 *
 * try_to_free_mem_cgroup_pages() with MEMCG_RECLAIM_MAY_SWAP and
 * MEMCG_RECLAIM_PROACTIVE: the priority loop, get_scan_count(), aging and
 * eviction are the kernel's.  The memcg's statistics are flushed first, so
 * that what reclaim reads of them (inactive_is_low(), cache trim mode) is
 * exact at the start, whatever the time of the last periodic flush.
 * Returns the pages reclaimed.
 */
unsigned long lrutest_memcg_reclaim(struct lrutest_memcg *cg,
				    unsigned long nr_pages, int swappiness)
{
	int sw = swappiness;

	lrutest_step();
	lrutest_memcg_flush(cg);
	return try_to_free_mem_cgroup_pages(cg->memcg, nr_pages, GFP_KERNEL,
					    MEMCG_RECLAIM_MAY_SWAP |
					    MEMCG_RECLAIM_PROACTIVE,
					    swappiness < 0 ? NULL : &sw);
}

/*
 * One line of the scan-balance and aging log, and the check that the
 * global scan and steal counts are the test memcg's own: no other reclaim
 * ran meanwhile, and each count is read where the kernel keeps it (vm
 * events or node statistics, direct or proactive).
 */
void lrutest_memcg_log(struct kunit *test, const char *what,
		       const struct lrutest_reclaim_stat *b,
		       const struct lrutest_reclaim_stat *a)
{
	KUNIT_EXPECT_EQ_MSG(test, (a->scan_anon - b->scan_anon) + (a->scan_file - b->scan_file),
			    a->scan_memcg - b->scan_memcg,
			    "%s: global PGSCAN_ANON + PGSCAN_FILE against the memcg's proactive PGSCAN",
			    what);
	KUNIT_EXPECT_EQ_MSG(test,
			    (a->steal_anon - b->steal_anon) + (a->steal_file - b->steal_file),
			    a->steal_memcg - b->steal_memcg,
			    "%s: global PGSTEAL_ANON + PGSTEAL_FILE against the memcg's proactive PGSTEAL",
			    what);
	kunit_info(test,
		   "%s: scanned anon %lu file %lu, reclaimed anon %lu file %lu, swapped out %lu, refill %lu, activate %lu, deactivate %lu; lists ia %lu aa %lu if %lu af %lu\n",
		   what, a->scan_anon - b->scan_anon, a->scan_file - b->scan_file,
		   a->steal_anon - b->steal_anon, a->steal_file - b->steal_file,
		   a->pswpout - b->pswpout, a->refill - b->refill,
		   a->activate - b->activate, a->deactivate - b->deactivate,
		   a->lru[LRU_INACTIVE_ANON], a->lru[LRU_ACTIVE_ANON],
		   a->lru[LRU_INACTIVE_FILE], a->lru[LRU_ACTIVE_FILE]);
}

/**
 * lrutest_memcg_expect_stolen - what a reclaim took, counted three ways
 * @test: the test case
 * @reclaimed: what the reclaim returned
 * @b: the test memcg's statistics before it
 * @a: and after it
 *
 * PGSTEAL_ANON + PGSTEAL_FILE is what reclaim returned; the pages gone from
 * the memcg's anon and file lists are PGSTEAL_ANON and PGSTEAL_FILE; the
 * anon pages reclaimed are the pages swapped out (PSWPOUT).
 */
void lrutest_memcg_expect_stolen(struct kunit *test, unsigned long reclaimed,
				 const struct lrutest_reclaim_stat *b,
				 const struct lrutest_reclaim_stat *a)
{
	KUNIT_EXPECT_EQ_MSG(test, (a->steal_anon - b->steal_anon) + (a->steal_file - b->steal_file),
			    reclaimed, "PGSTEAL_ANON + PGSTEAL_FILE against what reclaim returned");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_stat_anon(b) - lrutest_stat_anon(a),
			    a->steal_anon - b->steal_anon,
			    "anon pages gone from the memcg's lists against PGSTEAL_ANON");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_stat_file(b) - lrutest_stat_file(a),
			    a->steal_file - b->steal_file,
			    "file pages gone from the memcg's lists against PGSTEAL_FILE");
	KUNIT_EXPECT_EQ_MSG(test, a->pswpout - b->pswpout, a->steal_anon - b->steal_anon,
			    "anon pages reclaimed are the pages swapped out");
}

/* The list of the test memcg's lruvec @folio is threaded on, by walking. */
int lrutest_memcg_find(struct lrutest_memcg *cg, struct folio *folio)
{
	int lru;

	spin_lock_irq(&cg->lruvec->lru_lock);
	lru = lrutest_find_folio(cg->lruvec, folio);
	spin_unlock_irq(&cg->lruvec->lru_lock);
	return lru;
}

/* Pages threaded on the lists of @lru of the test memcg, walked under its lock. */
unsigned long lrutest_memcg_walk(struct lrutest_memcg *cg, enum lru_list lru)
{
	unsigned long pages;

	spin_lock_irq(&cg->lruvec->lru_lock);
	pages = lrutest_walk_pages(cg->lruvec, lru);
	spin_unlock_irq(&cg->lruvec->lru_lock);
	return pages;
}

/**
 * lrutest_memcg_read - read page cache of @file in, charged to the test memcg
 * @test: the test case
 * @cg: the test memcg
 * @file: a file: a RAM disk (lrutest_ramdisk()), a ramfs file
 * @first: the first page
 * @nr: how many pages
 * @times: how often each is read: once leaves it inactive and
 *	PG_referenced, twice activates it (folio_mark_accessed())
 *
 * The folios are clean, unmapped and held by the page cache alone.
 */
void lrutest_memcg_read(struct kunit *test, struct lrutest_memcg *cg,
			struct file *file, pgoff_t first, unsigned long nr,
			unsigned int times)
{
	struct mem_cgroup *old = set_active_memcg(cg->memcg);
	unsigned long i, failed = 0;
	unsigned int t;

	for (t = 0; t < times; t++) {
		for (i = 0; i < nr; i++) {
			struct folio *folio;

			folio = read_mapping_folio(file->f_mapping, first + i, file);
			if (IS_ERR(folio)) {
				failed++;
				continue;
			}
			folio_put(folio);
		}
		/* Let the next read find each folio on its list. */
		lru_add_drain();
	}
	set_active_memcg(old);
	KUNIT_ASSERT_EQ_MSG(test, failed, 0UL, "page cache reads failed");
}

/**
 * lrutest_memcg_workingset - the test memcg's refault counts
 * @cg: the test memcg
 * @s: filled in
 *
 * Node statistics mod_lruvec_state() also counts into the memcg, exact
 * after the flush, and its lruvec's nonresident_age.
 */
void lrutest_memcg_workingset(struct lrutest_memcg *cg, struct lrutest_workingset *s)
{
	lrutest_memcg_rstat_flush(cg->memcg);
	s->refault = memcg_page_state(cg->memcg, WORKINGSET_REFAULT_FILE);
	s->activate = memcg_page_state(cg->memcg, WORKINGSET_ACTIVATE_FILE);
	s->restore = memcg_page_state(cg->memcg, WORKINGSET_RESTORE_FILE);
	s->refault_anon = memcg_page_state(cg->memcg, WORKINGSET_REFAULT_ANON);
	s->activate_anon = memcg_page_state(cg->memcg, WORKINGSET_ACTIVATE_ANON);
	s->restore_anon = memcg_page_state(cg->memcg, WORKINGSET_RESTORE_ANON);
	s->age = atomic_long_read(&cg->lruvec->nonresident_age);
}

/* A mapping of one page in the current mm with @s in it, or an error. */
static unsigned long lrutest_user_string(const char *s)
{
	unsigned long addr;

	addr = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, 0);
	if (IS_ERR_VALUE(addr))
		return addr;
	if (copy_to_user((void __user *)addr, s, strlen(s) + 1)) {
		vm_munmap(addr, PAGE_SIZE);
		return -EFAULT;
	}
	return addr;
}

/*
 * swapon()/swapoff() of the swap device node: the syscalls take a user
 * path, so it is put in a page of the current mm, or of a temporary one if
 * the caller (a KUnit cleanup thread) has none.
 */
static long lrutest_swap_call(bool on)
{
	struct mm_struct *tmp = NULL;
	unsigned long addr;
	long ret;

	if (!current->mm) {
		tmp = mm_alloc();
		if (!tmp)
			return -ENOMEM;
		tmp->task_size = TASK_SIZE;
		arch_pick_mmap_layout(tmp, &current->signal->rlim[RLIMIT_STACK]);
		kthread_use_mm(tmp);
	}
	addr = lrutest_user_string(LRUTEST_SWAP_PATH);
	if (IS_ERR_VALUE(addr)) {
		ret = addr;
	} else {
		struct fs_struct *fs = lrutest_init_fs_begin();

		ret = on ? ksys_swapon((const char __user *)addr, 0) :
			   ksys_swapoff((const char __user *)addr);
		lrutest_init_fs_end(fs);
		vm_munmap(addr, PAGE_SIZE);
	}
	if (tmp) {
		kthread_unuse_mm(tmp);
		mmput(tmp);
	}
	return ret;
}

static void lrutest_swap_off(void *data)
{
	WARN_ON(lrutest_swap_call(false));
	/*
	 * swapoff()'s last fput() of the device is deferred in a kthread:
	 * finish it, so the device is released (its exclusive claim too)
	 * before the next case's swapon().
	 */
	lrutest_flush_fput();
}

/* mkswap: a version-1 swap header over the whole of @file's device. */
static int lrutest_mkswap(struct file *file)
{
	loff_t size = bdev_nr_bytes(file_bdev(file)), pos = 0;
	union swap_header *hdr;
	ssize_t n;

	hdr = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!hdr)
		return -ENOMEM;
	hdr->info.version = 1;
	hdr->info.last_page = (size >> PAGE_SHIFT) - 1;
	memcpy(hdr->magic.magic, "SWAPSPACE2", 10);
	n = kernel_write(file, hdr, PAGE_SIZE, &pos);
	kfree(hdr);
	if (n != PAGE_SIZE)
		return n < 0 ? n : -EIO;
	return vfs_fsync(file, 0);
}

/**
 * lrutest_swap_on - switch a RAM-disk swap device on for the case
 * @test: the test case
 *
 * /dev/ram2 gets a swap header and a node in rootfs, and is switched on with
 * swapon(); swapoff(), the node's removal follow when the case ends.  Call
 * it before lrutest_memcg_create(): the page holding the path is then
 * charged to the root memcg, not to the test's.  Fails the case with the
 * reason if swap cannot be switched on.
 */
void lrutest_swap_on(struct kunit *test)
{
	dev_t dev = MKDEV(RAMDISK_MAJOR, LRUTEST_SWAP_MINOR);
	long total = total_swap_pages;
	struct file *file;
	int err;

	file = bdev_file_open_by_dev(dev, BLK_OPEN_READ | BLK_OPEN_WRITE, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "open /dev/ram%d: %ld",
			       LRUTEST_SWAP_MINOR, PTR_ERR(file));
	err = lrutest_mkswap(file);
	fput(file);
	lrutest_flush_fput();
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "write the swap header");

	lrutest_ramdisk_node(test, LRUTEST_SWAP_MINOR, LRUTEST_SWAP_PATH);

	err = lrutest_swap_call(true);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "swapon %s", LRUTEST_SWAP_PATH);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_swap_off, NULL));
	KUNIT_ASSERT_GT_MSG(test, total_swap_pages, total, "swapon added no swap space");
}

/**
 * lrutest_swap - swap on for the case, or check that none is on
 * @test: the test case
 * @on: lrutest_swap_on(), or assert that no swap is left on
 */
void lrutest_swap(struct kunit *test, bool on)
{
	if (on)
		lrutest_swap_on(test);
	else
		KUNIT_ASSERT_EQ_MSG(test, total_swap_pages, 0L, "swap left on by an earlier case");
}

/*
 * A user access to the page at @addr, as the MMU reports it.  The page is
 * faulted in if need be and then loaded from (copy_from_user()), after its
 * TLB entry is flushed, so the load walks the page table: a MMU that sets
 * the accessed bit itself (x86) sets it then; reclaim's
 * ptep_clear_flush_young() does not flush on x86, and a cached translation
 * would hide a later access.  Where software keeps the bit (UML: a fault
 * that maps a page leaves it old, and a load does not fault again), a read
 * fault on the present PTE makes it young (handle_mm_fault() ->
 * pte_mkyoung()); on x86 that fault sets nothing (ptep_set_access_flags()
 * writes only for a write fault), so both are done.  No
 * folio_mark_accessed(): that is what a kernel-side lookup does, not a
 * user access.  Returns the byte loaded from @addr.
 */
u8 lrutest_user_touch(struct kunit *test, unsigned long addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int err, i;
	u8 c = 0xff;

	for (i = 0; i < 2; i++) {
		mmap_read_lock(mm);
		err = fixup_user_fault(mm, addr, 0, NULL);
		mmap_read_unlock(mm);
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "user access at %lx", addr);
	}
	mmap_read_lock(mm);
	vma = vma_lookup(mm, addr);
	if (vma)
		flush_tlb_page(vma, addr);
	mmap_read_unlock(mm);
	KUNIT_ASSERT_NOT_NULL_MSG(test, vma, "no VMA at %lx", addr);
	KUNIT_ASSERT_EQ_MSG(test, copy_from_user(&c, (const void __user *)addr, 1), 0UL,
			    "load from %lx", addr);
	return c;
}

/**
 * lrutest_user_store - a user store of @byte to the page at @addr
 * @test: the test case
 * @addr: a user address in the current mm
 * @byte: what to store
 *
 * As the MMU makes it: a write access that finds the PTE clean or old sets
 * its dirty and accessed bits, by itself on x86, through a write fault
 * where software keeps them (UML: handle_mm_fault() -> pte_mkdirty()).  A
 * kernel copy_to_user() takes no such fault on UML once the PTE is present
 * and writable (it stores through the kernel's mapping of the page), so the
 * write fault is taken here first; on x86 it sets the same bits.
 */
void lrutest_user_store(struct kunit *test, unsigned long addr, u8 byte)
{
	struct mm_struct *mm = current->mm;
	int err;

	mmap_read_lock(mm);
	err = fixup_user_fault(mm, addr, FAULT_FLAG_WRITE, NULL);
	mmap_read_unlock(mm);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "write fault at %lx", addr);
	KUNIT_ASSERT_EQ_MSG(test, copy_to_user((void __user *)addr, &byte, 1), 0UL,
			    "store to %lx", addr);
}

/**
 * lrutest_memcg_lru_at - where the folio mapped at @addr is, without a reference
 * @cg: the test memcg
 * @addr: a user address in the current mm
 * @flags: if not NULL, the folio's flags at the time
 *
 * Returns the list of the test memcg's lruvec the folio is threaded on
 * (found by walking), LRUTEST_NOT_LISTED if it is on none of them, or
 * -ENOENT if nothing is mapped at @addr (never faulted, or reclaimed).
 * No reference is taken, so reclaim can still free the folio: it cannot go
 * while the page table lock of the lookup is held.
 */
int lrutest_memcg_lru_at(struct lrutest_memcg *cg, unsigned long addr,
			 unsigned long *flags)
{
	struct vm_area_struct *vma;
	struct folio_walk fw;
	struct folio *folio;
	int lru = -ENOENT;

	if (flags)
		*flags = 0;
	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, addr);
	folio = vma ? folio_walk_start(&fw, vma, addr, 0) : NULL;
	if (folio) {
		lru = lrutest_memcg_find(cg, folio);
		if (flags)
			*flags = lrutest_folio_flags(folio);
		folio_walk_end(&fw, vma);
	}
	mmap_read_unlock(current->mm);
	return lru;
}

/**
 * lrutest_memcg_anon - anon memory of the case's mm, charged to the test memcg
 * @test: the test case
 * @pages: how many pages
 * @cold: leave them unused since the fault (MADV_COLD clears the accessed
 *	bits), or used since (lrutest_user_touch(): young PTEs)
 *
 * Each page is written (a write fault, as a user store makes), with data
 * that is not all zeroes, so that swap-out writes it out (a zero-filled page
 * is only marked in the swap device's zeromap).  Returns the address.
 */
unsigned long lrutest_memcg_anon(struct kunit *test, unsigned long pages, bool cold)
{
	unsigned long addr = lrutest_mmap_anon(test, pages, false), i;
	const u8 mark = LRUTEST_ANON_MARK;

	for (i = 0; i < pages; i++)
		KUNIT_ASSERT_EQ_MSG(test, copy_to_user((void __user *)(addr + i * PAGE_SIZE),
						       &mark, 1), 0UL, "store to page %lu", i);
	for (i = 0; i < pages && !cold; i++)
		lrutest_user_touch(test, addr + i * PAGE_SIZE);
	/* MADV_COLD skips folios not on an LRU yet (still in a batch). */
	lrutest_drain();
	if (cold)
		KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, pages * PAGE_SIZE,
						 MADV_COLD), 0);
	return addr;
}

/**
 * lrutest_memcg_lazyfree - lazyfree anon memory charged to the test memcg
 * @test: the test case
 * @pages: how many pages
 *
 * lrutest_memcg_anon() pages, unused since their fault, then madvise(MADV_FREE):
 * madvise_free_pte_range() cleans each PTE and folio and queues the folio
 * in this CPU's lru_lazyfree batch, whose drain (lru_lazyfree()) lists it
 * as file, no longer swap-backed (the inactive file list, or a file
 * generation of the multi-gen LRU).  madvise() returns with the folios in
 * the batch, and so does this: a caller that reads the lists drains first
 * (madvise_pageout() drains it itself).  Returns the address.
 */
unsigned long lrutest_memcg_lazyfree(struct kunit *test, unsigned long pages)
{
	unsigned long addr = lrutest_memcg_anon(test, pages, true);

	KUNIT_ASSERT_EQ_MSG(test, do_madvise(current->mm, addr, pages * PAGE_SIZE, MADV_FREE),
			    0, "MADV_FREE");
	return addr;
}

#ifdef CONFIG_LRU_GEN
/* The age of the generation @folio is threaded on (0: youngest), by walking. */
static int lrutest_memcg_gen_of(struct lrutest_memcg *cg, struct folio *folio)
{
	struct lru_gen_folio *lrugen = &cg->lruvec->lrugen;
	int type = folio_is_file_lru(folio), zone, n;
	unsigned long seq;
	struct folio *f;

	for (seq = lrugen->max_seq; seq >= lrugen->min_seq[type]; seq--) {
		for (zone = 0; zone < MAX_NR_ZONES; zone++) {
			n = 0;
			list_for_each_entry(f, &lrugen->folios[lru_gen_from_seq(seq)][type][zone],
					    lru) {
				if (++n > LRUTEST_WALK_MAX)
					break;
				if (f == folio)
					return lrugen->max_seq - seq;
			}
		}
		if (!seq)
			break;
	}
	return LRUTEST_NOT_LISTED;
}
#endif

/**
 * lrutest_memcg_gen_at - the generation of the folio mapped at @addr
 * @cg: the test memcg
 * @addr: a user address in the current mm
 *
 * Returns how many generations the folio is older than the youngest of
 * the test memcg's lruvec (0: in max_seq), found by walking the generation
 * lists between min_seq and max_seq under the LRU lock;
 * LRUTEST_NOT_LISTED if it is on none of them (or the multi-gen LRU is
 * off), -ENOENT if nothing is mapped at @addr.  No reference is taken.
 */
int lrutest_memcg_gen_at(struct lrutest_memcg *cg, unsigned long addr)
{
	struct vm_area_struct *vma;
	struct folio_walk fw;
	struct folio *folio;
	int age = -ENOENT;

	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, addr);
	folio = vma ? folio_walk_start(&fw, vma, addr, 0) : NULL;
	if (folio) {
		age = LRUTEST_NOT_LISTED;
#ifdef CONFIG_LRU_GEN
		spin_lock_irq(&cg->lruvec->lru_lock);
		age = lrutest_memcg_gen_of(cg, folio);
		spin_unlock_irq(&cg->lruvec->lru_lock);
#endif
		folio_walk_end(&fw, vma);
	}
	mmap_read_unlock(current->mm);
	return age;
}
