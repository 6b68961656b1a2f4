// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of reclaim culling: a reclaim scan that meets unevictable
 * folios on an evictable list moves each of them, once, to the unevictable
 * LRU (UNEVICTABLE_PGCULLED), so that later scans do not pay for them; and
 * check_move_unevictable_folios(), the way back.
 *
 * The scans run on a fake node (lrutest.h) holding clean page cache folios
 * of files in a ramfs mounted by the test: the evictable ones are reclaimed
 * for real (__remove_mapping()), the others belong to a mapping made
 * unevictable after they were listed, as SHM_LOCK does.  Culled folios go
 * back through folio_putback_lru(), which lists them on the node they
 * belong to, the real one: that is where they are looked for.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/pagemap.h>
#include <linux/pagevec.h>
#include <linux/swap.h>
#include <linux/vmstat.h>

#include "internal.h"	/* mm/internal.h, by -I in the Makefile */
#include "lrutest_reclaim.h"

KUNIT_DEFINE_ACTION_WRAPPER(lrutest_put_action, folio_put, struct folio *);
KUNIT_DEFINE_ACTION_WRAPPER(lrutest_putback_action, folio_putback_lru, struct folio *);

/* Folios are order 0 here: pages and folios count the same. */
struct cull_setup {
	struct lrutest_node *node;
	struct address_space *evictable;
	struct address_space *locked;
	struct folio **locked_folios;
	unsigned long n, m;
};

/*
 * On a new fake node: @m folios of a file whose mapping is then made
 * unevictable, at the tail (scanned first), and @n evictable folios of
 * another file in front of them.
 */
static void cull_setup(struct kunit *test, struct vfsmount *mnt, int id,
		       unsigned long n, unsigned long m, struct cull_setup *s)
{
	char name[32];
	struct file *file;
	unsigned long i;

	if (IS_ENABLED(CONFIG_DEBUG_VM))
		kunit_skip(test,
			   "move_folios_to_lru() VM_BUG_ONs that each folio matches the lruvec it was isolated from: a fake node's never does");
	s->node = lrutest_node_create(test);
	lrutest_node_prepare_reclaim(s->node);
	s->n = n;
	s->m = m;
	s->locked_folios = kunit_kcalloc(test, m ?: 1, sizeof(*s->locked_folios),
					 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->locked_folios);

	snprintf(name, sizeof(name), "locked%d", id);
	file = lrutest_create(test, mnt, name);
	s->locked = file->f_mapping;
	snprintf(name, sizeof(name), "evictable%d", id);
	file = lrutest_create(test, mnt, name);
	s->evictable = file->f_mapping;
	/* ramfs mappings start unevictable: these become so later, or never. */
	mapping_clear_unevictable(s->locked);
	mapping_clear_unevictable(s->evictable);
	lrutest_cache_track(test, s->node, s->locked);
	lrutest_cache_track(test, s->node, s->evictable);

	for (i = 0; i < m; i++)
		s->locked_folios[i] = lrutest_cache_folio(test, s->node, s->locked, i, 0);
	for (i = 0; i < n; i++)
		lrutest_cache_folio(test, s->node, s->evictable, i, 0);
	mapping_set_unevictable(s->locked);

	KUNIT_ASSERT_EQ_MSG(test, lrutest_walk_pages(s->node->lruvec, LRU_INACTIVE_FILE) +
			    lrutest_walk_pages(s->node->lruvec, LRU_ACTIVE_FILE), n + m,
			    "set up: file folios listed on the fake node");
}

static unsigned long file_pages(struct lrutest_node *node)
{
	return lrutest_node_pages(node, LRU_INACTIVE_FILE) +
	       lrutest_node_pages(node, LRU_ACTIVE_FILE);
}

/*
 * A scan that meets unevictable folios culls each of them, once: counted in
 * UNEVICTABLE_PGCULLED, off the evictable lists, PG_unevictable and on the
 * (real node's) unevictable LRU.  A second scan does not see them again: it
 * scans exactly what it reclaims.
 */
static void reclaim_culls_unevictable_once(struct kunit *test)
{
	/* More than one MGLRU batch (MIN_LRU_BATCH) so a second scan has work. */
	const unsigned long n = 72, m = 8;
	unsigned long culled, unevictable, i;
	struct lrutest_scan first, second;
	struct vfsmount *mnt;
	struct cull_setup s;

	mnt = lrutest_mount(test, "ramfs");
	cull_setup(test, mnt, 0, n, m, &s);

	lru_add_drain();
	culled = lrutest_event(UNEVICTABLE_PGCULLED);
	unevictable = lrutest_node_state(NR_UNEVICTABLE);

	lrutest_reclaim_file(s.node->lruvec, 1, n + m, &first);
	lru_add_drain();
	kunit_info(test, "first scan: scanned %lu, reclaimed %lu in %u steps\n",
		   first.scanned, first.reclaimed, first.calls);

	KUNIT_EXPECT_GE_MSG(test, first.reclaimed, 1UL, "first scan reclaimed nothing");
	KUNIT_EXPECT_EQ_MSG(test, first.scanned, m + first.reclaimed,
			    "first scan: scanned = culled + reclaimed");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_event(UNEVICTABLE_PGCULLED) - culled, m,
			    "PGCULLED after the first scan");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_node_state(NR_UNEVICTABLE) - unevictable, m,
			    "NR_UNEVICTABLE after the first scan");
	KUNIT_EXPECT_EQ_MSG(test, file_pages(s.node), n - first.reclaimed,
			    "fake node file pages after the first scan");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_walk_pages(s.node->lruvec, LRU_INACTIVE_FILE) +
			    lrutest_walk_pages(s.node->lruvec, LRU_ACTIVE_FILE),
			    n - first.reclaimed, "fake node file pages walked");
	for (i = 0; i < m; i++) {
		struct folio *folio = s.locked_folios[i];

		KUNIT_EXPECT_EQ_MSG(test, lrutest_find_folio(s.node->lruvec, folio),
				    LRUTEST_NOT_LISTED,
				    "locked folio %lu still on the fake node", i);
		lrutest_expect_unevictable(test, lrutest_real_lru(folio), folio,
					   "locked, after the first scan", i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, folio->mapping, s.locked,
					"locked folio %lu left its mapping", i);
	}

	lrutest_reclaim_file(s.node->lruvec, n - first.reclaimed, n + m, &second);
	lru_add_drain();
	kunit_info(test, "second scan: scanned %lu, reclaimed %lu in %u steps\n",
		   second.scanned, second.reclaimed, second.calls);

	KUNIT_EXPECT_EQ_MSG(test, second.reclaimed, n - first.reclaimed,
			    "second scan reclaims the rest");
	KUNIT_EXPECT_EQ_MSG(test, second.scanned, second.reclaimed,
			    "second scan saw culled folios again");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_event(UNEVICTABLE_PGCULLED) - culled, m,
			    "PGCULLED after the second scan (culled twice?)");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_node_state(NR_UNEVICTABLE) - unevictable, m,
			    "NR_UNEVICTABLE after the second scan");
	KUNIT_EXPECT_EQ_MSG(test, file_pages(s.node), 0UL, "fake node file pages at the end");
	KUNIT_EXPECT_EQ_MSG(test, s.evictable->nrpages, 0UL, "evictable file pages left");
	KUNIT_EXPECT_EQ_MSG(test, s.locked->nrpages, m, "locked file pages left");
	for (i = 0; i < m; i++)
		lrutest_expect_unevictable(test, lrutest_real_lru(s.locked_folios[i]),
					   s.locked_folios[i],
					   "locked, after the second scan", i);
}

/*
 * The cost of reclaim: with N evictable and M unevictable folios, the first
 * scan culls the M (and pays for them once); after that, reclaiming K costs
 * the same for M = 0, 10 N and 100 N.
 */
static void reclaim_scan_cost_independent_of_culled(struct kunit *test)
{
	const unsigned long n = 128, k = 32;
	const unsigned long ms[] = { 0, 10 * n, 100 * n };
	struct lrutest_scan cull[ARRAY_SIZE(ms)], next[ARRAY_SIZE(ms)];
	struct vfsmount *mnt;
	unsigned int j;

	mnt = lrutest_mount(test, "ramfs");
	for (j = 0; j < ARRAY_SIZE(ms); j++) {
		unsigned long m = ms[j], culled;
		struct cull_setup s;

		cull_setup(test, mnt, j, n, m, &s);
		lru_add_drain();
		culled = lrutest_event(UNEVICTABLE_PGCULLED);

		lrutest_reclaim_file(s.node->lruvec, k, n + m + 8, &cull[j]);
		lru_add_drain();
		KUNIT_EXPECT_EQ_MSG(test, lrutest_event(UNEVICTABLE_PGCULLED) - culled, m,
				    "M=%lu: PGCULLED of the first reclaim", m);
		KUNIT_EXPECT_EQ_MSG(test, cull[j].scanned, m + cull[j].reclaimed,
				    "M=%lu: first reclaim scanned = culled + reclaimed", m);
		KUNIT_EXPECT_GE_MSG(test, cull[j].reclaimed, k,
				    "M=%lu: first reclaim", m);

		culled = lrutest_event(UNEVICTABLE_PGCULLED);
		lrutest_reclaim_file(s.node->lruvec, k, n + m + 8, &next[j]);
		lru_add_drain();
		KUNIT_EXPECT_EQ_MSG(test, lrutest_event(UNEVICTABLE_PGCULLED) - culled, 0UL,
				    "M=%lu: PGCULLED of the second reclaim", m);
		KUNIT_EXPECT_GE_MSG(test, next[j].reclaimed, k, "M=%lu: second reclaim", m);
		KUNIT_EXPECT_EQ_MSG(test, next[j].scanned, next[j].reclaimed,
				    "M=%lu: second reclaim scanned more than it reclaimed", m);
		if (!lru_gen_enabled())
			KUNIT_EXPECT_EQ_MSG(test, next[j].scanned, k,
					    "M=%lu: classic reclaim of K folios, one at a time", m);

		kunit_info(test,
			   "N=%lu K=%lu M=%lu: culling reclaim scanned %lu (reclaimed %lu); next reclaim scanned %lu (reclaimed %lu)\n",
			   n, k, m, cull[j].scanned, cull[j].reclaimed,
			   next[j].scanned, next[j].reclaimed);
	}
	for (j = 1; j < ARRAY_SIZE(ms); j++) {
		KUNIT_EXPECT_EQ_MSG(test, next[j].scanned, next[0].scanned,
				    "scanned to reclaim K with M=%lu vs M=0", ms[j]);
		KUNIT_EXPECT_EQ_MSG(test, next[j].reclaimed, next[0].reclaimed,
				    "reclaimed with M=%lu vs M=0", ms[j]);
	}
}

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

	lrutest_expect_unevictable(test, lrutest_real_lru(x0), x0, "x added", 0);
	lrutest_expect_unevictable(test, lrutest_real_lru(x2), x2, "x added", 2);
	lrutest_expect_unevictable(test, lrutest_real_lru(y), y, "y added", 0);
	zlru = lrutest_real_lru(z);
	KUNIT_ASSERT_TRUE_MSG(test, zlru == LRU_INACTIVE_FILE || zlru == LRU_ACTIVE_FILE,
			      "z added: on list %d, not a file list", zlru);

	mapping_clear_unevictable(xm);
	KUNIT_ASSERT_TRUE(test, folio_isolate_lru(xiso));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_putback_action, xiso));

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
		KUNIT_EXPECT_TRUE_MSG(test, is_file_lru(lrutest_real_lru(x0)),
				      "x0 rescued to list %d", lrutest_real_lru(x0));
		KUNIT_EXPECT_TRUE_MSG(test, is_file_lru(lrutest_real_lru(x2)),
				      "x2 rescued to list %d", lrutest_real_lru(x2));
	} else {
		KUNIT_EXPECT_EQ_MSG(test, lrutest_real_lru(x0), (int)LRU_INACTIVE_FILE,
				    "x0 rescued");
		KUNIT_EXPECT_EQ_MSG(test, lrutest_real_lru(x2), (int)LRU_INACTIVE_FILE,
				    "x2 rescued");
	}
	lrutest_expect_unevictable(test, lrutest_real_lru(y), y, "y, mapping still locked", 0);
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_lru(xiso), "xiso (isolated) got PG_lru");
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_unevictable(xiso),
			      "xiso (isolated) was rescued");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_real_lru(xiso), LRUTEST_NOT_LISTED,
			    "xiso (isolated) was listed");
	KUNIT_EXPECT_FALSE(test, folio_test_unevictable(z));
	KUNIT_EXPECT_EQ_MSG(test, lrutest_real_lru(z), zlru, "z (evictable) moved");
}

static struct kunit_case reclaim_cull_cases[] = {
	KUNIT_CASE(reclaim_culls_unevictable_once),
	KUNIT_CASE(reclaim_scan_cost_independent_of_culled),
	KUNIT_CASE(check_move_mixed_batch),
	{}
};

static struct kunit_suite reclaim_cull_suite = {
	.name = "mm_reclaim_cull",
	.init = lrutest_init,
	.test_cases = reclaim_cull_cases,
};

kunit_test_suite(reclaim_cull_suite);

MODULE_DESCRIPTION("KUnit tests of reclaim culling and check_move_unevictable_folios()");
MODULE_LICENSE("GPL");
