// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of ipc/shm.c (CONFIG_MM_LRU_KUNIT_TEST)
 * so that the tests in mm/tests/ can call shmctl() from a kernel thread on
 * every architecture: ksys_shmctl() is static, and sys_shmctl() is an
 * ordinary function only where there are no syscall wrappers (UML).
 * Nothing here changes what shm.c does.
 */
#include "../lrutest_reclaim.h"

long lrutest_shmctl(int shmid, int cmd, struct shmid_ds __user *buf)
{
	return ksys_shmctl(shmid, cmd, buf, IPC_64);
}
