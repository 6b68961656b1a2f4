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
 * The batch, in the order check_move_unevictable_folios() meets it: folios
 * of a mapping that became evictable (x0, x2: rescued), one of a mapping
 * still unevictable (y: stays), one of the evictable mapping but isolated
 * (xiso: off the LRU, not touched), one already evictable on the file list
 * (z: not moved).  All order 0: UML has no large folios in the page cache
 * (no XARRAY_MULTI).
 */
enum { CM_X0, CM_Y, CM_XISO, CM_X2, CM_Z, CM_NR };

static const char *const cm_names[CM_NR] = { "x0", "y", "xiso", "x2", "z" };

struct cm_batch {
	struct folio *folio[CM_NR];
	int before[CM_NR];		/* lrutest_locate() of each, once listed */
	struct folio_batch fbatch;
};

/* A new page-cache folio of @mapping at @index, unlocked. */
static struct folio *cm_grab(struct kunit *test, struct address_space *mapping,
			     pgoff_t index)
{
	struct folio *folio = filemap_grab_folio(mapping, index);

	KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
	folio_unlock(folio);
	/* Our reference goes before the mapping is truncated. */
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_put_action, folio));
	return folio;
}

/*
 * The batch, ready for check_move_unevictable_folios(): ramfs files x, y
 * and z, whose folios lru_add() culls as it lists them (a ramfs mapping is
 * unevictable) but z's, whose mapping was made evictable first; then x's
 * mapping made evictable too, and xiso isolated.
 */
static struct cm_batch *cm_batch(struct kunit *test)
{
	struct address_space *xm, *ym, *zm;
	struct vfsmount *mnt;
	struct cm_batch *b;
	int i;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	mnt = lrutest_mount(test, "ramfs");
	xm = lrutest_create(test, mnt, "x")->f_mapping;
	ym = lrutest_create(test, mnt, "y")->f_mapping;
	zm = lrutest_create(test, mnt, "z")->f_mapping;
	mapping_clear_unevictable(zm);
	b->folio[CM_X0] = cm_grab(test, xm, 0);
	b->folio[CM_XISO] = cm_grab(test, xm, 1);
	b->folio[CM_Y] = cm_grab(test, ym, 0);
	b->folio[CM_Z] = cm_grab(test, zm, 0);
	b->folio[CM_X2] = cm_grab(test, xm, 2);
	lru_add_drain();

	for (i = 0; i < CM_NR; i++)
		b->before[i] = lrutest_locate(b->folio[i]);
	lrutest_expect_unevictable(test, b->before[CM_X0], b->folio[CM_X0], "x added", 0);
	lrutest_expect_unevictable(test, b->before[CM_X2], b->folio[CM_X2], "x added", 2);
	lrutest_expect_unevictable(test, b->before[CM_Y], b->folio[CM_Y], "y added", 0);
	KUNIT_ASSERT_TRUE_MSG(test, b->before[CM_Z] == LRU_INACTIVE_FILE ||
			      b->before[CM_Z] == LRU_ACTIVE_FILE,
			      "z added: on list %d, not a file list", b->before[CM_Z]);

	mapping_clear_unevictable(xm);
	lrutest_isolate(test, b->folio[CM_XISO]);
	folio_batch_init(&b->fbatch);
	for (i = 0; i < CM_NR; i++)
		folio_batch_add(&b->fbatch, b->folio[i]);
	return b;
}

/* Where check_move_unevictable_folios() leaves a folio of a kind. */
enum cm_list {
	CM_FILE_LIST,	/* the inactive file list; a file generation on the multi-gen LRU */
	CM_UNLISTED,	/* threaded on no evictable list */
	CM_UNMOVED,	/* the list it was on before */
};

struct check_move_row {
	const char *desc;
	unsigned long folios;	/* BIT() of each folio of the kind */
	bool lru;		/* PG_lru after */
	bool unevictable;	/* PG_unevictable after */
	enum cm_list list;
};

static const struct check_move_row check_move_rows[] = {
	{ "mapping made evictable: rescued", BIT(CM_X0) | BIT(CM_X2), true, false, CM_FILE_LIST },
	{ "mapping still locked: stays", BIT(CM_Y), true, true, CM_UNLISTED },
	{ "isolated: left alone", BIT(CM_XISO), false, true, CM_UNLISTED },
	{ "already evictable: not moved", BIT(CM_Z), true, false, CM_UNMOVED },
};

KUNIT_ARRAY_PARAM_DESC(check_move, check_move_rows, desc);

/* Folio @i of the batch after check_move_unevictable_folios(), as @row says. */
static void cm_expect(struct kunit *test, const struct cm_batch *b,
		      const struct check_move_row *row, int i)
{
	struct folio *folio = b->folio[i];
	int lru = lrutest_locate(folio);

	KUNIT_EXPECT_EQ_MSG(test, folio_test_lru(folio), row->lru, "%s: PG_lru", cm_names[i]);
	KUNIT_EXPECT_EQ_MSG(test, folio_test_unevictable(folio), row->unevictable,
			    "%s: PG_unevictable", cm_names[i]);
	if (row->list == CM_UNMOVED)
		KUNIT_EXPECT_EQ_MSG(test, lru, b->before[i], "%s moved", cm_names[i]);
	else if (row->list == CM_UNLISTED)
		KUNIT_EXPECT_EQ_MSG(test, lru, LRUTEST_NOT_LISTED, "%s listed", cm_names[i]);
	else if (lru_gen_enabled())
		KUNIT_EXPECT_TRUE_MSG(test, is_file_lru(lru), "%s rescued to list %d",
				      cm_names[i], lru);
	else
		KUNIT_EXPECT_EQ_MSG(test, lru, (int)LRU_INACTIVE_FILE, "%s rescued", cm_names[i]);
}

/*
 * check_move_unevictable_folios() takes each folio of the batch that is on
 * the LRU (folio_test_clear_lru(): an isolated one is skipped) and moves
 * it only if it is unevictable and folio_evictable() now, through
 * lruvec_del_folio() and lruvec_add_folio(), to its inactive list; every
 * other folio stays where it is.  One row for each kind in the batch.
 */
static void check_move_rescues_only_listed_evictable_folios(struct kunit *test)
{
	const struct check_move_row *row = test->param_value;
	struct cm_batch *b = cm_batch(test);
	int i;

	check_move_unevictable_folios(&b->fbatch);
	for (i = 0; i < CM_NR; i++)
		if (row->folios & BIT(i))
			cm_expect(test, b, row, i);
}

/*
 * PGSCANNED counts every page of the batch, PGRESCUED the rescued pages;
 * NR_UNEVICTABLE and the file LRU move by the rescued pages.
 */
static void check_move_counts_pages_scanned_and_rescued(struct kunit *test)
{
	struct cm_batch *b = cm_batch(test);
	long unevictable, file, scanned, rescued;

	unevictable = lrutest_node_state(NR_UNEVICTABLE);
	file = lrutest_node_state(NR_INACTIVE_FILE) +
	       lrutest_node_state(NR_ACTIVE_FILE);
	scanned = lrutest_event(UNEVICTABLE_PGSCANNED);
	rescued = lrutest_event(UNEVICTABLE_PGRESCUED);

	check_move_unevictable_folios(&b->fbatch);

	KUNIT_EXPECT_EQ_MSG(test, (long)lrutest_event(UNEVICTABLE_PGSCANNED) - scanned, 5L,
			    "PGSCANNED: every page of the batch");
	KUNIT_EXPECT_EQ_MSG(test, (long)lrutest_event(UNEVICTABLE_PGRESCUED) - rescued, 2L,
			    "PGRESCUED: the pages of x0 and x2");
	KUNIT_EXPECT_EQ_MSG(test, (long)lrutest_node_state(NR_UNEVICTABLE) - unevictable,
			    -2L, "NR_UNEVICTABLE");
	KUNIT_EXPECT_EQ_MSG(test, (long)(lrutest_node_state(NR_INACTIVE_FILE) +
					 lrutest_node_state(NR_ACTIVE_FILE)) - file,
			    2L, "file LRU pages");
}

static struct kunit_case check_move_cases[] = {
	KUNIT_CASE_PARAM(check_move_rescues_only_listed_evictable_folios,
			 check_move_gen_params),
	KUNIT_CASE(check_move_counts_pages_scanned_and_rescued),
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
