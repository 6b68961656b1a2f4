// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest SysV shared memory helpers: a segment made with shmget(),
 * attached to the test kthread's user mm with do_shmat(), touched through
 * the attach, SHM_LOCKed through ksys_shmctl(), and removed when the case ends.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/ipc.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/shm.h>
#include <linux/swap.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <uapi/linux/shm.h>

#include "internal.h"	/* mlock_drain_local(), mm/ by -I in the Makefile */
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

/*
 * Detach (from the test thread, which has the mm) and remove the segment,
 * then run the deferred fputs that free its folios.  Each case ends with
 * this through kunit_release_action(), so that nothing of it is freed while
 * the next case counts.  If the case failed, this runs in KUnit's cleanup
 * thread instead, which has no mm: removing the id then marks the segment
 * for destruction at the last detach, which lrutest_mm_release() (the mm
 * was made first, so its action runs after this one) does.
 */
static void lrutest_shm_release(void *data)
{
	struct lrutest_shm *seg = data;

	if (seg->addr && current->mm)
		ksys_shmdt((char __user *)seg->addr);
	seg->addr = 0;
	seg->mapping = NULL;
	ksys_shmctl(seg->id, IPC_RMID, NULL, IPC_64);
	lrutest_flush_fput();
}

void lrutest_shm_destroy(struct kunit *test, struct lrutest_shm *seg)
{
	kunit_release_action(test, lrutest_shm_release, seg);
}

/* A user mm for the test kthread, its VMAs gone when the case ends. */
void lrutest_shm_user_mm(struct kunit *test)
{
	lrutest_mm_attach(test);
}

/* shmget() a private segment of @pages pages, removed when the case ends. */
struct lrutest_shm *lrutest_shm_create(struct kunit *test, unsigned long pages)
{
	struct lrutest_shm *seg;
	long id;

	seg = kunit_kzalloc(test, sizeof(*seg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seg);
	id = ksys_shmget(IPC_PRIVATE, pages * PAGE_SIZE, IPC_CREAT | 0600);
	KUNIT_ASSERT_GE_MSG(test, id, 0L, "shmget of %lu pages", pages);
	seg->id = id;
	seg->pages = pages;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_shm_release, seg));
	return seg;
}

/* do_shmat() it read-write and note the shmem mapping behind it. */
void lrutest_shm_attach(struct kunit *test, struct lrutest_shm *seg)
{
	struct vm_area_struct *vma;
	unsigned long addr;
	long err;

	err = do_shmat(seg->id, NULL, 0, &addr, SHMLBA);
	KUNIT_ASSERT_EQ_MSG(test, err, 0L, "shmat");
	seg->addr = addr;
	mmap_read_lock(current->mm);
	vma = find_vma(current->mm, addr);
	if (vma && vma->vm_start == addr && vma->vm_file)
		seg->mapping = vma->vm_file->f_mapping;
	mmap_read_unlock(current->mm);
	KUNIT_ASSERT_NOT_NULL_MSG(test, seg->mapping, "no shm vma at %lx", addr);
}

void lrutest_shm_detach(struct kunit *test, struct lrutest_shm *seg)
{
	KUNIT_ASSERT_EQ_MSG(test, ksys_shmdt((char __user *)seg->addr), 0L, "shmdt");
	seg->addr = 0;
	seg->mapping = NULL;
	lrutest_flush_fput();
}

/* Write one byte to each page through the attach: shmem_fault() each in. */
void lrutest_shm_touch(struct kunit *test, struct lrutest_shm *seg)
{
	unsigned long i;
	char c = 'x';

	for (i = 0; i < seg->pages; i++)
		KUNIT_ASSERT_EQ_MSG(test,
				    copy_to_user((char __user *)seg->addr + i * PAGE_SIZE,
						 &c, 1), 0UL, "touch page %lu", i);
	lru_add_drain();
	KUNIT_ASSERT_EQ_MSG(test, seg->mapping->nrpages, seg->pages,
			    "shm pages in the page cache");
}

/*
 * No drain after: SHM_LOCK only marks the mapping unevictable (its folios
 * are culled as reclaim or lru_add() meets them), and SHM_UNLOCK moves
 * them under the lru_lock (shmem_unlock_mapping() ->
 * check_move_unevictable_folios()), so the state holds as shmctl()
 * returns.
 */
long lrutest_shm_ctl(int id, int cmd)
{
	lrutest_step();
	return ksys_shmctl(id, cmd, NULL, IPC_64);
}
