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
