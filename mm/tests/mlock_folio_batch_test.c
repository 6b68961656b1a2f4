// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the mlock folio batch of mm/mlock.c: mlock_folio(),
 * mlock_new_folio() and munlock_folio() on test-owned folios of the real
 * LRU, drained through mlock_folio_batch() into __mlock_folio(),
 * __mlock_new_folio() and __munlock_folio().  Each case checks the folio's
 * flags, mlock_count and list (walked), and NR_MLOCK and the
 * unevictable_pgs_* events as exact deltas.
 */
#include <kunit/test.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/swap.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "lrutest.h"
#include "lrutest_mlock.h"

static const unsigned int mlock_orders[] = { 0, 2 };

static void mlock_order_desc(const unsigned int *order, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "order-%u", *order);
}

KUNIT_ARRAY_PARAM(mlock_order, mlock_orders, mlock_order_desc);

static unsigned int param_order(struct kunit *test)
{
	return *(const unsigned int *)test->param_value;
}

/* mlock culls an evictable LRU folio; munlock rescues it. */
static void mlock_folio_culls_then_munlock_rescues(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = lrutest_real_folio(test, order, LRUTEST_ANON | LRUTEST_ACTIVE, true);
	lrutest_stat(&before);

	mlock_folio(folio);
	lrutest_drain();
	lrutest_expect_mlocked(test, folio, 1, "after mlock_folio");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = n, .mlocked = n, .culled = n },
				  "mlock_folio");

	munlock_folio(folio);
	lrutest_drain();
	lrutest_expect_rescued(test, folio, false, "after munlock_folio");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = n, .culled = n,
					.munlocked = n, .rescued = n },
				  "mlock_folio then munlock_folio");
}

/*
 * Each mlock of a listed unevictable folio counts in its mlock_count; each
 * munlock uncounts, and only the last rescues it.  First the two mlocks:
 * mlock_count 2, PG_mlocked set once.
 */
static void mlock_folio_twice_counts_once_with_mlock_count_2(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = lrutest_real_folio(test, order, LRUTEST_ANON, true);
	lrutest_stat(&before);

	mlock_folio(folio);
	lrutest_drain();
	mlock_folio(folio);
	lrutest_drain();
	lrutest_expect_mlocked(test, folio, 2, "mlocked twice");
	/* PG_mlocked was set once: NR_MLOCK and PGMLOCKED count it once. */
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = n, .mlocked = n, .culled = n },
				  "two mlock_folio");
}

/* A listed anon folio mlocked twice, the counters in @before just before. */
static struct folio *mlocked_twice(struct kunit *test, unsigned int order,
				   struct lrutest_stat *before)
{
	struct folio *folio = lrutest_real_folio(test, order, LRUTEST_ANON, true);

	lrutest_stat(before);
	mlock_folio(folio);
	lrutest_drain();
	mlock_folio(folio);
	lrutest_drain();
	return folio;
}

/* One munlock of two: mlock_count 1, still mlocked, no counter moves. */
static void munlock_folio_of_a_twice_mlocked_folio_keeps_it_mlocked(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = mlocked_twice(test, order, &before);
	munlock_folio(folio);
	lrutest_drain();
	lrutest_expect_mlocked(test, folio, 1, "one of two mlocks dropped");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = n, .mlocked = n, .culled = n },
				  "first munlock_folio");
}

/* The second munlock rescues it. */
static void munlock_folio_twice_rescues_a_twice_mlocked_folio(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = mlocked_twice(test, order, &before);
	munlock_folio(folio);
	lrutest_drain();
	munlock_folio(folio);
	lrutest_drain();
	lrutest_expect_rescued(test, folio, false, "both mlocks dropped");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = n, .culled = n,
					.munlocked = n, .rescued = n },
				  "second munlock_folio");
}

/* A new folio, never on the LRU, goes straight to LRU_UNEVICTABLE. */
static void mlock_new_folio_lands_unevictable(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = lrutest_real_folio(test, order, LRUTEST_ANON, false);
	lrutest_stat(&before);

	mlock_new_folio(folio);
	lrutest_drain();
	lrutest_expect_mlocked(test, folio, 1, "after mlock_new_folio");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = n, .mlocked = n, .culled = n },
				  "mlock_new_folio");

	munlock_folio(folio);
	lrutest_drain();
	lrutest_expect_rescued(test, folio, false, "after munlock_folio");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = n, .culled = n,
					.munlocked = n, .rescued = n },
				  "mlock_new_folio then munlock_folio");
}

/*
 * mlock of an isolated folio sets PG_mlocked but cannot move it; putback
 * culls it (folio_evictable() is false), with mlock_count 0: lru_add()
 * underestimates on purpose, and the munlock that follows must still
 * clear PG_mlocked and rescue it.  A listed anon folio, isolated, the
 * counters in @before just after.
 */
static struct folio *isolated_folio(struct kunit *test, unsigned int order,
				    struct lrutest_stat *before)
{
	struct folio *folio = lrutest_real_folio(test, order, LRUTEST_ANON, true);

	lrutest_isolate(test, folio);
	lrutest_stat(before);
	return folio;
}

/* __mlock_folio() leaves a folio off the LRU alone: PG_mlocked only. */
static void mlock_folio_of_an_isolated_folio_only_sets_pg_mlocked(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = isolated_folio(test, order, &before);
	mlock_folio(folio);
	lrutest_drain();
	KUNIT_EXPECT_TRUE(test, folio_test_mlocked(folio));
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_lru(folio),
			       "the batch put an isolated folio back");
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_unevictable(folio),
			       "the batch moved an isolated folio");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = n, .mlocked = n },
				  "mlock_folio of an isolated folio");
}

/* folio_putback_lru() of the mlocked folio culls it, mlock_count 0. */
static void mlock_isolated_folio_culled_at_putback(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = isolated_folio(test, order, &before);
	mlock_folio(folio);
	lrutest_drain();
	lrutest_putback(test, folio);
	lrutest_drain();
	lrutest_expect_mlocked(test, folio, 0, "put back while mlocked");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = n, .mlocked = n, .culled = n },
				  "putback of an mlocked folio");
}

/* munlock_folio() of a folio culled with mlock_count 0 still rescues it. */
static void munlock_folio_rescues_a_folio_culled_with_mlock_count_0(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = isolated_folio(test, order, &before);
	mlock_folio(folio);
	lrutest_drain();
	lrutest_putback(test, folio);
	lrutest_drain();
	munlock_folio(folio);
	lrutest_drain();
	lrutest_expect_rescued(test, folio, false, "munlocked after putback");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = n, .culled = n,
					.munlocked = n, .rescued = n },
				  "munlock_folio after putback");
}

/*
 * munlock of an isolated unevictable folio clears PG_mlocked but cannot
 * move it: it is counted stranded, and putback rescues it.
 */
static void munlock_isolated_folio_stranded_until_putback(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = lrutest_real_folio(test, order, LRUTEST_ANON, true);
	mlock_folio(folio);
	lrutest_drain();
	lrutest_isolate(test, folio);
	lrutest_stat(&before);

	munlock_folio(folio);
	lrutest_drain();
	KUNIT_EXPECT_FALSE(test, folio_test_mlocked(folio));
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_unevictable(folio),
			      "PG_unevictable cleared off the LRU");
	KUNIT_EXPECT_FALSE(test, folio_test_lru(folio));
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -n, .stranded = n },
				  "munlock_folio of an isolated folio");

	lrutest_putback(test, folio);
	lrutest_drain();
	lrutest_expect_rescued(test, folio, false, "put back after munlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = -n, .stranded = n,
					.rescued = n },
				  "putback after munlock_folio");
}

/* Freeing a still-mlocked folio clears PG_mlocked and NR_MLOCK. */
static void free_of_mlocked_folio_counts_cleared(struct kunit *test)
{
	unsigned int order = param_order(test);
	long n = 1L << order;
	struct lrutest_stat before;
	struct folio *folio;

	folio = lrutest_real_folio(test, order, LRUTEST_ANON, true);
	lrutest_stat(&before);

	mlock_folio(folio);
	lrutest_drain();
	lrutest_expect_mlocked(test, folio, 1, "before the last put");

	lrutest_real_folio_free(test, folio);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = n, .culled = n, .cleared = n },
				  "last put of an mlocked folio");
}

/*
 * A page that is not on any LRU list, mlocked (mlock_folio(); the batch
 * leaves a folio off the LRU alone: no cull) and freed by __free_page(),
 * never reaching __page_cache_release(): free_pages_prepare() clears
 * PG_mlocked and NR_MLOCK of any page freed (PGCLEARED), so the allocator
 * gets no mlocked page.
 */
static void free_of_a_page_mlocked_off_the_lru_counts_cleared(struct kunit *test)
{
	struct lrutest_stat before;
	struct page *page;

	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrutest_free_page_action, page));
	lrutest_stat(&before);

	mlock_folio(page_folio(page));
	lrutest_drain();
	KUNIT_EXPECT_TRUE(test, folio_test_mlocked(page_folio(page)));
	KUNIT_EXPECT_FALSE(test, folio_test_lru(page_folio(page)));
	KUNIT_EXPECT_EQ(test, page_ref_count(page), 1);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){ .nr_mlock = 1, .mlocked = 1 },
				  "mlock_folio() of a page off the LRU");

	kunit_release_action(test, lrutest_free_page_action, page);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){ .mlocked = 1, .cleared = 1 },
				  "__free_page() of an mlocked page");
}

static long lrutest_mlock_here(void *folio)
{
	mlock_folio(folio);
	return 0;
}

/*
 * mlock_folio() on another CPU (work_on_cpu()) sets PG_mlocked and counts
 * NR_MLOCK at once but leaves the move to LRU_UNEVICTABLE to that CPU's
 * mlock batch: this CPU's lru_add_drain() and mlock_drain_local() do not
 * move the folio.
 */
static void mlock_folio_on_another_cpu_leaves_the_cull_to_its_batch(struct kunit *test)
{
	int there = lrutest_other_cpu(test), refs, lru;
	struct lrutest_stat before;
	struct folio *folio;

	lru_add_drain_all();
	folio = lrutest_real_folio(test, 0, LRUTEST_ANON, true);
	refs = folio_ref_count(folio);
	lrutest_stat(&before);

	KUNIT_ASSERT_EQ(test, work_on_cpu(there, lrutest_mlock_here, folio), 0L);
	lrutest_drain();
	lru = lrutest_locate(folio);
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_mlocked(folio), "PG_mlocked at once");
	KUNIT_EXPECT_FALSE_MSG(test, folio_test_unevictable(folio),
			       "culled before the other CPU's batch was drained");
	KUNIT_EXPECT_TRUE_MSG(test, lru == LRU_INACTIVE_ANON || lru == LRU_ACTIVE_ANON,
			      "still on an anon list (%d) after this CPU's drains", lru);
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs + 1,
			    "references: the other CPU's mlock batch holds one");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){ .nr_mlock = 1, .mlocked = 1 },
				  "mlock_folio on another CPU, before lru_add_drain_all()");
}

/*
 * A listed order-0 anon folio (its references in *@refs, the counters in
 * @before just before) mlocked on another CPU, then this CPU's batches
 * drained.
 */
static struct folio *mlocked_on_another_cpu(struct kunit *test, int *refs,
					    struct lrutest_stat *before)
{
	int there = lrutest_other_cpu(test);
	struct folio *folio;

	lru_add_drain_all();
	folio = lrutest_real_folio(test, 0, LRUTEST_ANON, true);
	*refs = folio_ref_count(folio);
	lrutest_stat(before);
	KUNIT_ASSERT_EQ(test, work_on_cpu(there, lrutest_mlock_here, folio), 0L);
	lrutest_drain();
	return folio;
}

/*
 * lru_add_drain_all() drains every CPU whose mlock batch holds folios
 * (need_mlock_drain()) and waits: the folio is culled.
 */
static void lru_add_drain_all_culls_a_folio_mlocked_on_another_cpu(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	int refs;

	folio = mlocked_on_another_cpu(test, &refs, &before);
	lru_add_drain_all();
	lrutest_expect_mlocked(test, folio, 1, "after lru_add_drain_all()");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), refs,
			    "references after lru_add_drain_all()");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 1, .mlocked = 1, .culled = 1 },
				  "after lru_add_drain_all()");
}

/* munlock_folio() on this CPU, not the one that mlocked it, rescues it. */
static void munlock_folio_here_rescues_a_folio_mlocked_on_another_cpu(struct kunit *test)
{
	struct lrutest_stat before;
	struct folio *folio;
	int refs;

	folio = mlocked_on_another_cpu(test, &refs, &before);
	lru_add_drain_all();
	munlock_folio(folio);
	lrutest_drain();
	lrutest_expect_rescued(test, folio, false, "munlocked on this CPU");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = 1, .culled = 1,
					.munlocked = 1, .rescued = 1 },
				  "munlock_folio on another CPU than the mlock");
}

static struct kunit_case mlock_folio_batch_cases[] = {
	KUNIT_CASE_PARAM(mlock_folio_culls_then_munlock_rescues, mlock_order_gen_params),
	KUNIT_CASE_PARAM(mlock_folio_twice_counts_once_with_mlock_count_2, mlock_order_gen_params),
	KUNIT_CASE_PARAM(munlock_folio_of_a_twice_mlocked_folio_keeps_it_mlocked,
			 mlock_order_gen_params),
	KUNIT_CASE_PARAM(munlock_folio_twice_rescues_a_twice_mlocked_folio,
			 mlock_order_gen_params),
	KUNIT_CASE_PARAM(mlock_new_folio_lands_unevictable, mlock_order_gen_params),
	KUNIT_CASE_PARAM(mlock_folio_of_an_isolated_folio_only_sets_pg_mlocked,
			 mlock_order_gen_params),
	KUNIT_CASE_PARAM(mlock_isolated_folio_culled_at_putback, mlock_order_gen_params),
	KUNIT_CASE_PARAM(munlock_folio_rescues_a_folio_culled_with_mlock_count_0,
			 mlock_order_gen_params),
	KUNIT_CASE_PARAM(munlock_isolated_folio_stranded_until_putback,
			 mlock_order_gen_params),
	KUNIT_CASE_PARAM(free_of_mlocked_folio_counts_cleared, mlock_order_gen_params),
	KUNIT_CASE(mlock_folio_on_another_cpu_leaves_the_cull_to_its_batch),
	KUNIT_CASE(lru_add_drain_all_culls_a_folio_mlocked_on_another_cpu),
	KUNIT_CASE(munlock_folio_here_rescues_a_folio_mlocked_on_another_cpu),
	KUNIT_CASE(free_of_a_page_mlocked_off_the_lru_counts_cleared),
	{}
};

static struct kunit_suite mlock_folio_batch_suite = {
	.name = "mm_mlock_folio_batch",
	.init = lrutest_init,
	.test_cases = mlock_folio_batch_cases,
};

kunit_test_suite(mlock_folio_batch_suite);

MODULE_DESCRIPTION("KUnit tests of the mlock folio batch");
MODULE_LICENSE("GPL");
