// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of mm/mremap.c
 * (CONFIG_MM_LRU_KUNIT_TEST) to reach the static mremap() body.
 */
#include "../lrutest_mlock.h"

long lrutest_mremap(unsigned long addr, unsigned long old_len,
		    unsigned long new_len, unsigned long flags,
		    unsigned long new_addr)
{
	return __do_sys_mremap(addr, old_len, new_len, flags, new_addr);
}
