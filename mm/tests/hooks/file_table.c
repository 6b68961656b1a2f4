// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of fs/file_table.c
 * (CONFIG_MM_LRU_KUNIT_TEST).  A kthread's last fput() is deferred to
 * delayed_fput_list and delayed_fput_work.  In 6.12 flush_delayed_fput()
 * runs only what is still on the list: what the work item already took,
 * on another CPU, may still be in __fput() when it returns, so a segment
 * or file the test let go of could be freed inside the next counter
 * snapshot.  This waits for that work too.  Nothing here changes what
 * file_table.c does.
 */
#include "../lrutest_reclaim.h"

void lrutest_wait_delayed_fput(void)
{
	flush_delayed_fput();
	flush_delayed_work(&delayed_fput_work);
}
