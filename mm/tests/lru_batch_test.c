// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the contract of the per-CPU lru_add batch, checked where
 * the kernel says it holds, with no drain by the test in between:
 * folio_add_lru() of a small folio leaves it in this CPU's batch (off every
 * list, PG_lru clear, the batch holding a reference) until lru_add_drain()
 * moves it; a large folio (folio_may_be_lru_cached() false) and any folio
 * while lru_cache_disable() is in force go to their list at once.  The
 * folios are the test's own, on the machine's LRU.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/swap.h>
#include <linux/workqueue.h>

#include "lrutest.h"
#include "internal.h"	/* mlock_folio(), munlock_folio(): mm/ by -I */
#include "lrutest_mlock.h"

struct batch_row {
	const char *desc;
	unsigned int order;
	bool batched;		/* expected: waits in the batch until the drain */
};

static const struct batch_row batch_rows[] = {
	{ "order 0: batched", 0, true },
	{ "order 2: listed at once", 2, false },
};

KUNIT_ARRAY_PARAM_DESC(batch, batch_rows, desc);

/*
 * Listed (walked) and PG_lru, or neither.  A new anon folio goes to the
 * inactive anon list, or, with the multi-gen LRU, to the second youngest
 * generation (lru_gen_add_folio(): not from the swap cache), which counts
 * as active.
 */
static void expect_listed(struct kunit *test, struct folio *folio, bool listed,
			  const char *step)
{
	int lru = lru_gen_enabled() ? LRU_ACTIVE_ANON : LRU_INACTIVE_ANON;

	KUNIT_EXPECT_EQ_MSG(test, folio_test_lru(folio), listed, "%s: PG_lru", step);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folio), listed ? lru : LRUTEST_NOT_LISTED,
			    "%s: the list it is threaded on", step);
}

/*
 * folio_add_lru(), then the state right after the call, then after
 * lru_add_drain(): the batch holds one reference while it holds the folio,
 * the list none.
 */
static void folio_add_lru_batches_small_folios_until_the_drain(struct kunit *test)
{
	const struct batch_row *row = test->param_value;
	struct folio *folio;
	int refs;

	lru_add_drain();
	folio = lrutest_real_folio(test, row->order, LRUTEST_ANON, false);
	refs = folio_ref_count(folio);

	folio_add_lru(folio);
	expect_listed(test, folio, !row->batched, "right after folio_add_lru()");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs + (row->batched ? 1 : 0),
			    "references right after folio_add_lru()");

	lru_add_drain();
	expect_listed(test, folio, true, "after lru_add_drain()");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs,
			    "references after lru_add_drain()");
}

static void lrutest_lru_cache_enable(void *unused)
{
	lru_cache_enable();
}

/* With the LRU cache disabled nothing is batched: listed at once. */
static void folio_add_lru_lists_at_once_while_lru_cache_disabled(struct kunit *test)
{
	struct folio *folio;
	int refs;

	folio = lrutest_real_folio(test, 0, LRUTEST_ANON, false);
	refs = folio_ref_count(folio);
	lru_cache_disable();
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_lru_cache_enable, NULL));

	folio_add_lru(folio);
	expect_listed(test, folio, true, "right after folio_add_lru(), LRU cache disabled");
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), refs);
}

static long lrutest_add_lru_here(void *folio)
{
	folio_add_lru(folio);
	return 0;
}

/*
 * folio_add_lru() on another CPU (work_on_cpu()) leaves the folio in that
 * CPU's batch: lru_add_drain() drains this CPU's batches only and does not
 * move it; lru_add_drain_all() queues the drain on every online CPU whose
 * batches hold folios and waits for it, and does.
 */
static void folio_added_on_another_cpu_waits_for_lru_add_drain_all(struct kunit *test)
{
	int there = lrutest_other_cpu(test);
	struct folio *folio;
	int refs;

	lru_add_drain_all();
	folio = lrutest_real_folio(test, 0, LRUTEST_ANON, false);
	refs = folio_ref_count(folio);

	KUNIT_ASSERT_EQ(test, work_on_cpu(there, lrutest_add_lru_here, folio), 0L);
	expect_listed(test, folio, false, "right after folio_add_lru() on another CPU");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs + 1,
			    "references: the other CPU's batch holds one");
	lru_add_drain();
	expect_listed(test, folio, false, "after lru_add_drain() on this CPU");
	lru_add_drain_all();
	expect_listed(test, folio, true, "after lru_add_drain_all()");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs,
			    "references after lru_add_drain_all()");
}

/*
 * A folio queued to be moved (here by folio_deactivate(), as MADV_COLD
 * does, to the lru_deactivate batch; the lazyfree and rotate batches, and
 * the activate batch on SMP, alike) stays on its list with PG_lru until
 * the batch is drained: folio_batch_move_lru() clears PG_lru when it moves
 * the folio, not the queueing.  So an mlock
 * meanwhile finds it on its list and culls it at once (mlock_count 1), and
 * the drain then leaves the unevictable folio where it is.
 */
static void folio_queued_for_deactivation_stays_listed_for_mlock(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	int refs, lru;

	lru_add_drain();
	folio = lrutest_real_folio(test, 0, LRUTEST_ACTIVE, true);
	lru = lrutest_locate(folio);
	refs = folio_ref_count(folio);

	folio_deactivate(folio);
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(folio), "PG_lru while queued");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folio), lru, "its list while queued");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs + 1,
			    "references: the batch holds one");

	lrutest_stat(&before);
	mlock_folio(folio);
	mlock_drain_local();
	lrutest_expect_mlocked(test, folio, 1, "mlocked while queued for deactivation");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 1, .mlocked = 1, .culled = 1 },
				  "mlock of a folio queued for deactivation");

	lru_add_drain();
	lrutest_expect_mlocked(test, folio, 1, "after the deactivation batch is drained");
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), refs);
	munlock_folio(folio);
	lrutest_drain();
}

/*
 * folio_activate() (folio_mark_accessed() of a listed folio used twice
 * calls it) on SMP queues the folio in this CPU's lru_activate batch,
 * taking a reference, and promises no list at return: it stays on the
 * inactive list with PG_lru and nothing is counted until lru_add_drain()
 * moves it to the active list and counts PGACTIVATE.  Without SMP there is
 * no batch: folio_activate() moves it under the lru lock at once.
 */
static void folio_activate_moves_the_folio_at_the_drain(struct kunit *test)
{
	const bool batched = IS_ENABLED(CONFIG_SMP);
	unsigned long events;
	struct folio *folio;
	int refs;

	if (lru_gen_enabled())
		kunit_skip(test, "the multi-gen LRU lists a new folio as active");
	lru_add_drain();
	folio = lrutest_real_folio(test, 0, LRUTEST_ANON, true);
	KUNIT_ASSERT_EQ(test, lrutest_locate(folio), (int)LRU_INACTIVE_ANON);
	refs = folio_ref_count(folio);
	events = lrutest_vm_event(PGACTIVATE);

	folio_activate(folio);
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(folio), "PG_lru right after folio_activate()");
	KUNIT_EXPECT_EQ_MSG(test, folio_test_active(folio), !batched,
			    "PG_active right after folio_activate()");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folio),
			    (int)(batched ? LRU_INACTIVE_ANON : LRU_ACTIVE_ANON),
			    "its list right after folio_activate()");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs + (batched ? 1 : 0),
			    "references right after folio_activate()");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_vm_event(PGACTIVATE) - events, batched ? 0UL : 1UL,
			    "PGACTIVATE right after folio_activate()");

	lru_add_drain();
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(folio), "PG_lru after lru_add_drain()");
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_active(folio), "PG_active after lru_add_drain()");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folio), (int)LRU_ACTIVE_ANON,
			    "its list after lru_add_drain()");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs,
			    "references after lru_add_drain()");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_vm_event(PGACTIVATE) - events, 1UL,
			    "PGACTIVATE after lru_add_drain()");
}

#define MADV_PAGES	8

struct madvise_row {
	const char *desc;
	int advice;
	enum lru_list lru;		/* where the drain puts each folio */
	bool swapbacked;		/* PG_swapbacked after the drain */
	enum vm_event_item event;	/* counted once per page by the drain */
};

static const struct madvise_row madvise_rows[] = {
	{ "MADV_COLD: lru_deactivate", MADV_COLD, LRU_INACTIVE_ANON, true, PGDEACTIVATE },
	{ "MADV_FREE: lru_lazyfree", MADV_FREE, LRU_INACTIVE_FILE, false, PGLAZYFREE },
};

KUNIT_ARRAY_PARAM_DESC(madvise, madvise_rows, desc);

/*
 * MADV_PAGES active anon pages, mapped at the returned address, their
 * folios in @folios: each used twice, which activates it
 * (folio_mark_accessed()), then drained.  The multi-gen LRU has no active
 * list for the folios to leave: the case skips there.
 */
static unsigned long madvise_active_folios(struct kunit *test, struct folio **folios)
{
	unsigned long addr;
	int i;

	if (lru_gen_enabled())
		kunit_skip(test, "the multi-gen LRU has no active list to leave");
	lrutest_mm_attach(test);
	addr = lrutest_mmap_anon(test, MADV_PAGES, true);
	for (i = 0; i < MADV_PAGES; i++) {
		/* A second use activates (folio_mark_accessed()). */
		lrutest_touch(test, addr + i * PAGE_SIZE);
		folios[i] = lrutest_folio_at(test, addr + i * PAGE_SIZE);
		KUNIT_ASSERT_NOT_NULL(test, folios[i]);
	}
	lrutest_drain();
	for (i = 0; i < MADV_PAGES; i++)
		KUNIT_ASSERT_EQ_MSG(test, lrutest_locate(folios[i]), (int)LRU_ACTIVE_ANON,
				    "set up: folio %d active", i);
	return addr;
}

/*
 * madvise(MADV_COLD) and madvise(MADV_FREE) of active anon pages queue
 * each folio in this CPU's lru_deactivate or lru_lazyfree batch
 * (folio_deactivate(), folio_mark_lazyfree()) and promise no list at
 * return: each folio stays on the active list, held by the batch, and no
 * event is counted, until the drain.
 */
static void madvise_leaves_folios_active_and_held_by_its_batch(struct kunit *test)
{
	const struct madvise_row *row = test->param_value;
	struct folio *folios[MADV_PAGES];
	unsigned long addr, events;
	int i;

	addr = madvise_active_folios(test, folios);
	events = lrutest_vm_event(row->event);
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, MADV_PAGES * PAGE_SIZE,
					 row->advice), 0);
	for (i = 0; i < MADV_PAGES; i++) {
		KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folios[i]), (int)LRU_ACTIVE_ANON,
				    "folio %d moved before the drain", i);
		/* Still mapped; the case's reference and the batch's. */
		lrutest_expect_refs(test, folios[i], 1, 2, "queued");
	}
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(row->event), events);
	/* The batch lets the folios go before the case ends. */
	lru_add_drain();
	lrutest_mm_exit(test);
}

/*
 * lru_add_drain() moves the folios madvise() queued: lru_deactivate() puts
 * each on the inactive list of its type (PGDEACTIVATE); lru_lazyfree()
 * clears PG_swapbacked and puts it on the inactive file list, freed by
 * reclaim without swap (PGLAZYFREE).
 */
static void lru_add_drain_moves_the_folios_madvise_queued(struct kunit *test)
{
	const struct madvise_row *row = test->param_value;
	struct folio *folios[MADV_PAGES];
	unsigned long addr, events;
	int i;

	addr = madvise_active_folios(test, folios);
	events = lrutest_vm_event(row->event);
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, MADV_PAGES * PAGE_SIZE,
					 row->advice), 0);
	lru_add_drain();
	for (i = 0; i < MADV_PAGES; i++) {
		KUNIT_EXPECT_EQ_MSG(test, lrutest_locate(folios[i]), (int)row->lru,
				    "folio %d after the drain", i);
		KUNIT_EXPECT_EQ(test, folio_test_swapbacked(folios[i]), row->swapbacked);
		lrutest_expect_refs(test, folios[i], 1, 1, "drained");
	}
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(row->event) - events, (unsigned long)MADV_PAGES);
	lrutest_mm_exit(test);
}

/*
 * put_pages_list() frees a list of pages longer than a folio batch: the
 * pages whose last reference it drops go to the allocator a batch at a
 * time (free_unref_folios()), which reuses their list links, so the walk
 * must have read the next page before.  Every page is freed (PGFREE counts
 * them, and whatever an interrupt frees meanwhile) and the list left empty.
 */
static void put_pages_list_frees_more_than_a_batch(struct kunit *test)
{
#ifdef LRUTEST_HAS_PUT_PAGES_LIST
	const int nr = 3 * ARRAY_SIZE(((struct folio_batch *)NULL)->folios) + 1;
	unsigned long freed;
	LIST_HEAD(pages);
	int i;

	for (i = 0; i < nr; i++) {
		struct page *page = alloc_page(GFP_KERNEL);

		if (!page) {
			put_pages_list(&pages);
			KUNIT_FAIL_AND_ABORT(test, "alloc_page() %d failed", i);
		}
		list_add(&page->lru, &pages);
	}
	freed = lrutest_vm_event(PGFREE);
	put_pages_list(&pages);
	freed = lrutest_vm_event(PGFREE) - freed;
	KUNIT_EXPECT_TRUE(test, list_empty(&pages));
	KUNIT_EXPECT_GE(test, freed, (unsigned long)nr);
#else
	kunit_skip(test, "no put_pages_list() in this kernel");
#endif
}

static struct kunit_case lru_batch_cases[] = {
	KUNIT_CASE_PARAM(folio_add_lru_batches_small_folios_until_the_drain,
			 batch_gen_params),
	KUNIT_CASE(folio_add_lru_lists_at_once_while_lru_cache_disabled),
	KUNIT_CASE(folio_added_on_another_cpu_waits_for_lru_add_drain_all),
	KUNIT_CASE(folio_queued_for_deactivation_stays_listed_for_mlock),
	KUNIT_CASE(folio_activate_moves_the_folio_at_the_drain),
	KUNIT_CASE_PARAM(madvise_leaves_folios_active_and_held_by_its_batch, madvise_gen_params),
	KUNIT_CASE_PARAM(lru_add_drain_moves_the_folios_madvise_queued, madvise_gen_params),
	KUNIT_CASE(put_pages_list_frees_more_than_a_batch),
	{}
};

static struct kunit_suite lru_batch_suite = {
	.name = "mm_lru_batch",
	.init = lrutest_init,
	.test_cases = lru_batch_cases,
};

kunit_test_suite(lru_batch_suite);

MODULE_DESCRIPTION("KUnit tests of the per-CPU lru_add batch contract");
MODULE_LICENSE("GPL");
