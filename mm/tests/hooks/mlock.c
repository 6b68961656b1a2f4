// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of mm/mlock.c (CONFIG_MM_LRU_KUNIT_TEST)
 * so that the tests in mm/tests/ can call the syscall bodies, which are
 * static (__do_sys_*) whatever the architecture's syscall wrappers.
 * Nothing here changes what mlock.c does.
 */
#include "../lrutest_mlock.h"

long lrutest_mlock(unsigned long start, size_t len)
{
	return __do_sys_mlock(start, len);
}

long lrutest_mlock2(unsigned long start, size_t len, int flags)
{
	return __do_sys_mlock2(start, len, flags);
}

long lrutest_munlock(unsigned long start, size_t len)
{
	return __do_sys_munlock(start, len);
}

long lrutest_mlockall(int flags)
{
	return __do_sys_mlockall(flags);
}

long lrutest_munlockall(void)
{
#ifdef CONFIG_ARCH_HAS_SYSCALL_WRAPPER
	/*
	 * SYSCALL_DEFINE0 has no common static body on these architectures:
	 * do what the munlockall() body does.
	 */
	int ret;

	if (mmap_write_lock_killable(current->mm))
		return -EINTR;
	ret = apply_mlockall_flags(0);
	mmap_write_unlock(current->mm);
	return ret;
#else
	return sys_munlockall();
#endif
}
