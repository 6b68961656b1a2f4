// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of check_move_unevictable_folios(), the way back from the
 * unevictable LRU that SHM_UNLOCK and the end of ramfs-like locking take:
 * each folio of the batch is scanned once, the evictable ones are rescued
 * to their LRU, the others stay, and an isolated folio is left alone.
 * Culling on the way in, by reclaim, is tested through the kernel's memcg
 * reclaim entry in reclaim_memcg_cull_test.c.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/vmstat.h>

#include "internal.h"	/* mm/internal.h, by -I in the Makefile */
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

KUNIT_DEFINE_ACTION_WRAPPER(lrutest_put_action, folio_put, struct folio *);

/*
 * check_move_unevictable_folios() on a batch of: folios of a mapping that
 * became evictable (rescued), one of a mapping still
 * unevictable (stays), one of the evictable mapping but isolated (off the
 * LRU: not touched), one already evictable on the file list (not moved).
 * PGSCANNED counts every page of the batch, PGRESCUED the rescued pages.
 * All order 0: UML has no large folios in the page cache (no XARRAY_MULTI).
 */
static void check_move_mixed_batch(struct kunit *test)
{
	struct folio *x0, *x2, *xiso, *y, *z;
	struct address_space *xm, *ym, *zm;
	long unevictable, file, scanned, rescued;
	struct folio_batch fbatch;
	struct vfsmount *mnt;
	int zlru;

	mnt = lrutest_mount(test, "ramfs");
	xm = lrutest_create(test, mnt, "x")->f_mapping;
	ym = lrutest_create(test, mnt, "y")->f_mapping;
	zm = lrutest_create(test, mnt, "z")->f_mapping;
	mapping_clear_unevictable(zm);

	x0 = filemap_grab_folio(xm, 0);
	xiso = filemap_grab_folio(xm, 1);
	y = filemap_grab_folio(ym, 0);
	z = filemap_grab_folio(zm, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x0) || IS_ERR(xiso) || IS_ERR(y) || IS_ERR(z));
	x2 = filemap_grab_folio(xm, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x2));
	folio_unlock(x0);
	folio_unlock(xiso);
	folio_unlock(y);
	folio_unlock(z);
	folio_unlock(x2);
	/* Our references go before the mappings are truncated. */
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_put_action, x0));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_put_action, xiso));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_put_action, y));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_put_action, z));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_put_action, x2));
	lru_add_drain();

	lrutest_expect_unevictable(test, lrutest_locate(x0), x0, "x added", 0);
	lrutest_expect_unevictable(test, lrutest_locate(x2), x2, "x added", 2);
	lrutest_expect_unevictable(test, lrutest_locate(y), y, "y added", 0);
	zlru = lrutest_locate(z);
	KUNIT_ASSERT_TRUE_MSG(test, zlru == LRU_INACTIVE_FILE || zlru == LRU_ACTIVE_FILE,
			      "z added: on list %d, not a file list", zlru);

	mapping_clear_unevictable(xm);
	lrutest_isolate(test, xiso);

	unevictable = lrutest_node_state(NR_UNEVICTABLE);
	file = lrutest_node_state(NR_INACTIVE_FILE) +
	       lrutest_node_state(NR_ACTIVE_FILE);
	scanned = lrutest_event(UNEVICTABLE_PGSCANNED);
	rescued = lrutest_event(UNEVICTABLE_PGRESCUED);

	folio_batch_init(&fbatch);
	folio_batch_add(&fbatch, x0);
	folio_batch_add(&fbatch, y);
	folio_batch_add(&fbatch, xiso);
	folio_batch_add(&fbatch, x2);
	folio_batch_add(&fbatch, z);
	check_move_unevictable_folios(&fbatch);

	KUNIT_EXPECT_EQ_MSG(test, (long)lrutest_event(UNEVICTABLE_PGSCANNED) - scanned, 5L,
			    "PGSCANNED: every page of the batch");
	KUNIT_EXPECT_EQ_MSG(test, (long)lrutest_event(UNEVICTABLE_PGRESCUED) - rescued, 2L,
			    "PGRESCUED: the pages of x0 and x2");
	KUNIT_EXPECT_EQ_MSG(test, (long)lrutest_node_state(NR_UNEVICTABLE) - unevictable,
			    -2L, "NR_UNEVICTABLE");
	KUNIT_EXPECT_EQ_MSG(test, (long)(lrutest_node_state(NR_INACTIVE_FILE) +
					 lrutest_node_state(NR_ACTIVE_FILE)) - file,
			    2L, "file LRU pages");

	KUNIT_EXPECT_FALSE(test, folio_test_unevictable(x0));
	KUNIT_EXPECT_FALSE(test, folio_test_unevictable(x2));
	KUNIT_EXPECT_TRUE(test, folio_test_lru(x0));
	KUNIT_EXPECT_TRUE(test, folio_test_lru(x2));
	if (lru_gen_enabled()) {
		KUNIT_EXPECT_TRUE_MSG(test, is_file_lru(lrutest_locate(x0)),
				      "x0 rescued to list %d", lrutest_locate(x0));
		KUNIT_EXPECT_TRUE_MSG(test, is_file_lru(lrutest_locate(x2)),
				      "x2 rescued to list %d", lrutest_locate(x2));
	} else {
		KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(x0), (int)LRU_INACTIVE_FILE,
				    "x0 rescued");
		KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(x2), (int)LRU_INACTIVE_FILE,
				    "x2 rescued");
	}
	lrutest_expect_unevictable(test, lrutest_locate(y), y, "y, mapping still locked", 0);
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_lru(xiso), "xiso (isolated) got PG_lru");
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_unevictable(xiso),
			      "xiso (isolated) was rescued");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(xiso), LRUTEST_NOT_LISTED,
			    "xiso (isolated) was listed");
	KUNIT_EXPECT_FALSE(test, folio_test_unevictable(z));
	KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(z), zlru, "z (evictable) moved");
}

static struct kunit_case check_move_cases[] = {
	KUNIT_CASE(check_move_mixed_batch),
	{}
};

static struct kunit_suite check_move_suite = {
	.name = "mm_check_move",
	.init = lrutest_init,
	.test_cases = check_move_cases,
};

kunit_test_suite(check_move_suite);

MODULE_DESCRIPTION("KUnit test of check_move_unevictable_folios()");
MODULE_LICENSE("GPL");
