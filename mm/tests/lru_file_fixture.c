// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest file helpers: a filesystem mounted by the test, files in it, page
 * cache folios listed on a fake node, and the vm event counters, for the
 * SHM_LOCK, ramfs and reclaim-culling tests.  Everything is undone by KUnit
 * actions, also when a case fails half way.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/memcontrol.h>
#include <linux/mm_inline.h>
#include <linux/mount.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/vmstat.h>

#include "lrutest_reclaim.h"

/* The global count of one vm event (all_vm_events(), as /proc/vmstat). */
unsigned long lrutest_event(enum vm_event_item item)
{
	unsigned long *ev, val;

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
	kern_unmount(data);
}

/* kern_mount() a fresh instance of @fstype, unmounted when the case ends. */
struct vfsmount *lrutest_mount(struct kunit *test, const char *fstype)
{
	struct file_system_type *type = get_fs_type(fstype);
	struct vfsmount *mnt;

	KUNIT_ASSERT_NOT_NULL_MSG(test, type, "no filesystem type %s", fstype);
	mnt = kern_mount(type);
	put_filesystem(type);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "kern_mount(%s): %ld", fstype,
			       PTR_ERR(mnt));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_umount, mnt));
	return mnt;
}

/*
 * A kernel thread's last fput() is deferred to a work item, and a file's
 * release may fput() another file (an shm attach holds the shmem file):
 * run the deferred ones until the chain is done.
 */
void lrutest_flush_fput(void)
{
	int i;

	for (i = 0; i < 4; i++)
		flush_delayed_fput();
	lru_add_drain();
}

static void lrutest_fput(void *data)
{
	fput(data);
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
 * lrutest_node_prepare_reclaim - make a fake node fit for reclaim to scan
 * @node: the fake node
 *
 * Reclaim wakes and may throttle on the node's reclaim_wait queues
 * (too_many_isolated() -> wake_throttle_isolated()), which a real node gets
 * from free_area_init(): initialise them.
 */
void lrutest_node_prepare_reclaim(struct lrutest_node *node)
{
	int i;

	for (i = 0; i < NR_VMSCAN_THROTTLE; i++)
		init_waitqueue_head(&node->pgdat->reclaim_wait[i]);
}

struct lrutest_cache_ctx {
	struct lrutest_node *node;
	struct address_space *mapping;
};

/*
 * Take each folio of the mapping off the fake node if it is still accounted
 * there, then truncate the mapping, which frees the folios through the real
 * node's lruvec: those still on an LRU are then on the real node's.
 * Unevictable folios are threaded nowhere: one counts as on the fake node
 * while the fake node still counts unevictable pages (all folios of a case
 * are the same size), else it was culled to the real node.
 */
static void lrutest_cache_release(void *data)
{
	struct lrutest_cache_ctx *ctx = data;
	struct lrutest_node *node = ctx->node;
	struct folio_batch fbatch;
	pgoff_t index = 0;
	unsigned int i;

	folio_batch_init(&fbatch);
	while (filemap_get_folios(ctx->mapping, &index, ~0UL, &fbatch)) {
		for (i = 0; i < folio_batch_count(&fbatch); i++) {
			struct folio *folio = fbatch.folios[i];

			if (!folio_test_lru(folio))
				continue;
			if (lrutest_find_folio(node->lruvec, folio) == LRUTEST_NOT_LISTED &&
			    !(folio_test_unevictable(folio) &&
			      lrutest_node_pages(node, LRU_UNEVICTABLE)))
				continue;
			lrutest_del(node, folio);
			folio_clear_active(folio);
			folio_clear_unevictable(folio);
		}
		folio_batch_release(&fbatch);
	}
	truncate_inode_pages(ctx->mapping, 0);
	lru_add_drain();
}

/**
 * lrutest_cache_track - let folios of @mapping be listed on @node
 * @test: the test case
 * @node: the fake node
 * @mapping: a mapping of a file the case created (lrutest_create())
 *
 * When the case ends, before the file is closed, the folios of @mapping are
 * taken off @node and the mapping is truncated.
 */
void lrutest_cache_track(struct kunit *test, struct lrutest_node *node,
			 struct address_space *mapping)
{
	struct lrutest_cache_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->node = node;
	ctx->mapping = mapping;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_cache_release, ctx));
}

/**
 * lrutest_cache_folio - a clean page cache folio listed on a fake node
 * @test: the test case
 * @node: the fake node
 * @mapping: a mapping passed to lrutest_cache_track(); whether it is
 *	unevictable at the time does not matter
 * @index: its slot in @mapping, in folios of its size
 * @order: the folio's order
 *
 * The folio is added to @mapping without going through the real LRU
 * (__filemap_add_folio()), made uptodate and clean, and listed on @node as
 * lru_add() would list an evictable folio: PG_unevictable clear, whatever
 * @mapping says, as the folios of a mapping locked after they were added
 * are.  Only the page cache holds a reference, so reclaim can free it: the
 * pointer is good while the folio is in @mapping.
 */
struct folio *lrutest_cache_folio(struct kunit *test, struct lrutest_node *node,
				  struct address_space *mapping, pgoff_t index,
				  unsigned int order)
{
	struct folio *folio;
	int err;

	folio = folio_alloc(GFP_KERNEL, order);
	KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "order-%u folio", order);
	__folio_set_locked(folio);
	err = __filemap_add_folio(mapping, folio, index << order, GFP_KERNEL, NULL);
	if (err) {
		__folio_clear_locked(folio);
		folio_put(folio);
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "add folio %lu to page cache", index);
	}
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	lrutest_add(node, folio);
	folio_put(folio);
	return folio;
}

/*
 * The list @folio is threaded on in the real node's lruvec, found by walking
 * it under its lru_lock, or LRUTEST_NOT_LISTED.
 */
int lrutest_real_lru(struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec_lock_irq(folio);
	int lru = lrutest_find_folio(lruvec, folio);

	unlock_page_lruvec_irq(lruvec);
	return lru;
}

/**
 * lrutest_expect_unevictable - expect @folio on the unevictable "list"
 * @test: the test case
 * @listed: the list @folio was found threaded on by walking
 *	(lrutest_find_folio(), lrutest_real_lru())
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
