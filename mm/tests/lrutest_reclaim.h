/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lrutest: declarations of the SHM_LOCK, ramfs and reclaim-culling tests
 * and their file helpers (lru_file_fixture.c).
 */
#ifndef _MM_TESTS_LRUTEST_RECLAIM_H
#define _MM_TESTS_LRUTEST_RECLAIM_H

#include <kunit/test.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/shm.h>
#include <linux/syscalls.h>
#include <linux/vm_event_item.h>

#include "lrutest.h"

struct shmid_ds;

/* lru_file_fixture.c */
unsigned long lrutest_event(enum vm_event_item item);
struct vfsmount *lrutest_mount(struct kunit *test, const char *fstype);
struct vfsmount *lrutest_mount_opts(struct kunit *test, const char *fstype,
				    const char *opts);
struct vfsmount *lrutest_mount_dev(struct kunit *test, const char *fstype,
				   const char *dev);
void lrutest_ramdisk_node(struct kunit *test, int minor, const char *path);
/* What the page cache holds at an index: nothing, a shadow entry, a folio. */
enum lrutest_slot { LRUTEST_SLOT_EMPTY, LRUTEST_SLOT_SHADOW, LRUTEST_SLOT_CACHED };
unsigned long lrutest_page_cache_slots(struct file *file, pgoff_t first,
				       unsigned long nr, enum lrutest_slot kind);
struct file *lrutest_create(struct kunit *test, struct vfsmount *mnt,
			    const char *name);
void lrutest_close(struct kunit *test, struct file *file);
void lrutest_flush_fput(void);
/* A PMD-sized folio of a huge=always tmpfs file (THP only). */
struct folio *lrutest_shmem_huge_folio(struct kunit *test, struct file **filep);
#ifdef CONFIG_HUGETLBFS
/* An empty hugetlbfs file, the pool one huge page larger for the case. */
struct file *lrutest_hugetlb_file(struct kunit *test);
#endif
/* shmctl(SHM_LOCK)'s shmem part on a shmem file, undone when the case ends. */
struct lrutest_shmem_lock;
struct lrutest_shmem_lock *lrutest_shmem_lock(struct kunit *test, struct file *file);
void lrutest_shmem_unlock(struct kunit *test, struct lrutest_shmem_lock *l);
void lrutest_fput(void *file);

void lrutest_expect_unevictable(struct kunit *test, int listed,
				struct folio *folio, const char *step,
				unsigned long i);

/* lru_shm.c: SysV segments of the test kthread's user mm. */
struct lrutest_shm {
	int id;
	unsigned long addr;		/* of the do_shmat() attach, 0 if none */
	unsigned long pages;
	struct address_space *mapping;	/* good while the segment lives */
};

void lrutest_shm_user_mm(struct kunit *test);
struct lrutest_shm *lrutest_shm_create(struct kunit *test, unsigned long pages);
void lrutest_shm_attach(struct kunit *test, struct lrutest_shm *seg);
void lrutest_shm_detach(struct kunit *test, struct lrutest_shm *seg);
void lrutest_shm_touch(struct kunit *test, struct lrutest_shm *seg);
void lrutest_shm_destroy(struct kunit *test, struct lrutest_shm *seg);
/* shmctl(@cmd) of segment @id; the state checked as it returns. */
long lrutest_shm_ctl(int id, int cmd);

#endif /* _MM_TESTS_LRUTEST_RECLAIM_H */
