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
#include <linux/user_namespace.h>

#include "lrutest_compat.h"
#include "lrutest_mlock.h"

struct lrutest_cred {
	struct task_struct *task;
	const struct cred *old;
	struct rlimit memlock;
};

/* RLIMIT_MEMLOCK of the test kthread (its own signal_struct), soft and hard. */
static void lrutest_set_memlock(struct rlimit lim)
{
	task_lock(current->group_leader);
	current->signal->rlim[RLIMIT_MEMLOCK] = lim;
	task_unlock(current->group_leader);
}

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
	lrutest_set_memlock(c->memlock);
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
	lrutest_set_memlock((struct rlimit){ pages * PAGE_SIZE, pages * PAGE_SIZE });
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

#ifdef CONFIG_USER_NS
/**
 * lrutest_userns_locker - become a locker in a new child user namespace
 * @test: the test case
 * @ns_max: RLIMIT_MEMLOCK of the creator, in bytes, which create_user_ns()
 *	keeps as the child namespace's memlock max (set_userns_rlimit_max())
 * @rlimit: RLIMIT_MEMLOCK once inside, in bytes, or RLIM_INFINITY
 *
 * The new credentials (same uid, capabilities in the child namespace only,
 * so no CAP_IPC_LOCK in the initial one) charge the child namespace's
 * ucounts, whose parent level is the caller's: inc_rlimit_ucounts() checks
 * the parent level's count against the max kept in the child namespace
 * (compared as a page count for memlock, though kept in bytes).  Undone by
 * lrutest_restore_ipc_lock() or when the case ends.
 */
struct lrutest_cred *lrutest_userns_locker(struct kunit *test, unsigned long ns_max,
					   unsigned long rlimit)
{
	struct lrutest_cred *c;
	struct fs_struct *fs;
	struct cred *new;
	int err;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->task = current;
	c->memlock = current->signal->rlim[RLIMIT_MEMLOCK];
	new = prepare_creds();
	KUNIT_ASSERT_NOT_NULL_MSG(test, new, "prepare_creds()");
	lrutest_set_memlock((struct rlimit){ ns_max, ns_max });
	/* create_user_ns() refuses a chrooted caller: look from init's root. */
	fs = lrutest_init_fs_begin();
	err = create_user_ns(new);
	lrutest_init_fs_end(fs);
	if (!err)
		err = set_cred_ucounts(new);
	lrutest_set_memlock(c->memlock);
	if (err) {
		abort_creds(new);
		KUNIT_FAIL_AND_ABORT(test, "a child user namespace: %d", err);
	}
	c->old = lrutest_override_creds(new);
	lrutest_set_memlock((struct rlimit){ rlimit, rlimit });
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_cred_restore, c));
	KUNIT_ASSERT_FALSE_MSG(test, capable(CAP_IPC_LOCK),
			       "CAP_IPC_LOCK in the initial namespace");
	return c;
}
#endif
