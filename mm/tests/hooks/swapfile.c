// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of mm/swapfile.c (CONFIG_MM_LRU_KUNIT_TEST)
 * so that the reclaim tests can switch a swap device on and off through the
 * syscall bodies, which are static (__do_sys_*) whatever the architecture's
 * syscall wrappers.  Nothing here changes what swapfile.c does.
 */
#include "../lrutest_memcg.h"

long lrutest_swapon(const char __user *path, int flags)
{
	return __do_sys_swapon(path, flags);
}

long lrutest_swapoff(const char __user *path)
{
	return __do_sys_swapoff(path);
}
