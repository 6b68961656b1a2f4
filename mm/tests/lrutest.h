/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lrutest: shared fixture of the split-LRU and unevictable-LRU KUnit tests.
 *
 * A "fake node" is a test-owned pglist_data whose lruvec and zones carry
 * real statistics, so that lruvec_add_folio() and friends can be run on
 * real folios with every count known exactly, whatever the rest of the
 * kernel does to its own LRU lists meanwhile.
 */
#ifndef _MM_TESTS_LRUTEST_H
#define _MM_TESTS_LRUTEST_H

#include <kunit/test.h>
#include <linux/mmzone.h>
#include <linux/version.h>	/* KERNEL_VERSION() */
#include <linux/mm_types.h>
/*
 * What mm/ makes visible to KUnit: inactive_is_low(),
 * lru_gen_change_state(), the memcg per-node info of a fake node.
 */
#include "internal.h"
#include "lrutest_compat.h"

/* Flags of a test folio, as lrutest_folio() sets them before listing. */
#define LRUTEST_ANON		BIT(0)	/* PG_swapbacked */
#define LRUTEST_ACTIVE		BIT(1)	/* PG_active */
#define LRUTEST_UNEVICTABLE	BIT(2)	/* PG_unevictable */

struct lrutest_node {
	struct kunit *test;
	struct pglist_data *pgdat;
	struct lruvec *lruvec;
};

struct lrutest_node *lrutest_node_create(struct kunit *test);
struct folio *lrutest_folio(struct kunit *test, struct lrutest_node *node,
			    unsigned int order, unsigned long flags);
void lrutest_add(struct lrutest_node *node, struct folio *folio);
void lrutest_del(struct lrutest_node *node, struct folio *folio);

unsigned long lrutest_walk_pages(struct lruvec *lruvec, enum lru_list lru);
int lrutest_find_folio(struct lruvec *lruvec, struct folio *folio);
unsigned long lrutest_node_pages(struct lrutest_node *node, enum lru_list lru);
unsigned long lrutest_zone_pages(struct lrutest_node *node, enum lru_list lru);
unsigned long lrutest_lruvec_pages(struct lrutest_node *node, enum lru_list lru);
unsigned long lrutest_lruvec_zone_pages(struct lruvec *lruvec, enum lru_list lru);
unsigned long lrutest_memcg_lru_pages(struct lrutest_node *node, enum lru_list lru);
void lrutest_node_flush(struct lrutest_node *node);

/* A list walk stops after this many entries (a corrupted list). */
#define LRUTEST_WALK_MAX	BIT(20)

/* Not found on any list that can be walked. */
#define LRUTEST_NOT_LISTED	(-1)

extern const char *const lrutest_lru_names[NR_LRU_LISTS];

/*
 * lrutest_skip_known_bug - skip, rather than fail, where this kernel is
 * known to break a promise
 * @test: the test case
 * @cond: what the kernel promises (the expectation that follows checks it)
 * @fixed_in: the release whose kernel first has the fix, KERNEL_VERSION()
 * @fix: the upstream fix, "sha12 (\"subject\")"
 *
 * A kernel older than @fixed_in that breaks @cond has a bug fixed upstream
 * after its release: the case ends as skipped, its reason starting "known
 * bug of this kernel:", so that it is listed as such rather than hidden or
 * failed.  A kernel that has the fix (or a backport of it) passes; one at
 * or past @fixed_in that breaks @cond fails on the expectation after this,
 * and so does a case that failed before it (a skip would hide that).
 * By release (LRUTEST_RELEASE, from the tree's Makefile), not by a probe of
 * the fixed code: a probe would call a bug re-introduced into a fixed
 * kernel a known one.
 */
#define lrutest_skip_known_bug(test, cond, fixed_in, fix)			\
	do {									\
		struct kunit *__test = (test);					\
		const unsigned int __fixed = (fixed_in);			\
										\
		if (!(cond) && LRUTEST_RELEASE < __fixed &&			\
		    READ_ONCE(__test->status) != KUNIT_FAILURE)			\
			kunit_skip(__test, "known bug of this kernel: %s, fixed in %u.%u", \
				   fix, __fixed >> 16, (__fixed >> 8) & 0xff);	\
	} while (0)

int lrutest_init(struct kunit *test);
void lrutest_step(void);
int lrutest_other_cpu(struct kunit *test);
long lrutest_zone_state(enum zone_stat_item item);
long lrutest_pgdat_zone_state(int nid, enum zone_stat_item item);
long lrutest_node_state(enum node_stat_item item);
long lrutest_pgdat_state(int nid, enum node_stat_item item);

#endif /* _MM_TESTS_LRUTEST_H */
