// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of mm/mmap.c (CONFIG_MM_LRU_KUNIT_TEST)
 * to reach the static brk() body.
 */
#include "../lrutest_mlock.h"

long lrutest_brk(unsigned long brk)
{
	return __do_sys_brk(brk);
}
