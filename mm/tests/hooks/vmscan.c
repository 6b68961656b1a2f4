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
