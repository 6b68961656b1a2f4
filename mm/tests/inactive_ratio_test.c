// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of inactive_is_low() (mm/vmscan.c, reached through
 * hooks/vmscan.c) against the ratio table in the comment above it:
 *
 * total     target    max
 * memory    ratio     inactive
 * -------------------------------------
 *   10MB       1         5MB
 *  100MB       1        50MB
 *    1GB       3       250MB
 *   10GB      10       0.9GB
 *  100GB      31         3GB
 *    1TB     101        10GB
 *   10TB     320        32GB
 *
 * The fake node's counters are set directly (its vm_stat is test memory,
 * the global counters are not touched), so terabytes cost nothing.
 */
#include <kunit/test.h>
#include <linux/mm_inline.h>
#include <linux/sizes.h>

#include "lrutest.h"

struct ratio_row {
	unsigned long long bytes;
	unsigned long ratio;
	const char *desc;
};

static const struct ratio_row ratio_rows[] = {
	{ 10ULL * SZ_1M, 1, "10MB" },
	{ 100ULL * SZ_1M, 1, "100MB" },
	{ 1ULL * SZ_1G, 3, "1GB" },
	{ 10ULL * SZ_1G, 10, "10GB" },
	{ 100ULL * SZ_1G, 31, "100GB" },
	{ 1ULL << 40, 101, "1TB" },
	{ 10ULL << 40, 320, "10TB" },
};

KUNIT_ARRAY_PARAM_DESC(ratio, ratio_rows, desc);

static void ratio_zero_counters(void *data)
{
	struct lrutest_node *node = data;
	enum lru_list lru;

	for_each_lru(lru)
		atomic_long_set(&node->pgdat->vm_stat[NR_LRU_BASE + lru], 0);
}

static void set_pages(struct lrutest_node *node, enum lru_list lru,
		      unsigned long pages)
{
	atomic_long_set(&node->pgdat->vm_stat[NR_LRU_BASE + lru], pages);
}

static struct lrutest_node *ratio_node(struct kunit *test)
{
	struct lrutest_node *node = lrutest_node_create(test);

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, ratio_zero_counters, node));
	return node;
}

/*
 * With T pages on the two lists, the inactive list is low while
 * inactive * ratio < active, i.e. up to inactive = (T - 1) / (ratio + 1):
 * check both sides of that edge, for anon and for file, with the other
 * type's lists loaded so that reading the wrong counters shows.
 */
static void inactive_is_low_follows_ratio_table(struct kunit *test)
{
	const struct ratio_row *row = test->param_value;
	unsigned long total = row->bytes >> PAGE_SHIFT;
	unsigned long edge = (total - 1) / (row->ratio + 1);
	struct lrutest_node *node = ratio_node(test);
	enum lru_list inactive;

	for (inactive = LRU_INACTIVE_ANON; inactive <= LRU_INACTIVE_FILE;
	     inactive += LRU_FILE) {
		enum lru_list other = inactive ^ LRU_FILE;

		/* The other type: all inactive, which alone would not be low. */
		set_pages(node, other, total);
		set_pages(node, other + LRU_ACTIVE, 0);
		set_pages(node, LRU_UNEVICTABLE, total);

		set_pages(node, inactive, edge);
		set_pages(node, inactive + LRU_ACTIVE, total - edge);
		KUNIT_EXPECT_TRUE_MSG(test, lrutest_inactive_is_low(node->lruvec, inactive),
				      "%s %s: inactive %lu of %lu pages must be low (ratio %lu)",
				      row->desc, lrutest_lru_names[inactive], edge,
				      total, row->ratio);

		set_pages(node, inactive, edge + 1);
		set_pages(node, inactive + LRU_ACTIVE, total - edge - 1);
		KUNIT_EXPECT_FALSE_MSG(test, lrutest_inactive_is_low(node->lruvec, inactive),
				       "%s %s: inactive %lu of %lu pages must not be low (ratio %lu)",
				       row->desc, lrutest_lru_names[inactive], edge + 1,
				       total, row->ratio);
		kunit_info(test, "%s %s: ratio %lu, max inactive %lu MB\n",
			   row->desc, lrutest_lru_names[inactive], row->ratio,
			   (edge << PAGE_SHIFT) >> 20);
		ratio_zero_counters(node);
	}
}

/* Small lists, where gb is 0 and the ratio is 1: low iff inactive < active. */
static void inactive_is_low_small_lists(struct kunit *test)
{
	struct lrutest_node *node = ratio_node(test);

	KUNIT_EXPECT_FALSE_MSG(test, lrutest_inactive_is_low(node->lruvec, LRU_INACTIVE_ANON),
			       "empty lists are not low");
	set_pages(node, LRU_ACTIVE_ANON, 1);
	KUNIT_EXPECT_TRUE_MSG(test, lrutest_inactive_is_low(node->lruvec, LRU_INACTIVE_ANON),
			      "0 inactive, 1 active");
	set_pages(node, LRU_INACTIVE_ANON, 1);
	KUNIT_EXPECT_FALSE_MSG(test, lrutest_inactive_is_low(node->lruvec, LRU_INACTIVE_ANON),
			       "1 inactive, 1 active: equal is not low");
	KUNIT_EXPECT_FALSE_MSG(test, lrutest_inactive_is_low(node->lruvec, LRU_INACTIVE_FILE),
			       "anon pages do not make the file list low");
}

/* The result follows pages on the lists, as they are accounted by adds. */
static void inactive_is_low_counts_listed_folios(struct kunit *test)
{
	struct lrutest_node *node;
	struct folio *active, *inactive;

	if (lru_gen_enabled())
		kunit_skip(test, "the multi-gen LRU does not keep folios inactive by flag");
	node = lrutest_node_create(test);
	active = lrutest_folio(test, node, 2, LRUTEST_ACTIVE);
	inactive = lrutest_folio(test, node, 1, 0);
	lrutest_add(node, active);
	KUNIT_EXPECT_TRUE(test, lrutest_inactive_is_low(node->lruvec, LRU_INACTIVE_FILE));
	lrutest_add(node, inactive);
	/* 2 inactive < 4 active pages */
	KUNIT_EXPECT_TRUE(test, lrutest_inactive_is_low(node->lruvec, LRU_INACTIVE_FILE));
	lrutest_del(node, active);
	KUNIT_EXPECT_FALSE(test, lrutest_inactive_is_low(node->lruvec, LRU_INACTIVE_FILE));
}

static struct kunit_case inactive_ratio_cases[] = {
	KUNIT_CASE_PARAM(inactive_is_low_follows_ratio_table, ratio_gen_params),
	KUNIT_CASE(inactive_is_low_small_lists),
	KUNIT_CASE(inactive_is_low_counts_listed_folios),
	{}
};

static struct kunit_suite inactive_ratio_suite = {
	.name = "mm_inactive_ratio",
	.test_cases = inactive_ratio_cases,
};
kunit_test_suite(inactive_ratio_suite);

MODULE_DESCRIPTION("KUnit tests of inactive_is_low()");
MODULE_LICENSE("GPL");
