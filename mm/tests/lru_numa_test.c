// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the LRU per NUMA node: each node has its own lruvec (per
 * memcg, with memcg) and its own counters, and a folio is listed and
 * counted on the lruvec of the node its memory belongs to, and on no other.
 * The expected lruvec is named from the node id the test allocated on
 * (mem_cgroup_lruvec() of that node's pglist_data), not from the folio.
 * The migration case starts from the node its page was faulted on and
 * expects the page, its mlock and its counts on the other.
 * Needs two nodes with memory (the x86_64 configuration); skips otherwise.
 * The cases run in an mm of their own (lrutest_vm_init()).
 */
#include <kunit/test.h>
#include <linux/memcontrol.h>
#include <linux/mempolicy.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/nodemask.h>
#include <linux/swap.h>

#include "lrutest.h"
#include "lrutest_mlock.h"

/* A node with memory other than @nid, or NUMA_NO_NODE. */
static int lrutest_other_node(int nid)
{
	int n;

	for_each_node_state(n, N_MEMORY)
		if (n != nid)
			return n;
	return NUMA_NO_NODE;
}

/* Whether @folio is threaded on @lruvec's lists, walked under its lock. */
static bool listed_on(struct lruvec *lruvec, struct folio *folio)
{
	int lru;

	spin_lock_irq(&lruvec->lru_lock);
	lru = lrutest_find_folio(lruvec, folio);
	spin_unlock_irq(&lruvec->lru_lock);
	return lru != LRUTEST_NOT_LISTED;
}

/*
 * An anon folio from node @nid's memory, added from this CPU: listed on
 * @nid's lruvec and not on @other's; @nid's NR_LRU count grows by one,
 * @other's not at all.  A new anon folio is inactive on the classic LRU,
 * and in an active generation on the multi-gen LRU (see mm_lru_batch).
 */
static void expect_listed_and_counted_on(struct kunit *test, int nid, int other)
{
	int lru = lru_gen_enabled() ? LRU_ACTIVE_ANON : LRU_INACTIVE_ANON;
	long nid_before, other_before;
	struct lruvec *lv_nid, *lv_other;
	struct folio *folio;

	lru_add_drain();
	nid_before = lrutest_pgdat_state(nid, NR_LRU_BASE + lru);
	other_before = lrutest_pgdat_state(other, NR_LRU_BASE + lru);

	folio = lrutest_real_folio_on(test, 0, LRUTEST_ANON, true, nid);
	KUNIT_ASSERT_EQ_MSG(test, folio_nid(folio), nid, "the folio's memory");
	/* The folio's memcg binding is stable under RCU (folio_memcg()). */
	rcu_read_lock();
	lv_nid = mem_cgroup_lruvec(folio_memcg(folio), NODE_DATA(nid));
	lv_other = mem_cgroup_lruvec(folio_memcg(folio), NODE_DATA(other));
	rcu_read_unlock();

	KUNIT_EXPECT_TRUE_MSG(test, listed_on(lv_nid, folio),
			      "node %d's folio listed on node %d's lruvec", nid, nid);
	KUNIT_EXPECT_FALSE_MSG(test, listed_on(lv_other, folio),
			       "node %d's folio listed on node %d's lruvec", nid, other);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_pgdat_state(nid, NR_LRU_BASE + lru) - nid_before,
			    1L, "node %d's folio: node %d: %s", nid, nid, lrutest_lru_names[lru]);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_pgdat_state(other, NR_LRU_BASE + lru) - other_before,
			    0L, "node %d's folio: node %d: %s", nid, other, lrutest_lru_names[lru]);
}

/*
 * A folio from the other node's memory is listed and counted there and
 * nowhere else.  So is one from this node's memory: whichever node the
 * case runs on, a count charged to one fixed node (the first, say) misses
 * one of the two.
 */
static void folio_from_another_node_is_listed_and_counted_there(struct kunit *test)
{
	int here = numa_node_id(), there = lrutest_other_node(here);

	if (there == NUMA_NO_NODE)
		kunit_skip(test, "one node with memory: no other node's lruvec");
	expect_listed_and_counted_on(test, there, here);
	expect_listed_and_counted_on(test, here, there);
}

/*
 * unevictable-lru.rst, "Migrating MLOCKED Pages", through migrate_pages(2)'s
 * body after its permission checks (do_migrate_pages(), with MPOL_MF_MOVE
 * as for a caller without CAP_SYS_NICE): an mlocked folio of a VM_LOCKED VMA
 * is taken off its node's LRU_UNEVICTABLE, copied to a folio of the other
 * node (__GFP_THISNODE), and the migration PTE put back in the VM_LOCKED
 * VMA mlocks the copy there: the page stays mlocked, mlock_count 1, and
 * both the node's NR_MLOCK and its unevictable list move with it, one page
 * down on the source node, one up on the destination.  The global counters
 * add up as for any migration of a locked folio: the old folio, isolated,
 * is munlocked by the unmap (stranded), the new one is rescued when it
 * goes on the LRU unmapped, then mlocked and culled.  lru_cache_disable()
 * makes every LRU and mlock batch of the call flush at once, so all this
 * holds when the call returns.
 */
static void migrate_pages_moves_a_locked_folio_and_its_mlock(struct kunit *test)
{
	long mlock_from, mlock_to, unev_from, unev_to;
	struct lrutest_stat before;
	nodemask_t from, to;
	struct folio *folio;
	unsigned long addr;
	int src, dst;

	if (num_node_state(N_MEMORY) < 2)
		kunit_skip(test, "one node with memory: nowhere to migrate to");
	folio = lrutest_mlocked_page(test, &addr);
	src = folio_nid(folio);
	dst = lrutest_other_node(src);
	KUNIT_ASSERT_NE(test, dst, NUMA_NO_NODE);
	/* An anon folio with more references than mappings cannot migrate. */
	kunit_release_action(test, lrutest_folio_put_action, folio);
	from = nodemask_of_node(src);
	to = nodemask_of_node(dst);
	mlock_from = lrutest_pgdat_zone_state(src, NR_MLOCK);
	mlock_to = lrutest_pgdat_zone_state(dst, NR_MLOCK);
	unev_from = lrutest_pgdat_state(src, NR_UNEVICTABLE);
	unev_to = lrutest_pgdat_state(dst, NR_UNEVICTABLE);
	lrutest_stat(&before);

	KUNIT_EXPECT_EQ(test, do_migrate_pages(current->mm, &from, &to, MPOL_MF_MOVE), 0);
	folio = lrutest_folio_at(test, addr);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_nid(folio), dst);
	lrutest_expect_mlocked(test, folio, 1, "after migrate_pages()");
	lrutest_expect_refs(test, folio, 1, 1, "after migrate_pages()");
	KUNIT_EXPECT_EQ(test, lrutest_pgdat_zone_state(src, NR_MLOCK) - mlock_from, -1L);
	KUNIT_EXPECT_EQ(test, lrutest_pgdat_zone_state(dst, NR_MLOCK) - mlock_to, 1L);
	KUNIT_EXPECT_EQ(test, lrutest_pgdat_state(src, NR_UNEVICTABLE) - unev_from, -1L);
	KUNIT_EXPECT_EQ(test, lrutest_pgdat_state(dst, NR_UNEVICTABLE) - unev_to, 1L);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.mlocked = 1, .culled = 1, .rescued = 1,
					.stranded = 1 },
				  "migrate_pages() of a locked folio");
	lrutest_vm_end(test);
}

static struct kunit_case lru_numa_cases[] = {
	KUNIT_CASE(folio_from_another_node_is_listed_and_counted_there),
	KUNIT_CASE(migrate_pages_moves_a_locked_folio_and_its_mlock),
	{}
};

static struct kunit_suite lru_numa_suite = {
	.name = "mm_lru_numa",
	.init = lrutest_vm_init,
	.test_cases = lru_numa_cases,
};

kunit_test_suite(lru_numa_suite);

MODULE_DESCRIPTION("KUnit tests of the LRU lists and counters per NUMA node");
MODULE_LICENSE("GPL");
