// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest hook: #included at the end of mm/memcontrol.c
 * (CONFIG_MM_LRU_KUNIT_TEST) so that the fake node of mm/tests can have
 * the lruvec the kernel expects while memcg is on: one inside a
 * mem_cgroup_per_node, whose statistics (struct lruvec_stats and its
 * per-CPU part) are private to this file.  Nothing here changes what
 * memcontrol.c does.
 */
#include "../lrutest.h"

/**
 * lrutest_memcg_node_lruvec - a memcg lruvec for a node of the test's own
 * @pgdat: the (fake) node
 *
 * What alloc_mem_cgroup_per_node_info() makes for a real node, charged to
 * the root memcg, but on no memcg's nodeinfo[]: __mod_lruvec_state() and
 * mem_cgroup_update_lru_size() account into it and into the root memcg's
 * own counters, and no rstat flush ever reads it
 * (lrutest_memcg_node_flush() does that).
 */
struct lruvec *lrutest_memcg_node_lruvec(struct pglist_data *pgdat)
{
	struct mem_cgroup_per_node *pn;

	pn = kzalloc(sizeof(*pn), GFP_KERNEL);
	if (!pn)
		return NULL;
	pn->lruvec_stats = kzalloc(sizeof(*pn->lruvec_stats), GFP_KERNEL);
	pn->lruvec_stats_percpu = alloc_percpu(struct lruvec_stats_percpu);
	if (!pn->lruvec_stats || !pn->lruvec_stats_percpu) {
		free_percpu(pn->lruvec_stats_percpu);
		kfree(pn->lruvec_stats);
		kfree(pn);
		return NULL;
	}
	lruvec_init(&pn->lruvec);
	pn->lruvec.pgdat = pgdat;
	pn->memcg = root_mem_cgroup;
	return &pn->lruvec;
}

void lrutest_memcg_node_lruvec_free(struct lruvec *lruvec)
{
	struct mem_cgroup_per_node *pn = container_of(lruvec, struct mem_cgroup_per_node,
						      lruvec);

	free_percpu(pn->lruvec_stats_percpu);
	kfree(pn->lruvec_stats);
	kfree(pn);
}

/*
 * Fold every CPU's deltas into the lruvec's statistics, what
 * mem_cgroup_css_rstat_flush() does for each node of a memcg, so that
 * lruvec_page_state() reads them.  A test lruvec has no parent to pass
 * them on to.
 */
void lrutest_memcg_node_flush(struct lruvec *lruvec)
{
	struct mem_cgroup_per_node *pn = container_of(lruvec, struct mem_cgroup_per_node,
						      lruvec);
	struct lruvec_stats *lstats = pn->lruvec_stats;
	int cpu, i;

	for_each_possible_cpu(cpu) {
		struct lruvec_stats_percpu *lstatc = per_cpu_ptr(pn->lruvec_stats_percpu, cpu);

		for (i = 0; i < NR_MEMCG_NODE_STAT_ITEMS; i++) {
			long v = READ_ONCE(lstatc->state[i]);
			long delta = v - lstatc->state_prev[i];

			lstatc->state_prev[i] = v;
			lstats->state_local[i] += delta;
			lstats->state[i] += delta;
		}
	}
}
