// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of mm/mprotect.c
 * (CONFIG_MM_LRU_KUNIT_TEST) to reach the static mprotect() body.
 */
#include "../lrutest_mlock.h"

long lrutest_mprotect(unsigned long start, size_t len, unsigned long prot)
{
	return do_mprotect_pkey(start, len, prot, -1);
}
