// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest credentials: run part of a case as an unprivileged locker, with
 * CAP_IPC_LOCK dropped and RLIMIT_MEMLOCK at a chosen size, as mlock()
 * (can_do_mlock(), mlock_future_ok()) and SHM_LOCK (user_shm_lock()) see
 * it.  One helper for both; restored by a KUnit action whatever happens.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>

#include "lrutest_compat.h"
#include "lrutest_mlock.h"

struct lrutest_cred {
	struct task_struct *task;
	const struct cred *old;
	struct rlimit memlock;
};

/*
 * Called through lrutest_restore_ipc_lock() from the test thread; if the
 * case failed, it runs in KUnit's cleanup thread instead, after the test
 * thread (whose creds and signal_struct, private to a kthread, went with
 * it) exited: then only the reference to the old creds is left to drop.
 */
static void lrutest_cred_restore(void *data)
{
	struct lrutest_cred *c = data;

	if (current != c->task) {
		put_cred(c->old);
		return;
	}
	task_lock(current->group_leader);
	current->signal->rlim[RLIMIT_MEMLOCK] = c->memlock;
	task_unlock(current->group_leader);
	lrutest_revert_creds(c->old);
}

/**
 * lrutest_drop_ipc_lock - become a locker without CAP_IPC_LOCK
 * @test: the test case
 * @pages: RLIMIT_MEMLOCK (soft and hard) in pages
 *
 * A failure to make the credentials fails the case here (an ASSERT), never
 * as an error code of the call under test.  Undone by
 * lrutest_restore_ipc_lock() or when the case ends.
 */
struct lrutest_cred *lrutest_drop_ipc_lock(struct kunit *test, unsigned long pages)
{
	struct lrutest_cred *c;
	struct cred *new;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	new = prepare_creds();
	KUNIT_ASSERT_NOT_NULL_MSG(test, new, "prepare_creds()");
	cap_lower(new->cap_effective, CAP_IPC_LOCK);
	c->task = current;
	c->memlock = current->signal->rlim[RLIMIT_MEMLOCK];
	c->old = lrutest_override_creds(new);
	task_lock(current->group_leader);
	current->signal->rlim[RLIMIT_MEMLOCK].rlim_cur = pages * PAGE_SIZE;
	current->signal->rlim[RLIMIT_MEMLOCK].rlim_max = pages * PAGE_SIZE;
	task_unlock(current->group_leader);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_cred_restore, c));
	KUNIT_ASSERT_FALSE_MSG(test, capable(CAP_IPC_LOCK),
			       "CAP_IPC_LOCK still effective");
	return c;
}

/* Back to the credentials and RLIMIT_MEMLOCK from before @c. */
void lrutest_restore_ipc_lock(struct kunit *test, struct lrutest_cred *c)
{
	kunit_release_action(test, lrutest_cred_restore, c);
}
