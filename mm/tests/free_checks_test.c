// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the LRU flags a folio takes to the page allocator: the
 * last put of a folio on an LRU list takes it off the list and clears
 * PG_lru, PG_active and PG_unevictable (__folio_clear_lru_flags()), and a
 * still-mlocked folio loses PG_mlocked and its NR_MLOCK (PGCLEARED) in
 * __page_cache_release(); a flag left behind is a "Bad page state" when
 * free_pages_prepare() checks pages (CONFIG_DEBUG_VM, init_on_free=1,
 * page_poison=1), which taints the kernel (TAINT_BAD_PAGE).  Each case
 * frees a folio from one state a kernel path left it in, with the checks
 * on, and fails on the taint itself, not only on the report in the log.
 * The taint cannot be cleared: the suite runs first (mm/tests/Makefile),
 * and a case after a bad page skips, saying so.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/pagemap.h>
#include <linux/panic.h>
#include <linux/swap.h>

#include "internal.h"	/* mlock_folio(), check_pages_enabled: mm/ by -I */
#if __has_include("mm_init.h")
#include "mm_init.h"	/* check_pages_enabled, since 6.16 */
#endif
#include "lrutest.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

static void skip_unless_pages_checked(struct kunit *test)
{
	if (!static_branch_unlikely(&check_pages_enabled))
		kunit_skip(test,
			   "no page checks at free (check_pages_enabled off: no CONFIG_DEBUG_VM, init_on_free=1 or page_poison=1)");
	if (test_taint(TAINT_BAD_PAGE))
		kunit_skip(test,
			   "a bad page earlier in this boot (TAINT_BAD_PAGE is sticky): this case's own would not show");
}

enum free_state { FREE_INACTIVE, FREE_ACTIVE, FREE_MLOCKED, FREE_MUNLOCKED };

struct free_row {
	const char *desc;
	enum free_state state;
	struct lrutest_stat want;	/* from the listed folio to its free */
};

static const struct free_row free_rows[] = {
	{ "inactive anon, lru_add()", FREE_INACTIVE, {} },
	{ "active anon, folio_activate()", FREE_ACTIVE, {} },
	{ "culled and mlocked, mlock_folio()", FREE_MLOCKED,
	  { .mlocked = 1, .culled = 1, .cleared = 1 } },
	{ "rescued, mlock_folio() then munlock_folio()", FREE_MUNLOCKED,
	  { .mlocked = 1, .culled = 1, .munlocked = 1, .rescued = 1 } },
};

KUNIT_ARRAY_PARAM_DESC(free, free_rows, desc);

/*
 * A test-owned order-0 anon folio put on the LRU, moved to the row's state
 * by the kernel's own path, then freed by its last put: no bad page, and
 * the mlock counters moved exactly as the row says.
 */
static void folio_freed_from_each_lru_state_passes_the_page_checks(struct kunit *test)
{
	const struct free_row *row = test->param_value;
	struct lrutest_stat before;
	struct folio *folio;

	skip_unless_pages_checked(test);
	folio = lrutest_real_folio(test, 0, LRUTEST_ANON, true);
	lrutest_stat(&before);

	switch (row->state) {
	case FREE_INACTIVE:
		break;
	case FREE_ACTIVE:
		folio_activate(folio);
		lrutest_drain();
		/* The multi-gen LRU keeps activity in the generation, not PG_active. */
		if (!lru_gen_enabled())
			KUNIT_ASSERT_TRUE(test, folio_test_active(folio));
		break;
	case FREE_MLOCKED:
		mlock_folio(folio);
		lrutest_drain();
		lrutest_expect_mlocked(test, folio, 1, "before the last put");
		break;
	case FREE_MUNLOCKED:
		mlock_folio(folio);
		lrutest_drain();
		munlock_folio(folio);
		lrutest_drain();
		lrutest_expect_evictable(test, folio, false, "before the last put");
		break;
	}
	KUNIT_ASSERT_TRUE(test, folio_test_lru(folio));
	KUNIT_ASSERT_EQ_MSG(test, folio_ref_count(folio), 1,
			    "set up: the case's reference is the last");

	lrutest_real_folio_free(test, folio);
	KUNIT_EXPECT_FALSE_MSG(test, test_taint(TAINT_BAD_PAGE),
			       "freed %s: Bad page state (a flag left at free)", row->desc);
	lrutest_expect_stat_delta(test, &before, &row->want, row->desc);
}

struct pagecache_row {
	const char *desc;
	const char *fstype;
	bool unevictable;
};

static const struct pagecache_row pagecache_rows[] = {
	{ "ramfs: unevictable, culled by lru_add()", "ramfs", true },
	{ "tmpfs: on an anon list", "tmpfs", false },
};

KUNIT_ARRAY_PARAM_DESC(pagecache, pagecache_rows, desc);

/*
 * A page-cache folio written to a file of the row's filesystem, listed by
 * lru_add(), then freed by truncation to 0: no bad page.
 */
static void page_cache_folio_truncated_from_its_list_passes_the_page_checks(struct kunit *test)
{
	const struct pagecache_row *row = test->param_value;
	struct folio *folio;
	struct file *file;
	loff_t pos = 0;
	char *buf;

	skip_unless_pages_checked(test);
	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	file = lrutest_create(test, lrutest_mount(test, row->fstype), "f");
	KUNIT_ASSERT_EQ(test, kernel_write(file, buf, PAGE_SIZE, &pos), (ssize_t)PAGE_SIZE);
	lrutest_drain();
	folio = filemap_get_folio(file->f_mapping, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
	KUNIT_EXPECT_TRUE(test, folio_test_lru(folio));
	KUNIT_EXPECT_EQ_MSG(test, folio_test_unevictable(folio), row->unevictable,
			    "set up: PG_unevictable");
	folio_put(folio);	/* the page cache's reference is the last */

	KUNIT_ASSERT_EQ(test, vfs_truncate(&file->f_path, 0), 0L);
	KUNIT_EXPECT_EQ(test, file->f_mapping->nrpages, 0UL);
	KUNIT_EXPECT_FALSE_MSG(test, test_taint(TAINT_BAD_PAGE),
			       "truncated %s: Bad page state (a flag left at free)", row->desc);
}

static struct kunit_case free_checks_cases[] = {
	KUNIT_CASE_PARAM(folio_freed_from_each_lru_state_passes_the_page_checks,
			 free_gen_params),
	KUNIT_CASE_PARAM(page_cache_folio_truncated_from_its_list_passes_the_page_checks,
			 pagecache_gen_params),
	{}
};

static struct kunit_suite free_checks_suite = {
	.name = "mm_free_checks",
	.init = lrutest_init,
	.test_cases = free_checks_cases,
};

kunit_test_suite(free_checks_suite);

MODULE_DESCRIPTION("KUnit tests of the LRU flags a folio takes to the allocator");
MODULE_LICENSE("GPL");
