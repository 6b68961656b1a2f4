// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest file helpers: a filesystem mounted by the test, files in it, page
 * cache folios listed on a fake node, and the vm event counters, for the
 * SHM_LOCK, ramfs and reclaim-culling tests.  Everything is undone by KUnit
 * actions, also when a case fails half way.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hugetlb.h>
#include <linux/major.h>
#include <linux/memcontrol.h>
#include <linux/mm_inline.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/xarray.h>

#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

/* The global count of one vm event (all_vm_events(), as /proc/vmstat). */
unsigned long lrutest_event(enum vm_event_item item)
{
	unsigned long *ev, val;

	lrutest_step();
	ev = kmalloc_array(NR_VM_EVENT_ITEMS, sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return ULONG_MAX;
	all_vm_events(ev);
	val = ev[item];
	kfree(ev);
	return val;
}

static void lrutest_umount(void *data)
{
	mntput(data);
}

/*
 * A fresh instance of @fstype, mounted as mount(2) mounts it (not as
 * kern_mount() does: shmem_fill_super() ignores tmpfs's size, inode and
 * noswap options on an SB_KERNMOUNT superblock), unmounted when the case
 * ends.
 */
struct vfsmount *lrutest_mount(struct kunit *test, const char *fstype)
{
	return lrutest_mount_opts(test, fstype, NULL);
}

/*
 * Mount the @fstype filesystem of @source with @flags and options @opts;
 * unmounted when the case ends.  A source that is a path is looked up from
 * the init task's root.
 */
static struct vfsmount *lrutest_mount_source(struct kunit *test, const char *fstype,
					     int flags, const char *source,
					     const char *opts)
{
	struct file_system_type *type = get_fs_type(fstype);
	struct fs_struct *fs;
	char *data = NULL;
	struct vfsmount *mnt;

	KUNIT_ASSERT_NOT_NULL_MSG(test, type, "no filesystem type %s", fstype);
	if (opts) {
		/* The option parser writes into its string. */
		data = kunit_kstrdup(test, opts, GFP_KERNEL);
		if (!data)
			put_filesystem(type);
		KUNIT_ASSERT_NOT_NULL(test, data);
	}
	fs = lrutest_init_fs_begin();
	mnt = vfs_kern_mount(type, flags, source ?: type->name, data);
	lrutest_init_fs_end(fs);
	put_filesystem(type);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "mount %s (%s): %ld", fstype,
			       opts ?: "", PTR_ERR(mnt));
	/*
	 * In no namespace, the mount is internal as kern_mount()'s are, so
	 * that its last mntput() takes it down at once and not from the
	 * delayed work a kernel thread's mntput() of a user mount defers to.
	 */
	mnt->mnt_flags |= MNT_INTERNAL;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_umount, mnt));
	return mnt;
}

/* lrutest_mount() with mount options @opts ("huge=always"), or NULL. */
struct vfsmount *lrutest_mount_opts(struct kunit *test, const char *fstype,
				    const char *opts)
{
	return lrutest_mount_source(test, fstype, 0, NULL, opts);
}

/* A read-only mount of the @fstype filesystem on the block device node @dev. */
struct vfsmount *lrutest_mount_dev(struct kunit *test, const char *fstype,
				   const char *dev)
{
	return lrutest_mount_source(test, fstype, SB_RDONLY, dev, NULL);
}

static void lrutest_node_unlink(void *path)
{
	struct fs_struct *fs = lrutest_init_fs_begin();
	struct dentry *dentry;
	struct path parent;

	dentry = lrutest_start_removing(path, &parent);
	lrutest_init_fs_end(fs);
	if (WARN_ON(IS_ERR(dentry)))
		return;
	WARN_ON(vfs_unlink(mnt_idmap(parent.mnt), d_inode(parent.dentry), dentry, NULL));
	lrutest_end_removing(&parent, dentry);
}

/**
 * lrutest_ramdisk_node - a block device node of /dev/ram@minor in rootfs
 * @test: the test case
 * @minor: the RAM disk
 * @path: the node, an absolute path from the init task's root
 *
 * For the calls that take a device by its path (swapon(), the mount of a
 * block device filesystem); removed when the case ends.
 */
void lrutest_ramdisk_node(struct kunit *test, int minor, const char *path)
{
	struct fs_struct *fs = lrutest_init_fs_begin();
	struct dentry *dentry;
	struct path parent;
	int err;

	dentry = lrutest_start_creating(path, &parent);
	lrutest_init_fs_end(fs);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(dentry), "create %s: %ld", path, PTR_ERR(dentry));
	err = lrutest_mknod(&parent, dentry, S_IFBLK | 0600, MKDEV(RAMDISK_MAJOR, minor));
	lrutest_end_creating(&parent, dentry);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "mknod %s", path);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_node_unlink, (void *)path));
}

/* How many of the @nr page cache slots of @file from @first hold @kind. */
unsigned long lrutest_page_cache_slots(struct file *file, pgoff_t first,
				       unsigned long nr, enum lrutest_slot kind)
{
	unsigned long i, n = 0;

	for (i = 0; i < nr; i++) {
		void *entry = xa_load(&file->f_mapping->i_pages, first + i);
		enum lrutest_slot slot = LRUTEST_SLOT_CACHED;

		if (!entry)
			slot = LRUTEST_SLOT_EMPTY;
		else if (xa_is_value(entry))
			slot = LRUTEST_SLOT_SHADOW;
		n += slot == kind;
	}
	return n;
}

/*
 * A kernel thread's last fput() is deferred to a work item, and a file's
 * release may fput() another file (an shm attach holds the shmem file):
 * run the deferred ones, and wait for those another CPU's work item took,
 * until the chain is done.
 */
void lrutest_flush_fput(void)
{
	int i;

	for (i = 0; i < 4; i++)
		flush_delayed_fput();
	lru_add_drain();
}

/* Put @file, as a KUnit action: a kthread's fput() is deferred, finish it. */
void lrutest_fput(void *file)
{
	fput(file);
	lrutest_flush_fput();
}

/* Create and open @name in the root of @mnt; closed when the case ends. */
struct file *lrutest_create(struct kunit *test, struct vfsmount *mnt,
			    const char *name)
{
	struct file *file;

	file = file_open_root_mnt(mnt, name, O_CREAT | O_RDWR | O_LARGEFILE, 0600);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "create %s: %ld", name,
			       PTR_ERR(file));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_fput, file));
	return file;
}

/* Close @file now (its last reference, if unlinked: the inode goes). */
void lrutest_close(struct kunit *test, struct file *file)
{
	kunit_release_action(test, lrutest_fput, file);
}

/**
 * lrutest_expect_unevictable - expect @folio on the unevictable "list"
 * @test: the test case
 * @listed: the list @folio was found threaded on by walking
 *	(lrutest_find_folio(), lrutest_locate())
 * @folio: the folio
 * @step: what the case just did, for the messages
 * @i: the folio's number, for the messages
 *
 * PG_lru and PG_unevictable set, and threaded on no walkable list.
 */
void lrutest_expect_unevictable(struct kunit *test, int listed,
				struct folio *folio, const char *step,
				unsigned long i)
{
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(folio),
			      "%s: folio %lu: PG_lru clear", step, i);
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_unevictable(folio),
			      "%s: folio %lu: PG_unevictable clear", step, i);
	KUNIT_EXPECT_EQ_MSG(test, listed, LRUTEST_NOT_LISTED,
			    "%s: folio %lu: threaded on an evictable list", step, i);
}

#ifdef CONFIG_HUGETLBFS
/* The vm.nr_hugepages sysctl of a procfs mount: read into @buf, or written. */
static ssize_t lrutest_nr_hugepages(struct vfsmount *proc, char *buf, size_t len,
				    bool write)
{
	struct file *file;
	loff_t pos = 0;
	ssize_t n;

	file = file_open_root_mnt(proc, "sys/vm/nr_hugepages", write ? O_WRONLY : O_RDONLY, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	n = write ? kernel_write(file, buf, len, &pos) : kernel_read(file, buf, len - 1, &pos);
	fput(file);
	lrutest_flush_fput();
	if (n >= 0 && !write)
		buf[n] = '\0';
	return n;
}

struct lrutest_hugepages {
	struct vfsmount *proc;
	char old[24];		/* nr_hugepages before the case */
};

static void lrutest_hugepages_restore(void *data)
{
	struct lrutest_hugepages *hp = data;

	WARN_ON(lrutest_nr_hugepages(hp->proc, hp->old, strlen(hp->old), true) < 0);
}

/**
 * lrutest_hugetlb_file - an empty file on hugetlbfs, with a huge page for it
 * @test: the test case
 *
 * The pool of the default huge page size grows by one page for the case,
 * through the vm.nr_hugepages sysctl of a procfs mount, and shrinks back
 * when it ends; the file is created on a hugetlbfs mount of its own.
 * Skips the case if the pool cannot grow (no free huge page of contiguous
 * memory).
 */
struct file *lrutest_hugetlb_file(struct kunit *test)
{
	struct lrutest_hugepages *hp = kunit_kzalloc(test, sizeof(*hp), GFP_KERNEL);
	unsigned long old;
	char val[24];
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, hp);
	hp->proc = lrutest_mount(test, "proc");
	n = lrutest_nr_hugepages(hp->proc, hp->old, sizeof(hp->old), false);
	KUNIT_ASSERT_GT_MSG(test, n, 0L, "read vm.nr_hugepages: %ld", (long)n);
	strim(hp->old);
	KUNIT_ASSERT_EQ(test, kstrtoul(hp->old, 10, &old), 0);
	snprintf(val, sizeof(val), "%lu", old + 1);
	n = lrutest_nr_hugepages(hp->proc, val, strlen(val), true);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_hugepages_restore, hp));
	KUNIT_ASSERT_GT_MSG(test, n, 0L, "write vm.nr_hugepages: %ld", (long)n);
	if (default_hstate.free_huge_pages < 1)
		kunit_skip(test, "no free huge page after vm.nr_hugepages=%s", val);
	return lrutest_create(test, lrutest_mount(test, "hugetlbfs"), "h");
}
#endif

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/**
 * lrutest_shmem_huge_folio - a PMD-sized shmem folio in a file of its own
 * @test: the test case
 * @filep: set to the file (a tmpfs mounted huge=always), closed at the end
 *
 * Written page by page through kernel_write(), charged as any write (to
 * the active memcg, if the caller set one).  Returns the folio at index 0,
 * a reference held until the case ends.
 */
struct folio *lrutest_shmem_huge_folio(struct kunit *test, struct file **filep)
{
	struct folio *folio;
	struct file *file;
	loff_t pos = 0;
	char *buf;

	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	file = lrutest_create(test, lrutest_mount_opts(test, "tmpfs", "huge=always"), "f");
	while (pos < HPAGE_PMD_SIZE)
		KUNIT_ASSERT_EQ(test, kernel_write(file, buf, PAGE_SIZE, &pos),
				(ssize_t)PAGE_SIZE);
	folio = filemap_get_folio(file->f_mapping, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_folio_put_action, folio));
	KUNIT_ASSERT_EQ_MSG(test, folio_nr_pages(folio), (long)HPAGE_PMD_NR,
			    "set up: a PMD-sized folio in a huge=always tmpfs");
	*filep = file;
	return folio;
}
#endif

struct lrutest_shmem_lock {
	struct file *file;
	struct ucounts *ucounts;
};

/* What shmctl(SHM_UNLOCK) does after shmem_lock(): the undo of the lock. */
static void lrutest_shmem_unlock_action(void *data)
{
	struct lrutest_shmem_lock *l = data;

	shmem_lock(l->file, 0, l->ucounts);
	shmem_unlock_mapping(l->file->f_mapping);
}

/**
 * lrutest_shmem_lock - the shmem part of shmctl(SHM_LOCK) on @file
 * @test: the test case
 * @file: a shmem file
 *
 * shmem_lock() marks the mapping unevictable and moves no folio; undone by
 * lrutest_shmem_unlock() (shmem_lock(0) and shmem_unlock_mapping(), as
 * SHM_UNLOCK) or when the case ends.
 */
struct lrutest_shmem_lock *lrutest_shmem_lock(struct kunit *test, struct file *file)
{
	struct lrutest_shmem_lock *l;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	l->file = file;
	l->ucounts = current_ucounts();
	KUNIT_ASSERT_EQ(test, shmem_lock(file, 1, l->ucounts), 0);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_shmem_unlock_action, l));
	return l;
}

void lrutest_shmem_unlock(struct kunit *test, struct lrutest_shmem_lock *l)
{
	kunit_release_action(test, lrutest_shmem_unlock_action, l);
}
