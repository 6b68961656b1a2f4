// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of inactive_is_low() (mm/vmscan.c, visible to KUnit)
 * against the ratio table in the comment above it:
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
 * The ratios of the table are sqrt(10 * GB), rounded down, of the two
 * lists' total in whole GB: one page below each row from 1GB up, the total
 * is one GB less (none below 1GB, ratio 1), which the rows "- 1 page" probe.
 *
 * inactive_is_low() reads lruvec_page_state(): with memcg off, and without
 * CONFIG_NUMA, that is the global counter whatever the node; with memcg on,
 * the fake lruvec's memcg statistics.  So the lists' sizes are set by
 * moving the fake lruvec's counters (and with them the global ones) by the
 * difference to what inactive_is_low() reads, with interrupts off on UP so
 * that nothing else runs or reads meanwhile, and moved back before
 * interrupts come on again.  Terabytes cost nothing.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/sizes.h>

#include "lrutest.h"

/* A size of the two lists of one type, its ratio, and that type's inactive list. */
struct ratio_row {
	unsigned long long bytes;
	unsigned long ratio;
	enum lru_list inactive;
	const char *desc;
};

static const struct ratio_row ratio_rows[] = {
	{ 10ULL * SZ_1M, 1, LRU_INACTIVE_ANON, "10MB inactive_anon" },
	{ 10ULL * SZ_1M, 1, LRU_INACTIVE_FILE, "10MB inactive_file" },
	{ 100ULL * SZ_1M, 1, LRU_INACTIVE_ANON, "100MB inactive_anon" },
	{ 100ULL * SZ_1M, 1, LRU_INACTIVE_FILE, "100MB inactive_file" },
	{ 1ULL * SZ_1G, 3, LRU_INACTIVE_ANON, "1GB inactive_anon" },
	{ 1ULL * SZ_1G, 3, LRU_INACTIVE_FILE, "1GB inactive_file" },
	{ 10ULL * SZ_1G, 10, LRU_INACTIVE_ANON, "10GB inactive_anon" },
	{ 10ULL * SZ_1G, 10, LRU_INACTIVE_FILE, "10GB inactive_file" },
	{ 100ULL * SZ_1G, 31, LRU_INACTIVE_ANON, "100GB inactive_anon" },
	{ 100ULL * SZ_1G, 31, LRU_INACTIVE_FILE, "100GB inactive_file" },
	{ 1ULL << 40, 101, LRU_INACTIVE_ANON, "1TB inactive_anon" },
	{ 1ULL << 40, 101, LRU_INACTIVE_FILE, "1TB inactive_file" },
	{ 10ULL << 40, 320, LRU_INACTIVE_ANON, "10TB inactive_anon" },
	{ 10ULL << 40, 320, LRU_INACTIVE_FILE, "10TB inactive_file" },
	{ 1ULL * SZ_1G - PAGE_SIZE, 1, LRU_INACTIVE_ANON, "1GB - 1 page inactive_anon" },
	{ 1ULL * SZ_1G - PAGE_SIZE, 1, LRU_INACTIVE_FILE, "1GB - 1 page inactive_file" },
	{ 10ULL * SZ_1G - PAGE_SIZE, 9, LRU_INACTIVE_ANON, "10GB - 1 page inactive_anon" },
	{ 10ULL * SZ_1G - PAGE_SIZE, 9, LRU_INACTIVE_FILE, "10GB - 1 page inactive_file" },
	{ 100ULL * SZ_1G - PAGE_SIZE, 31, LRU_INACTIVE_ANON, "100GB - 1 page inactive_anon" },
	{ 100ULL * SZ_1G - PAGE_SIZE, 31, LRU_INACTIVE_FILE, "100GB - 1 page inactive_file" },
	{ (1ULL << 40) - PAGE_SIZE, 101, LRU_INACTIVE_ANON, "1TB - 1 page inactive_anon" },
	{ (1ULL << 40) - PAGE_SIZE, 101, LRU_INACTIVE_FILE, "1TB - 1 page inactive_file" },
	{ (10ULL << 40) - PAGE_SIZE, 319, LRU_INACTIVE_ANON, "10TB - 1 page inactive_anon" },
	{ (10ULL << 40) - PAGE_SIZE, 319, LRU_INACTIVE_FILE, "10TB - 1 page inactive_file" },
};

KUNIT_ARRAY_PARAM_DESC(ratio, ratio_rows, desc);

struct ratio_lists {
	long delta[NR_LRU_LISTS];
};

/* Move @lru by @d pages: mod_lruvec_state() takes an int. */
static void ratio_mod(struct lrutest_node *node, enum lru_list lru, long d)
{
	while (d) {
		int step = clamp_t(long, d, INT_MIN, INT_MAX);

		mod_lruvec_state(node->lruvec, NR_LRU_BASE + lru, step);
		d -= step;
	}
	lrutest_node_flush(node);
}

/* Make inactive_is_low() see @pages on @lru: call with interrupts off. */
static void ratio_set(struct lrutest_node *node, struct ratio_lists *rl,
		      enum lru_list lru, unsigned long pages)
{
	long d = (long)pages - (long)lruvec_page_state(node->lruvec, NR_LRU_BASE + lru);

	ratio_mod(node, lru, d);
	rl->delta[lru] += d;
}

static void ratio_restore(struct lrutest_node *node, struct ratio_lists *rl)
{
	enum lru_list lru;

	for_each_lru(lru) {
		ratio_mod(node, lru, -rl->delta[lru]);
		rl->delta[lru] = 0;
	}
}

static void ratio_skip_smp(struct kunit *test)
{
	if (IS_ENABLED(CONFIG_SMP) && !IS_ENABLED(CONFIG_NUMA))
		kunit_skip(test, "global counters are shared with other CPUs");
}

/*
 * @inactive of @total pages on @lru (an inactive list), the rest on its
 * active list; the other type's lists loaded (all @total inactive, which
 * alone would not be low) and @total unevictable, so that reading the
 * wrong counters shows.  Call with interrupts off.
 */
static void ratio_load(struct lrutest_node *node, struct ratio_lists *rl,
		       enum lru_list lru, unsigned long total, unsigned long inactive)
{
	enum lru_list other = lru ^ LRU_FILE;

	ratio_set(node, rl, other, total);
	ratio_set(node, rl, other + LRU_ACTIVE, 0);
	ratio_set(node, rl, LRU_UNEVICTABLE, total);
	ratio_set(node, rl, lru, inactive);
	ratio_set(node, rl, lru + LRU_ACTIVE, total - inactive);
}

/*
 * With T pages on the two lists, the inactive list is low while
 * inactive * ratio < active, i.e. up to inactive = (T - 1) / (ratio + 1):
 * check both sides of that edge, each size for anon and for file.
 */
static void inactive_is_low_follows_ratio_table(struct kunit *test)
{
	const struct ratio_row *row = test->param_value;
	unsigned long total = row->bytes >> PAGE_SHIFT;
	unsigned long edge = (total - 1) / (row->ratio + 1);
	struct lrutest_node *node;
	struct ratio_lists rl = {};
	unsigned long flags;
	bool low, high;

	ratio_skip_smp(test);
	node = lrutest_node_create(test);
	local_irq_save(flags);
	ratio_load(node, &rl, row->inactive, total, edge);
	low = inactive_is_low(node->lruvec, row->inactive);
	ratio_load(node, &rl, row->inactive, total, edge + 1);
	high = inactive_is_low(node->lruvec, row->inactive);
	ratio_restore(node, &rl);
	local_irq_restore(flags);

	KUNIT_EXPECT_TRUE_MSG(test, low,
			      "%s: inactive %lu of %lu pages must be low (ratio %lu)",
			      row->desc, edge, total, row->ratio);
	KUNIT_EXPECT_FALSE_MSG(test, high,
			       "%s: inactive %lu of %lu pages must not be low (ratio %lu)",
			       row->desc, edge + 1, total, row->ratio);
	kunit_info(test, "%s: ratio %lu, max inactive %lu MB\n",
		   row->desc, row->ratio, (edge << PAGE_SHIFT) >> 20);
}

/* Small lists, where gb is 0 and the ratio is 1: low iff inactive < active. */
static void inactive_is_low_small_lists(struct kunit *test)
{
	struct lrutest_node *node;
	struct ratio_lists rl = {};
	bool r[4];
	unsigned long flags;
	enum lru_list lru;

	ratio_skip_smp(test);
	node = lrutest_node_create(test);
	local_irq_save(flags);
	for_each_lru(lru)
		ratio_set(node, &rl, lru, 0);
	r[0] = inactive_is_low(node->lruvec, LRU_INACTIVE_ANON);
	ratio_set(node, &rl, LRU_ACTIVE_ANON, 1);
	r[1] = inactive_is_low(node->lruvec, LRU_INACTIVE_ANON);
	ratio_set(node, &rl, LRU_INACTIVE_ANON, 1);
	r[2] = inactive_is_low(node->lruvec, LRU_INACTIVE_ANON);
	ratio_set(node, &rl, LRU_INACTIVE_ANON, 0);
	r[3] = inactive_is_low(node->lruvec, LRU_INACTIVE_FILE);
	ratio_restore(node, &rl);
	local_irq_restore(flags);

	KUNIT_EXPECT_FALSE_MSG(test, r[0], "empty lists are not low");
	KUNIT_EXPECT_TRUE_MSG(test, r[1], "0 inactive, 1 active");
	KUNIT_EXPECT_FALSE_MSG(test, r[2], "1 inactive, 1 active: equal is not low");
	KUNIT_EXPECT_FALSE_MSG(test, r[3], "anon pages do not make the file list low");
}

static struct kunit_case inactive_ratio_cases[] = {
	KUNIT_CASE_PARAM(inactive_is_low_follows_ratio_table, ratio_gen_params),
	KUNIT_CASE(inactive_is_low_small_lists),
	{}
};

static struct kunit_suite inactive_ratio_suite = {
	.name = "mm_inactive_ratio",
	.init = lrutest_init,
	.test_cases = inactive_ratio_cases,
};

kunit_test_suite(inactive_ratio_suite);

MODULE_DESCRIPTION("KUnit tests of inactive_is_low()");
MODULE_LICENSE("GPL");
