/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lrutest: the kernel interfaces the tests use that differ between the
 * kernels they are built on (6.12 and 7.3), chosen by feature: the
 * LRUTEST_HAS_* symbols come from probes of the tree's own headers in
 * mm/tests/Makefile, never from the version number.  Each wrapper keeps
 * the contract the tests rely on, whichever interface is underneath.
 */
#ifndef _MM_TESTS_LRUTEST_COMPAT_H
#define _MM_TESTS_LRUTEST_COMPAT_H

#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/memcontrol.h>
#include <linux/mm_types.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/rmap.h>
#include <linux/shmem_fs.h>
#include <linux/vmstat.h>

/* struct folio_batch: in <linux/pagevec.h> in 6.12, <linux/folio_batch.h> since 7.1. */
#ifdef LRUTEST_HAS_FOLIO_BATCH_H
#include <linux/folio_batch.h>
#else
#include <linux/pagevec.h>
#endif

/* The flags word of a folio (memdesc_flags_t since 6.18). */
#ifdef LRUTEST_HAS_MEMDESC_FLAGS
#define lrutest_folio_flags(folio)	READ_ONCE((folio)->flags.f)
#define lrutest_folio_flags_word(folio)	(&(folio)->flags.f)
#else
#define lrutest_folio_flags(folio)	READ_ONCE((folio)->flags)
#define lrutest_folio_flags_word(folio)	(&(folio)->flags)
#endif

/* Unlock what folio_lruvec_lock_irq() locked. */
static inline void lrutest_lruvec_unlock_irq(struct lruvec *lruvec)
{
#ifdef LRUTEST_HAS_LRUVEC_UNLOCK_IRQ
	lruvec_unlock_irq(lruvec);
#else
	unlock_page_lruvec_irq(lruvec);
#endif
}

/* An unaccounted (VM_NORESERVE) shmem file of the kernel's own. */
static inline struct file *lrutest_shmem_kernel_file(const char *name, loff_t size)
{
#ifdef LRUTEST_HAS_SHMEM_VMA_FLAGS
	vma_flags_t flags = EMPTY_VMA_FLAGS;

	vma_flags_set(&flags, VMA_NORESERVE_BIT);
	return shmem_kernel_file_setup(name, size, flags);
#else
	return shmem_kernel_file_setup(name, size, VM_NORESERVE);
#endif
}

/* Fold a memcg's per-CPU statistics (and its descendants') in. */
static inline void lrutest_memcg_rstat_flush(struct mem_cgroup *memcg)
{
#ifdef LRUTEST_HAS_CSS_RSTAT_FLUSH
	css_rstat_flush(&memcg->css);
#else
	cgroup_rstat_flush(memcg->css.cgroup);
#endif
}

/*
 * Reclaim's scan, steal and refill counts (PGSCAN_*, PGSTEAL_*,
 * PGREFILL): vm events in 6.12, node statistics since 7.1, which also
 * count into the lruvec's memcg.  @ev is an all_vm_events() array read
 * with the other events of the same snapshot; lrutest_reclaim_total()
 * reads one count alone.
 */
#ifdef LRUTEST_HAS_RECLAIM_NODE_STATS
#define lrutest_reclaim_count(ev, item)		((void)(ev), lrutest_node_state(item))
#define lrutest_reclaim_total(item)		lrutest_node_state(item)
#define lrutest_memcg_reclaim_count(memcg, item) memcg_page_state(memcg, item)
#else
#define lrutest_reclaim_count(ev, item)		((ev)[item])
#define lrutest_reclaim_total(item)		lrutest_event(item)
#define lrutest_memcg_reclaim_count(memcg, item) memcg_events(memcg, item)
#endif

/*
 * The counts of proactive reclaim (memory.reclaim, MEMCG_RECLAIM_PROACTIVE):
 * counted as direct reclaim in 6.12, apart since (PGSCAN_PROACTIVE).
 */
#ifdef LRUTEST_HAS_PGSCAN_PROACTIVE
#define LRUTEST_PGSCAN_PROACTIVE	PGSCAN_PROACTIVE
#define LRUTEST_PGSTEAL_PROACTIVE	PGSTEAL_PROACTIVE
#else
#define LRUTEST_PGSCAN_PROACTIVE	PGSCAN_DIRECT
#define LRUTEST_PGSTEAL_PROACTIVE	PGSTEAL_DIRECT
#endif

/*
 * File folios reclaim scanned and kept on their list: counted in the
 * lruvec's PGROTATE_FILE statistic since it came, before that only added,
 * with refaults' I/O, into the decaying lruvec->file_cost (lru_note_cost()).
 */
#ifdef LRUTEST_HAS_PGROTATE
#define lrutest_rotated_file(lruvec)	lruvec_page_state(lruvec, PGROTATE_FILE)
#else
#define lrutest_rotated_file(lruvec)	READ_ONCE((lruvec)->file_cost)
#endif

/*
 * Credentials: lrutest_override_creds() installs @new, whose reference
 * passes to the override, and returns the credentials it replaced;
 * lrutest_revert_creds() puts them back and drops that reference.  Until
 * 6.13 override_creds() took a reference of its own and revert_creds()
 * dropped it; since 6.14 neither does.
 */
static inline const struct cred *lrutest_override_creds(struct cred *new)
{
#ifdef LRUTEST_HAS_OVERRIDE_CREDS_NOREF
	return override_creds(new);
#else
	const struct cred *old = override_creds(new);

	put_cred(new);
	return old;
#endif
}

static inline void lrutest_revert_creds(const struct cred *old)
{
#ifdef LRUTEST_HAS_OVERRIDE_CREDS_NOREF
	put_cred(revert_creds(old));
#else
	revert_creds(old);
#endif
}

/*
 * Path names from a kernel thread: where kernel threads run in an empty
 * nullfs root (7.x), look them up in the init task's fs, as
 * scoped_with_init_fs() does; in 6.12 a kernel thread's fs is init's.
 * lrutest_init_fs_begin() returns what lrutest_init_fs_end() restores.
 */
static inline struct fs_struct *lrutest_init_fs_begin(void)
{
#ifdef LRUTEST_HAS_INIT_FS_OVERRIDE
	return __override_init_fs();
#else
	return NULL;
#endif
}

static inline void lrutest_init_fs_end(struct fs_struct *old)
{
#ifdef LRUTEST_HAS_INIT_FS_OVERRIDE
	__revert_init_fs(old);
#endif
}

/* The dentry of @name in @base (no permission check; takes the lock). */
static inline struct dentry *lrutest_lookup_unlocked(const char *name, struct dentry *base)
{
#ifdef LRUTEST_HAS_LOOKUP_NOPERM
	return lookup_noperm_unlocked(&QSTR(name), base);
#else
	return lookup_one_len_unlocked(name, base, strlen(name));
#endif
}

/* mkdir of @name in @base, with @base's inode locked around it.  0 or an error. */
static inline int lrutest_mkdir(struct dentry *base, const char *name, umode_t mode)
{
#ifdef LRUTEST_HAS_VFS_MKDIR_DENTRY
	struct dentry *d = start_creating_noperm(base, &QSTR(name));
	int err;

	if (IS_ERR(d))
		return PTR_ERR(d);
	/* On an error vfs_mkdir() ends the dirop itself: end_creating() is a no-op then. */
	d = vfs_mkdir(&nop_mnt_idmap, d_inode(base), d, mode, NULL);
	err = PTR_ERR_OR_ZERO(d);
	end_creating(d);
	return err;
#else
	struct inode *dir = d_inode(base);
	struct dentry *d;
	int err;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	d = lookup_one_len(name, base, strlen(name));
	err = IS_ERR(d) ? PTR_ERR(d) : vfs_mkdir(&nop_mnt_idmap, dir, d, mode);
	inode_unlock(dir);
	if (!IS_ERR(d))
		dput(d);
	return err;
#endif
}

/* rmdir of @name in @base if it exists, with @base's inode locked.  0 or an error. */
static inline int lrutest_rmdir(struct dentry *base, const char *name)
{
	struct dentry *d;
	int err = 0;

#ifdef LRUTEST_HAS_VFS_MKDIR_DENTRY
	d = start_removing_noperm(base, &QSTR(name));
	if (IS_ERR(d))
		return PTR_ERR(d);
	if (d_is_positive(d))
		err = vfs_rmdir(&nop_mnt_idmap, d_inode(base), d, NULL);
	end_removing(d);
#else
	inode_lock_nested(d_inode(base), I_MUTEX_PARENT);
	d = lookup_one_len(name, base, strlen(name));
	if (IS_ERR(d)) {
		err = PTR_ERR(d);
	} else {
		if (d_is_positive(d))
			err = vfs_rmdir(&nop_mnt_idmap, d_inode(base), d);
		dput(d);
	}
	inode_unlock(d_inode(base));
#endif
	return err;
}

static inline int lrutest_mknod(struct path *parent, struct dentry *dentry,
				umode_t mode, dev_t dev)
{
#ifdef LRUTEST_HAS_DELEGATED_INODE
	return vfs_mknod(mnt_idmap(parent->mnt), d_inode(parent->dentry), dentry,
			 mode, dev, NULL);
#else
	return vfs_mknod(mnt_idmap(parent->mnt), d_inode(parent->dentry), dentry,
			 mode, dev);
#endif
}

/*
 * A negative dentry for @name with its parent locked, in @parent, and its
 * end: lrutest_end_creating() unlocks and drops both.
 */
static inline struct dentry *lrutest_start_creating(const char *name, struct path *parent)
{
#ifdef LRUTEST_HAS_START_CREATING_PATH
	return start_creating_path(AT_FDCWD, name, parent, 0);
#else
	return kern_path_create(AT_FDCWD, name, parent, 0);
#endif
}

static inline void lrutest_end_creating(struct path *parent, struct dentry *dentry)
{
#ifdef LRUTEST_HAS_START_CREATING_PATH
	end_creating_path(parent, dentry);
#else
	done_path_create(parent, dentry);
#endif
}

/*
 * The dentry of an existing @name with its parent locked, in @parent, and
 * its end: lrutest_end_removing() unlocks and drops both.
 */
static inline struct dentry *lrutest_start_removing(const char *name, struct path *parent)
{
#ifdef LRUTEST_HAS_START_CREATING_PATH
	return start_removing_path(name, parent);
#else
	return kern_path_locked(name, parent);
#endif
}

static inline void lrutest_end_removing(struct path *parent, struct dentry *dentry)
{
#ifdef LRUTEST_HAS_START_CREATING_PATH
	end_removing_path(parent, dentry);
#else
	inode_unlock(d_inode(parent->dentry));
	dput(dentry);
	path_put(parent);
#endif
}

/*
 * folio_referenced() of a locked @folio, as shrink_folio_list() calls it
 * (no memcg filter): its return, and whether a VM_LOCKED VMA maps it.  The
 * VMA flags it reports are a vma_flags_t on 7.3, vm_flags before.
 */
static inline int lrutest_folio_referenced(struct folio *folio, bool *locked)
{
#ifdef LRUTEST_HAS_REFERENCED_VMA_FLAGS
	vma_flags_t flags;
	int ret = folio_referenced(folio, 1, NULL, &flags);

	*locked = vma_flags_test(&flags, VMA_LOCKED_BIT);
#else
	unsigned long flags = 0;
	int ret = folio_referenced(folio, 1, NULL, &flags);

	*locked = flags & VM_LOCKED;
#endif
	return ret;
}

#endif /* _MM_TESTS_LRUTEST_COMPAT_H */
