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

#ifdef CONFIG_LRU_GEN
/*
 * "lrutest_lru_gen=VALUE" on the kernel command line writes VALUE to
 * /sys/kernel/mm/lru_gen/enabled ("y", "n" or a capability mask, see
 * Documentation/admin-guide/mm/multigen_lru.rst) before the tests run, so
 * one CONFIG_LRU_GEN=y kernel runs the suite on the classic LRU and on the
 * multi-gen LRU: built once, booted twice.
 */
static char *lrutest_lru_gen_arg;
core_param(lrutest_lru_gen, lrutest_lru_gen_arg, charp, 0);

/* late_initcall, after init_lru_gen() above; KUnit runs after all initcalls. */
static int __init lrutest_lru_gen_init(void)
{
	ssize_t ret;

	if (!lrutest_lru_gen_arg)
		return 0;
	ret = enabled_store(NULL, NULL, lrutest_lru_gen_arg,
			    strlen(lrutest_lru_gen_arg));
	/* A value the sysfs file refuses must not run the wrong LRU quietly. */
	WARN(ret < 0, "lrutest: lrutest_lru_gen=%s rejected (%zd)\n",
	     lrutest_lru_gen_arg, ret);
	pr_info("lrutest: multi-gen LRU %s\n",
		lru_gen_enabled() ? "enabled" : "disabled");
	return 0;
}
late_initcall(lrutest_lru_gen_init);
#endif
