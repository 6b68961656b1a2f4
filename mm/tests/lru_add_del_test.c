// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of lruvec_add_folio() and lruvec_del_folio() on a fake node:
 * a folio lands on the list its flags name (want_lru(): the test's own
 * table; with the multi-gen LRU, in the generation it names), and every
 * list's walked length stays equal to the node's NR_LRU_BASE + lru, the
 * zones' NR_ZONE_LRU_BASE + lru and, with memcg on, the lruvec's memcg
 * statistics and per-zone sizes, in pages, for order-0 and large folios.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/vmstat.h>

#include "lrutest.h"

/* Every list: walked pages == node counter == zone counters == @want. */
static void expect_lists(struct kunit *test, struct lrutest_node *node,
			 const unsigned long want[NR_LRU_LISTS], const char *when)
{
	enum lru_list lru;

	for_each_lru(lru) {
		unsigned long node_pages = lrutest_node_pages(node, lru);

		KUNIT_EXPECT_EQ_MSG(test, node_pages, want[lru],
				    "%s: node %s pages", when, lrutest_lru_names[lru]);
		KUNIT_EXPECT_EQ_MSG(test, lrutest_zone_pages(node, lru), node_pages,
				    "%s: zone %s pages differ from node", when,
				    lrutest_lru_names[lru]);
		KUNIT_EXPECT_EQ_MSG(test, lrutest_lruvec_pages(node, lru), node_pages,
				    "%s: lruvec (memcg) %s pages differ from node", when,
				    lrutest_lru_names[lru]);
		/* Multi-gen: lru_gen_update_size() keeps no memcg zone sizes. */
		KUNIT_EXPECT_EQ_MSG(test, lrutest_memcg_lru_pages(node, lru),
				    lru_gen_enabled() && lru != LRU_UNEVICTABLE &&
				    !mem_cgroup_disabled() ? 0 : node_pages,
				    "%s: memcg per-zone %s size", when,
				    lrutest_lru_names[lru]);
		if (lru != LRU_UNEVICTABLE)
			KUNIT_EXPECT_EQ_MSG(test, lrutest_walk_pages(node->lruvec, lru),
					    node_pages, "%s: walked %s pages differ from counter",
					    when, lrutest_lru_names[lru]);
	}
}

/* Where a listed folio is found by walking, against where it should be. */
static void expect_listed_on(struct kunit *test, struct lrutest_node *node,
			     struct folio *folio, enum lru_list lru)
{
	int where = lrutest_find_folio(node->lruvec, folio);

	if (lru == LRU_UNEVICTABLE)
		KUNIT_EXPECT_EQ_MSG(test, where, LRUTEST_NOT_LISTED,
				    "unevictable folio threaded on %s",
				    where < 0 ? "-" : lrutest_lru_names[where]);
	else
		KUNIT_EXPECT_EQ_MSG(test, where, (int)lru,
				    "walked to %s, want %s",
				    where < 0 ? "no list" : lrutest_lru_names[where],
				    lrutest_lru_names[lru]);
}

struct lru_add_case {
	unsigned long flags;
	unsigned int order;
	const char *desc;
};

/*
 * The list a folio with LRUTEST_* @flags must be accounted to once added.
 * Classic LRU: unevictable, else the list of its type (PG_swapbacked) and
 * activity (PG_active), as unevictable-lru.rst describes the five lists.
 * Multi-gen LRU: the generation that the comment in lru_gen_add_folio()
 * names, on the fake node's new lruvec (max_seq MIN_NR_GENS + 1, both
 * min_seq 0: lru_gen_init_lruvec()): an active (hot) folio the youngest,
 * max_seq; an anon folio not in the swap cache (freshly faulted) the second
 * youngest; any other the second oldest, min_seq + 1, there being more than
 * MIN_NR_GENS generations.  The two youngest count as active.
 */
static enum lru_list want_lru(unsigned long flags)
{
	enum lru_list lru;

	if (flags & LRUTEST_UNEVICTABLE)
		return LRU_UNEVICTABLE;
	lru = (flags & LRUTEST_ANON) ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
	if (flags & LRUTEST_ACTIVE)
		lru += LRU_ACTIVE;
	if (lru_gen_enabled() && (flags & (LRUTEST_ANON | LRUTEST_ACTIVE)))
		lru |= LRU_ACTIVE;
	return lru;
}

/* The multi-gen LRU generation (index) of a folio added with @flags: as above. */
static void expect_gen(struct kunit *test, struct lrutest_node *node,
		       struct folio *folio, unsigned long flags)
{
#ifdef CONFIG_LRU_GEN
	const unsigned long max_seq = MIN_NR_GENS + 1, min_seq = 0;
	unsigned long seq;

	if (!lru_gen_enabled() || (flags & LRUTEST_UNEVICTABLE))
		return;
	KUNIT_ASSERT_EQ_MSG(test, node->lruvec->lrugen.max_seq, max_seq,
			    "a new lruvec's max_seq");
#ifdef LRUTEST_HAS_LRU_GEN_FOLIO_SEQ
	/*
	 * lru_gen_folio_seq(): max_seq - gen + 1, no older than min_seq, where
	 * gen is MIN_NR_GENS for an active folio (not in the workingset) and
	 * for anon outside the swap cache, and MAX_NR_GENS for page cache not
	 * referenced.
	 */
	if (flags & (LRUTEST_ACTIVE | LRUTEST_ANON))
		seq = max_seq + 1 - MIN_NR_GENS;
	else
		seq = max(max_seq + 1 - MAX_NR_GENS, min_seq);
#else
	/*
	 * lru_gen_add_folio(): an active folio in the youngest generation,
	 * anon outside the swap cache in the second youngest, the rest in the
	 * second oldest (min_seq + 1, as min_seq + MIN_NR_GENS < max_seq
	 * fails on a new lruvec).
	 */
	if (flags & LRUTEST_ACTIVE)
		seq = max_seq;
	else if (flags & LRUTEST_ANON)
		seq = max_seq - 1;
	else
		seq = min_seq + 1;
#endif
	KUNIT_EXPECT_EQ_MSG(test, folio_lru_gen(folio), lru_gen_from_seq(seq),
			    "generation of a folio added with flags %#lx", flags);
#endif
}

/* Every list, a folio of order 0, 2 and 4 on each. */
static const struct lru_add_case lru_add_cases[] = {
	{ LRUTEST_ANON, 0, "inactive_anon order 0" },
	{ LRUTEST_ANON | LRUTEST_ACTIVE, 0, "active_anon order 0" },
	{ 0, 0, "inactive_file order 0" },
	{ LRUTEST_ACTIVE, 0, "active_file order 0" },
	{ LRUTEST_ANON | LRUTEST_UNEVICTABLE, 0, "unevictable order 0" },
	{ LRUTEST_ANON, 2, "inactive_anon order 2" },
	{ LRUTEST_ANON | LRUTEST_ACTIVE, 2, "active_anon order 2" },
	{ 0, 2, "inactive_file order 2" },
	{ LRUTEST_ACTIVE, 2, "active_file order 2" },
	{ LRUTEST_ANON | LRUTEST_UNEVICTABLE, 2, "unevictable order 2" },
	{ LRUTEST_ANON, 4, "inactive_anon order 4" },
	{ LRUTEST_ANON | LRUTEST_ACTIVE, 4, "active_anon order 4" },
	{ 0, 4, "inactive_file order 4" },
	{ LRUTEST_ACTIVE, 4, "active_file order 4" },
	{ LRUTEST_ANON | LRUTEST_UNEVICTABLE, 4, "unevictable order 4" },
};

KUNIT_ARRAY_PARAM_DESC(lru_add, lru_add_cases, desc);

static void lru_add_then_del_accounts_pages(struct kunit *test)
{
	const struct lru_add_case *c = test->param_value;
	unsigned long want[NR_LRU_LISTS] = {};
	struct lrutest_node *node = lrutest_node_create(test);
	struct folio *folio = lrutest_folio(test, node, c->order, c->flags);
	enum lru_list lru = want_lru(c->flags);

	expect_lists(test, node, want, "before add");

	lrutest_add(node, folio);
	want[lru] = 1UL << c->order;
	expect_listed_on(test, node, folio, lru);
	expect_gen(test, node, folio, c->flags);
	expect_lists(test, node, want, "after add");

	lrutest_del(node, folio);
	want[lru] = 0;
	KUNIT_EXPECT_EQ(test, lrutest_find_folio(node->lruvec, folio), LRUTEST_NOT_LISTED);
	expect_lists(test, node, want, "after del");
}

/* Delete, change the flags, add: the moves that activation, deactivation,
 * culling and rescue make, through all five lists, keep the sum of pages.
 */
static void lru_move_through_all_lists_keeps_counts(struct kunit *test)
{
	static const unsigned long path[] = {
		LRUTEST_ANON, LRUTEST_ANON | LRUTEST_ACTIVE,
		LRUTEST_ANON | LRUTEST_UNEVICTABLE, LRUTEST_ANON,
		0, LRUTEST_ACTIVE, LRUTEST_UNEVICTABLE, 0,
	};
	const unsigned long mask = LRUTEST_ANON | LRUTEST_ACTIVE | LRUTEST_UNEVICTABLE;
	struct lrutest_node *node = lrutest_node_create(test);
	struct folio *folio = lrutest_folio(test, node, 1, 0);
	unsigned long want[NR_LRU_LISTS] = {};
	char when[48];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(path); i++) {
		enum lru_list lru;

		if (i)
			lrutest_del(node, folio);
		folio_clear_active(folio);
		folio_clear_unevictable(folio);
		__folio_clear_swapbacked(folio);
		if (path[i] & LRUTEST_ANON)
			__folio_set_swapbacked(folio);
		if (path[i] & LRUTEST_ACTIVE)
			folio_set_active(folio);
		if (path[i] & LRUTEST_UNEVICTABLE)
			folio_set_unevictable(folio);
		KUNIT_ASSERT_EQ(test, path[i] & ~mask, 0UL);

		lru = want_lru(path[i]);
		lrutest_add(node, folio);
		memset(want, 0, sizeof(want));
		want[lru] = 2;
		snprintf(when, sizeof(when), "step %zu (%s)", i, lrutest_lru_names[lru]);
		expect_listed_on(test, node, folio, lru);
		expect_gen(test, node, folio, path[i]);
		expect_lists(test, node, want, when);
	}
}

#define LRU_MIX_FOLIOS	48

static const unsigned long lru_mix[] = {
	LRUTEST_ANON, LRUTEST_ANON | LRUTEST_ACTIVE, 0, LRUTEST_ACTIVE,
	LRUTEST_UNEVICTABLE, LRUTEST_ANON | LRUTEST_UNEVICTABLE,
};

/*
 * Each folio still listed is found by walking on the list its flags in
 * lru_mix[] name (want_lru()), or on none if unevictable; @want gets the
 * pages each list must count.
 */
static void expect_folios_listed(struct kunit *test, struct lrutest_node *node,
				 struct folio **folios, int n, unsigned long *want)
{
	int i;

	memset(want, 0, NR_LRU_LISTS * sizeof(*want));
	for (i = 0; i < n; i++) {
		enum lru_list lru = want_lru(lru_mix[i % ARRAY_SIZE(lru_mix)]);
		int where;

		if (!folio_test_lru(folios[i]))
			continue;
		where = lrutest_find_folio(node->lruvec, folios[i]);
		if (lru == LRU_UNEVICTABLE)
			KUNIT_EXPECT_EQ_MSG(test, where, LRUTEST_NOT_LISTED,
					    "unevictable folio %d threaded on a list", i);
		else
			KUNIT_EXPECT_EQ_MSG(test, where, (int)lru,
					    "folio %d on %s, want %s", i,
					    where < 0 ? "no list" : lrutest_lru_names[where],
					    lrutest_lru_names[lru]);
		want[lru] += folio_nr_pages(folios[i]);
	}
}

/* Many folios of all types and sizes: the books balance at each stage. */
static void lru_mixed_population_stays_consistent(struct kunit *test)
{
	struct lrutest_node *node = lrutest_node_create(test);
	unsigned long want[NR_LRU_LISTS], total = 0, sum;
	struct folio **folios;
	enum lru_list lru;
	int i;

	folios = kunit_kcalloc(test, LRU_MIX_FOLIOS, sizeof(*folios), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, folios);
	for (i = 0; i < LRU_MIX_FOLIOS; i++) {
		folios[i] = lrutest_folio(test, node, i % 4, lru_mix[i % ARRAY_SIZE(lru_mix)]);
		lrutest_add(node, folios[i]);
		total += folio_nr_pages(folios[i]);
	}

	expect_folios_listed(test, node, folios, LRU_MIX_FOLIOS, want);
	expect_lists(test, node, want, "all added");
	sum = 0;
	for_each_lru(lru)
		sum += lrutest_node_pages(node, lru);
	KUNIT_EXPECT_EQ_MSG(test, sum, total, "pages on all lists");

	for (i = 0; i < LRU_MIX_FOLIOS; i += 2)
		lrutest_del(node, folios[i]);
	expect_folios_listed(test, node, folios, LRU_MIX_FOLIOS, want);
	expect_lists(test, node, want, "half deleted");

	for (i = 1; i < LRU_MIX_FOLIOS; i += 2)
		lrutest_del(node, folios[i]);
	memset(want, 0, sizeof(want));
	expect_lists(test, node, want, "all deleted");
}

/*
 * The fake node's counters move the global ones in step (both are written
 * by the same __mod_*_page_state() call): add then del leaves them where
 * they were.  Read with interrupts off, so nothing else runs on UP.
 */
static void lru_add_del_leaves_global_counters_balanced(struct kunit *test)
{
	struct lrutest_node *node = lrutest_node_create(test);
	struct folio *folio = lrutest_folio(test, node, 2, LRUTEST_ANON);
	struct lruvec *lruvec = node->lruvec;
	long before, added, after, zbefore, zadded, zafter;
	enum lru_list lru;
	unsigned long flags;

	if (IS_ENABLED(CONFIG_SMP))
		kunit_skip(test, "other CPUs may move the global counters meanwhile");
	/* Active: the multi-gen LRU then counts it active too. */
	folio_set_active(folio);
	lru = want_lru(LRUTEST_ANON | LRUTEST_ACTIVE);

	local_irq_save(flags);
	spin_lock(&lruvec->lru_lock);
	before = global_node_page_state(NR_LRU_BASE + lru);
	zbefore = global_zone_page_state(NR_ZONE_LRU_BASE + lru);
	folio_set_lru(folio);
	lruvec_add_folio(lruvec, folio);
	added = global_node_page_state(NR_LRU_BASE + lru);
	zadded = global_zone_page_state(NR_ZONE_LRU_BASE + lru);
	lruvec_del_folio(lruvec, folio);
	folio_clear_lru(folio);
	after = global_node_page_state(NR_LRU_BASE + lru);
	zafter = global_zone_page_state(NR_ZONE_LRU_BASE + lru);
	spin_unlock(&lruvec->lru_lock);
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ_MSG(test, added - before, 4L, "global node delta after add");
	KUNIT_EXPECT_EQ_MSG(test, zadded - zbefore, 4L, "global zone delta after add");
	KUNIT_EXPECT_EQ_MSG(test, after, before, "global node counter after del");
	KUNIT_EXPECT_EQ_MSG(test, zafter, zbefore, "global zone counter after del");
}

/*
 * Multi-gen LRU: a folio added while PG_active (activated by reclaim, a
 * refault or folio_activate()) goes to the youngest generation, and
 * lru_gen_add_folio() clears PG_active, which means "youngest" only while
 * the folio is off the lists.  In 6.12 its tier restarts there too: the
 * accesses through file descriptors counted so far (PG_referenced and the
 * refs field, LRU_REFS_MASK) are cleared with PG_active, as folio_inc_gen()
 * clears them, and PG_workingset stays (PSI reads it).  7.3 keeps
 * PG_referenced and the refs (LRU_REFS_FLAGS): a second access promotes.
 */
static void lru_gen_add_of_an_active_folio_restarts_its_tier(struct kunit *test)
{
#ifdef CONFIG_LRU_GEN
	const unsigned long refs = LRU_REFS_MASK | BIT(PG_referenced);
	struct lrutest_node *node;
	unsigned long kept;
	struct folio *folio;

	if (!lru_gen_enabled())
		kunit_skip(test, "the multi-gen LRU is not enabled: no tiers");
	node = lrutest_node_create(test);
	folio = lrutest_folio(test, node, 0, LRUTEST_ACTIVE);
	folio_set_workingset(folio);
	set_mask_bits(lrutest_folio_flags_word(folio), refs, refs);

	lrutest_add(node, folio);
	/*
	 * Which one by the probe of lru_gen_folio_seq(): the same rework of
	 * lru_gen_add_folio() that added it narrowed the mask to PG_active.
	 */
#ifdef LRUTEST_HAS_LRU_GEN_FOLIO_SEQ
	kept = refs;
#else
	kept = 0;
#endif
	KUNIT_EXPECT_EQ(test, lrutest_folio_flags(folio) & refs, kept);
	KUNIT_EXPECT_EQ(test, folio_lru_gen(folio),
			lru_gen_from_seq(node->lruvec->lrugen.max_seq));
	KUNIT_EXPECT_FALSE(test, folio_test_active(folio));
	KUNIT_EXPECT_TRUE(test, folio_test_workingset(folio));
	lrutest_del(node, folio);
#else
	kunit_skip(test, "CONFIG_LRU_GEN is off");
#endif
}

static struct kunit_case lru_add_del_cases[] = {
	KUNIT_CASE_PARAM(lru_add_then_del_accounts_pages, lru_add_gen_params),
	KUNIT_CASE(lru_move_through_all_lists_keeps_counts),
	KUNIT_CASE(lru_mixed_population_stays_consistent),
	KUNIT_CASE(lru_add_del_leaves_global_counters_balanced),
	KUNIT_CASE(lru_gen_add_of_an_active_folio_restarts_its_tier),
	{}
};

static struct kunit_suite lru_add_del_suite = {
	.name = "mm_lru_add_del",
	.init = lrutest_init,
	.test_cases = lru_add_del_cases,
};

kunit_test_suite(lru_add_del_suite);

MODULE_DESCRIPTION("KUnit tests of lruvec_add_folio()/lruvec_del_folio() accounting");
MODULE_LICENSE("GPL");
