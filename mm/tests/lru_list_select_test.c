// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of folio_lru_list(): which of the five LRU lists a folio's
 * PG_swapbacked, PG_active and PG_unevictable flags send it to.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>

#include "lrutest.h"

struct lru_select_case {
	unsigned long flags;
	enum lru_list lru;
	const char *desc;
};

static const struct lru_select_case lru_select_cases[] = {
	{ 0, LRU_INACTIVE_FILE, "file" },
	{ LRUTEST_ACTIVE, LRU_ACTIVE_FILE, "file active" },
	{ LRUTEST_ANON, LRU_INACTIVE_ANON, "anon" },
	{ LRUTEST_ANON | LRUTEST_ACTIVE, LRU_ACTIVE_ANON, "anon active" },
	{ LRUTEST_UNEVICTABLE, LRU_UNEVICTABLE, "file unevictable" },
	{ LRUTEST_ANON | LRUTEST_UNEVICTABLE, LRU_UNEVICTABLE, "anon unevictable" },
	/* Never set together on a listed folio; unevictable must win. */
	{ LRUTEST_ACTIVE | LRUTEST_UNEVICTABLE, LRU_UNEVICTABLE,
	  "file active unevictable" },
	{ LRUTEST_ANON | LRUTEST_ACTIVE | LRUTEST_UNEVICTABLE, LRU_UNEVICTABLE,
	  "anon active unevictable" },
};

KUNIT_ARRAY_PARAM_DESC(lru_select, lru_select_cases, desc);

static void folio_lru_list_follows_flags(struct kunit *test)
{
	const struct lru_select_case *c = test->param_value;
	struct folio *folio;

	if (IS_ENABLED(CONFIG_DEBUG_VM) && (c->flags & LRUTEST_ACTIVE) &&
	    (c->flags & LRUTEST_UNEVICTABLE))
		kunit_skip(test, "active+unevictable is a VM_BUG_ON_FOLIO() under CONFIG_DEBUG_VM");

	folio = lrutest_folio(test, NULL, 0, c->flags);
	KUNIT_EXPECT_EQ_MSG(test, folio_is_file_lru(folio),
			    !(c->flags & LRUTEST_ANON),
			    "folio_is_file_lru() must be !PG_swapbacked");
	KUNIT_EXPECT_EQ_MSG(test, folio_lru_list(folio), c->lru,
			    "%s folio: got %s, want %s", c->desc,
			    lrutest_lru_names[folio_lru_list(folio)],
			    lrutest_lru_names[c->lru]);
}

/* The list does not depend on the folio's size. */
static void folio_lru_list_ignores_order(struct kunit *test)
{
	unsigned int order;

	for (order = 0; order <= 3; order++) {
		struct folio *anon = lrutest_folio(test, NULL, order,
						   LRUTEST_ANON | LRUTEST_ACTIVE);
		struct folio *file = lrutest_folio(test, NULL, order, 0);

		KUNIT_EXPECT_EQ_MSG(test, folio_lru_list(anon), LRU_ACTIVE_ANON,
				    "order %u", order);
		KUNIT_EXPECT_EQ_MSG(test, folio_lru_list(file), LRU_INACTIVE_FILE,
				    "order %u", order);
	}
}

/* folio_lru_list() reads flags: clearing them moves the answer back. */
static void folio_lru_list_tracks_flag_changes(struct kunit *test)
{
	struct folio *folio = lrutest_folio(test, NULL, 0, LRUTEST_ANON);

	KUNIT_EXPECT_EQ(test, folio_lru_list(folio), LRU_INACTIVE_ANON);
	folio_set_active(folio);
	KUNIT_EXPECT_EQ(test, folio_lru_list(folio), LRU_ACTIVE_ANON);
	folio_clear_active(folio);
	folio_set_unevictable(folio);
	KUNIT_EXPECT_EQ(test, folio_lru_list(folio), LRU_UNEVICTABLE);
	folio_clear_unevictable(folio);
	__folio_clear_swapbacked(folio);
	KUNIT_EXPECT_EQ(test, folio_lru_list(folio), LRU_INACTIVE_FILE);
}

static struct kunit_case lru_list_select_cases[] = {
	KUNIT_CASE_PARAM(folio_lru_list_follows_flags, lru_select_gen_params),
	KUNIT_CASE(folio_lru_list_ignores_order),
	KUNIT_CASE(folio_lru_list_tracks_flag_changes),
	{}
};

static struct kunit_suite lru_list_select_suite = {
	.name = "mm_lru_list_select",
	.init = lrutest_init,
	.test_cases = lru_list_select_cases,
};

kunit_test_suite(lru_list_select_suite);

MODULE_DESCRIPTION("KUnit tests of folio_lru_list()");
MODULE_LICENSE("GPL");
