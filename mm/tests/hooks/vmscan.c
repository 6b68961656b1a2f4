// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of mm/vmscan.c (CONFIG_MM_LRU_KUNIT_TEST)
 * to give the tests in mm/tests/ a way to reach its static functions.
 * Nothing here changes what vmscan.c does.
 */
#include "../lrutest.h"

bool lrutest_inactive_is_low(struct lruvec *lruvec, enum lru_list inactive_lru)
{
	return inactive_is_low(lruvec, inactive_lru);
}

#include "../lrutest_reclaim.h"

/*
 * One bounded step of file reclaim on @lruvec, through the static entry
 * point that each configuration's reclaim uses: shrink_inactive_list() of
 * one folio from LRU_INACTIVE_FILE (classic), or evict_folios() with
 * swappiness 0, i.e. one batch from the oldest file generation (MGLRU).
 */
static void lrutest_reclaim_step(struct lruvec *lruvec, struct scan_control *sc)
{
#ifdef CONFIG_LRU_GEN
	if (lru_gen_enabled()) {
		evict_folios(lruvec, sc, 0);
		return;
	}
#endif
	sc->nr_reclaimed += shrink_inactive_list(1, lruvec, sc, LRU_INACTIVE_FILE);
}

/**
 * lrutest_reclaim_file - reclaim clean file folios from @lruvec
 * @lruvec: the lruvec (a fake node's)
 * @nr_to_reclaim: stop once this many pages are reclaimed
 * @max_calls: and after at most this many reclaim steps (a bound)
 * @res: what was scanned and reclaimed
 *
 * @res->scanned is sc->nr_scanned: the pages shrink_folio_list() looked at,
 * which is what a scan costs, whichever LRU the folios came from.
 */
void lrutest_reclaim_file(struct lruvec *lruvec, unsigned long nr_to_reclaim,
			  unsigned int max_calls, struct lrutest_scan *res)
{
	struct scan_control sc = {
		.nr_to_reclaim = nr_to_reclaim,
		.gfp_mask = GFP_KERNEL,
		.reclaim_idx = MAX_NR_ZONES - 1,
		.priority = DEF_PRIORITY,
		.may_unmap = 1,
	};

	res->calls = 0;
	set_task_reclaim_state(current, &sc.reclaim_state);
	while (sc.nr_reclaimed < nr_to_reclaim && res->calls < max_calls) {
		res->calls++;
		lrutest_reclaim_step(lruvec, &sc);
	}
	set_task_reclaim_state(current, NULL);
	res->scanned = sc.nr_scanned;
	res->reclaimed = sc.nr_reclaimed;
}
