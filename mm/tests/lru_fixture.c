// SPDX-License-Identifier: GPL-2.0
/*
 * lrutest fixture: a test-owned node ("fake node") with real statistics,
 * and real folios that are listed on it and freed through KUnit actions.
 *
 * The node is a kzalloc'd pglist_data whose zones point back at it and whose
 * lruvec is set up by lruvec_init(), so lruvec_add_folio() and
 * lruvec_del_folio() account into pgdat->vm_stat and zone->vm_stat exactly as
 * they do on a real node (and into the global vm_node_stat/vm_zone_stat,
 * which they leave balanced).  With memcg on, the lruvec is a memcg one of
 * the root memcg (alloc_mem_cgroup_per_node_info()), and its memcg statistics and
 * per-zone sizes are kept too.  On SMP the per-cpu diffs are allocated with a
 * stat_threshold of 0, so every change is folded at once.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/vmstat.h>

#include "internal.h"	/* mlock_drain_local(); mm/ by -I in the Makefile */
#include "lrutest.h"

const char *const lrutest_lru_names[NR_LRU_LISTS] = {
	[LRU_INACTIVE_ANON]	= "inactive_anon",
	[LRU_ACTIVE_ANON]	= "active_anon",
	[LRU_INACTIVE_FILE]	= "inactive_file",
	[LRU_ACTIVE_FILE]	= "active_file",
	[LRU_UNEVICTABLE]	= "unevictable",
};

static void lrutest_node_release(void *data)
{
	struct lrutest_node *node = data;
	struct pglist_data *pgdat = node->pgdat;
	enum lru_list lru;
	long left;
	int z;

	/*
	 * Every folio has been taken off by now (folio actions run first).
	 * What is left is a leak of the code under test: report it, then
	 * take it back out through the same accessors, so that the global
	 * counters (and the root memcg's), which moved in step, end balanced
	 * for the next case.
	 */
	for_each_lru(lru) {
		left = atomic_long_read(&pgdat->vm_stat[NR_LRU_BASE + lru]);
		KUNIT_EXPECT_EQ_MSG(node->test, left, 0L,
				    "fake node: %s pages left at teardown",
				    lrutest_lru_names[lru]);
		if (left)
			mod_lruvec_state(node->lruvec, NR_LRU_BASE + lru, -left);
		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &pgdat->node_zones[z];

			left = atomic_long_read(&zone->vm_stat[NR_ZONE_LRU_BASE + lru]);
			KUNIT_EXPECT_EQ_MSG(node->test, left, 0L,
					    "fake zone %d: %s pages left at teardown",
					    z, lrutest_lru_names[lru]);
			if (left)
				mod_zone_page_state(zone, NR_ZONE_LRU_BASE + lru, -left);
		}
	}
#ifdef CONFIG_SMP
	for (z = 0; z < MAX_NR_ZONES; z++)
		free_percpu(pgdat->node_zones[z].per_cpu_zonestats);
	free_percpu(pgdat->per_cpu_nodestats);
#endif
}

#ifdef CONFIG_MEMCG
static void lrutest_node_lruvec_free(void *lruvec)
{
	free_mem_cgroup_per_node_info(container_of(lruvec, struct mem_cgroup_per_node,
						   lruvec));
}
#endif

/*
 * The fake node's lruvec: with memcg off, the node's own, as on a real
 * node; with memcg on, the LRU statistics code (mod_lruvec_state(),
 * mem_cgroup_update_lru_size(), lruvec_page_state()) takes every lruvec for
 * one inside a mem_cgroup_per_node, so it is one, made by the allocator of
 * a memcg's per-node info, charged to the root memcg as a root lruvec on a
 * real node is, and on no memcg's nodeinfo[]: no rstat flush reads it but
 * lrutest_node_flush()'s.
 */
static struct lruvec *lrutest_node_lruvec(struct kunit *test,
					  struct pglist_data *pgdat)
{
#ifdef CONFIG_MEMCG
	if (!mem_cgroup_disabled()) {
		struct mem_cgroup_per_node *pn;

		pn = alloc_mem_cgroup_per_node_info(root_mem_cgroup, NUMA_NO_NODE);
		KUNIT_ASSERT_NOT_NULL(test, pn);
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test, lrutest_node_lruvec_free,
							  &pn->lruvec));
		pn->lruvec.pgdat = pgdat;
		return &pn->lruvec;
	}
#endif
	lruvec_init(&pgdat->__lruvec);
#ifdef CONFIG_MEMCG
	pgdat->__lruvec.pgdat = pgdat;
#endif
	return &pgdat->__lruvec;
}

struct lrutest_node *lrutest_node_create(struct kunit *test)
{
	struct lrutest_node *node;
	struct pglist_data *pgdat;
	int z;

#ifdef LRUTEST_HAS_LRUVEC_MATCH_CHECK
	/*
	 * Where lruvec_add_folio() and lruvec_del_folio() check, under
	 * CONFIG_DEBUG_VM, that the folio belongs to the lruvec's node and
	 * memcg (folio_matches_lruvec()): a folio on a node of the test's own
	 * is what that check exists to catch.
	 */
	if (IS_ENABLED(CONFIG_DEBUG_VM))
		kunit_skip(test, "lruvec_add_folio() checks folio_matches_lruvec()");
#endif
#ifdef LRUTEST_HAS_MEMCG_NODEINFO_BY_PGDAT
	/*
	 * Where mod_memcg_lruvec_state() accounts a memcg lruvec's
	 * statistics in memcg->nodeinfo[] of the lruvec's node id (the LRU
	 * reparenting of a dying memcg), not in the lruvec's own
	 * mem_cgroup_per_node: a node of the test's own has no slot there.
	 */
	if (!mem_cgroup_disabled())
		kunit_skip(test, "memcg lruvec statistics go to memcg->nodeinfo[node id]");
#endif
	node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, node);
	pgdat = kunit_kzalloc(test, sizeof(*pgdat), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pgdat);

	node->test = test;
	node->pgdat = pgdat;
	pgdat->node_id = NUMA_NO_NODE;
	for (z = 0; z < MAX_NR_ZONES; z++)
		pgdat->node_zones[z].zone_pgdat = pgdat;
#ifdef CONFIG_SMP
	pgdat->per_cpu_nodestats = alloc_percpu(struct per_cpu_nodestat);
	KUNIT_ASSERT_NOT_NULL(test, pgdat->per_cpu_nodestats);
	for (z = 0; z < MAX_NR_ZONES; z++) {
		pgdat->node_zones[z].per_cpu_zonestats =
			alloc_percpu(struct per_cpu_zonestat);
		KUNIT_ASSERT_NOT_NULL(test, pgdat->node_zones[z].per_cpu_zonestats);
	}
#endif
	node->lruvec = lrutest_node_lruvec(test, pgdat);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_node_release, node));
	return node;
}

struct lrutest_folio_ctx {
	struct lrutest_node *node;
	struct folio *folio;
};

static void lrutest_folio_release(void *data)
{
	struct lrutest_folio_ctx *ctx = data;
	struct folio *folio = ctx->folio;

	if (folio_test_lru(folio) && ctx->node)
		lrutest_del(ctx->node, folio);
	/* Leave no flag behind that free_pages_prepare() would call bad. */
	folio_clear_active(folio);
	folio_clear_unevictable(folio);
	__folio_clear_swapbacked(folio);
	folio_put(folio);
}

/**
 * lrutest_folio - allocate a folio that the test owns
 * @test: the test case
 * @node: the fake node it may be listed on, or NULL
 * @order: its order
 * @flags: LRUTEST_* flags to set on it
 *
 * The folio is freed when the case ends; if it is still listed on @node, it
 * is taken off first.
 */
struct folio *lrutest_folio(struct kunit *test, struct lrutest_node *node,
			    unsigned int order, unsigned long flags)
{
	struct lrutest_folio_ctx *ctx;
	struct folio *folio;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	folio = folio_alloc(GFP_KERNEL, order);
	KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "order-%u folio", order);
	ctx->node = node;
	ctx->folio = folio;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lrutest_folio_release, ctx));

	if (flags & LRUTEST_ANON)
		__folio_set_swapbacked(folio);
	if (flags & LRUTEST_ACTIVE)
		folio_set_active(folio);
	if (flags & LRUTEST_UNEVICTABLE)
		folio_set_unevictable(folio);
	return folio;
}

/* Put @folio on the fake node's LRU, as lru_add() does on a real one. */
void lrutest_add(struct lrutest_node *node, struct folio *folio)
{
	struct lruvec *lruvec = node->lruvec;

	lrutest_step();
	spin_lock_irq(&lruvec->lru_lock);
	folio_set_lru(folio);
	lruvec_add_folio(lruvec, folio);
	spin_unlock_irq(&lruvec->lru_lock);
}

/* Take @folio off the fake node's LRU, as folio_isolate_lru() does. */
void lrutest_del(struct lrutest_node *node, struct folio *folio)
{
	struct lruvec *lruvec = node->lruvec;

	spin_lock_irq(&lruvec->lru_lock);
	lruvec_del_folio(lruvec, folio);
	folio_clear_lru(folio);
	spin_unlock_irq(&lruvec->lru_lock);
}

/*
 * Walk one list; return the pages on it.  If @want is on it, set *@found.
 * The walk stops after LRUTEST_WALK_MAX entries (a corrupted list).
 */
static unsigned long lrutest_walk_list(struct list_head *head,
				       struct folio *want, bool *found)
{
	unsigned long pages = 0, n = 0;
	struct folio *folio;

	list_for_each_entry(folio, head, lru) {
		if (++n > LRUTEST_WALK_MAX)
			break;
		if (folio == want)
			*found = true;
		pages += folio_nr_pages(folio);
	}
	return pages;
}

#ifdef CONFIG_LRU_GEN
/*
 * The multi-gen LRU counts the two youngest generations as active
 * (lru_gen_is_active(), include/linux/mm_inline.h).
 */
static bool lrutest_gen_active(struct lruvec *lruvec, int gen)
{
	unsigned long max_seq = READ_ONCE(lruvec->lrugen.max_seq);

	return gen == max_seq % MAX_NR_GENS || gen == (max_seq - 1) % MAX_NR_GENS;
}
#endif

/*
 * Walk every list that the folios of @lru can be threaded on and return
 * their pages: lruvec->lists[@lru], plus, with the multi-gen LRU, the
 * generations that lru_gen_update_size() accounts to @lru.  If @want is
 * found on one of them, set *@found.
 *
 * LRU_UNEVICTABLE is never walked: lruvec_init() poisons its head, and its
 * folios are not threaded anywhere (their lru field holds mlock_count).
 */
static unsigned long lrutest_walk(struct lruvec *lruvec, enum lru_list lru,
				  struct folio *want, bool *found)
{
	unsigned long pages;

	if (lru == LRU_UNEVICTABLE)
		return 0;
	pages = lrutest_walk_list(&lruvec->lists[lru], want, found);
#ifdef CONFIG_LRU_GEN
	{
		int type = is_file_lru(lru) ? LRU_GEN_FILE : LRU_GEN_ANON;
		int gen, zone;

		for (gen = 0; gen < MAX_NR_GENS; gen++) {
			if (lrutest_gen_active(lruvec, gen) != is_active_lru(lru))
				continue;
			for (zone = 0; zone < MAX_NR_ZONES; zone++)
				pages += lrutest_walk_list(&lruvec->lrugen.folios[gen][type][zone],
							   want, found);
		}
	}
#endif
	return pages;
}

/* Pages threaded on the lists of @lru, counted by walking them. */
unsigned long lrutest_walk_pages(struct lruvec *lruvec, enum lru_list lru)
{
	bool found = false;

	return lrutest_walk(lruvec, lru, NULL, &found);
}

/* The list @folio is threaded on, found by walking, or LRUTEST_NOT_LISTED. */
int lrutest_find_folio(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru;

	for_each_evictable_lru(lru) {
		bool found = false;

		lrutest_walk(lruvec, lru, folio, &found);
		if (found)
			return lru;
	}
	return LRUTEST_NOT_LISTED;
}

/*
 * The fake node's own NR_LRU_BASE + @lru.  Not lruvec_page_state(): without
 * CONFIG_NUMA, node_page_state() is global_node_page_state() and ignores the
 * node it is given.
 */
unsigned long lrutest_node_pages(struct lrutest_node *node, enum lru_list lru)
{
	return atomic_long_read(&node->pgdat->vm_stat[NR_LRU_BASE + lru]);
}

/* The sum over the node's zones of NR_ZONE_LRU_BASE + @lru. */
unsigned long lrutest_zone_pages(struct lrutest_node *node, enum lru_list lru)
{
	unsigned long pages = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++)
		pages += zone_page_state(&node->pgdat->node_zones[z],
					 NR_ZONE_LRU_BASE + lru);
	return pages;
}

/*
 * What lruvec_page_state() reads for the fake lruvec's NR_LRU_BASE + @lru:
 * with memcg on, its memcg statistics, after a flush; with memcg off, the
 * node's counter (read here directly: without CONFIG_NUMA,
 * lruvec_page_state() would read the global one).
 */
unsigned long lrutest_lruvec_pages(struct lrutest_node *node, enum lru_list lru)
{
	if (mem_cgroup_disabled())
		return lrutest_node_pages(node, lru);
	lrutest_node_flush(node);
	return lruvec_page_state(node->lruvec, NR_LRU_BASE + lru);
}

/*
 * Fold the fake memcg lruvec's per-CPU statistics, as the rstat flush does
 * for each node of a memcg; it has no parent to pass them on to (no-op
 * with memcg off).
 */
void lrutest_node_flush(struct lrutest_node *node)
{
#ifdef CONFIG_MEMCG
	if (!mem_cgroup_disabled()) {
		struct mem_cgroup_per_node *pn;
		int cpu;

		pn = container_of(node->lruvec, struct mem_cgroup_per_node, lruvec);
		for_each_possible_cpu(cpu)
			mem_cgroup_per_node_flush_cpu(pn, NULL, cpu);
	}
#endif
}

/*
 * The per-zone sizes of @lru in memcg lruvec @lruvec, summed over the
 * zones: what get_scan_count() reads through lruvec_lru_size() with memcg
 * on.
 */
unsigned long lrutest_lruvec_zone_pages(struct lruvec *lruvec, enum lru_list lru)
{
	unsigned long pages = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++)
		pages += mem_cgroup_get_zone_lru_size(lruvec, lru, z);
	return pages;
}

/*
 * The memcg's per-zone size of @lru summed over the zones, or the node's
 * pages with memcg off, where there is no memcg size.
 */
unsigned long lrutest_memcg_lru_pages(struct lrutest_node *node, enum lru_list lru)
{
	if (mem_cgroup_disabled())
		return lrutest_node_pages(node, lru);
	return lrutest_lruvec_zone_pages(node->lruvec, lru);
}

/*
 * "lrutest_fail_at=CASE:STEP" on the kernel command line fails case CASE
 * (each of its parameters) at its STEP-th fixture step, counted from the
 * suite's init: a test-only knob to check that a case failing midway is
 * red alone and leaves nothing behind for the next.
 * Steps are the fixture calls a case makes between its other work
 * (lrutest_drain(), lrutest_event(), lrutest_add(), lrutest_shm_ctl(),
 * lrutest_memcg_reclaim()), counted in the case's own kthread only: never
 * in the cleanup that KUnit runs in another.
 */
static char *lrutest_fail_at;
core_param(lrutest_fail_at, lrutest_fail_at, charp, 0444);

#ifdef CONFIG_LRU_GEN
/*
 * "lrutest_lru_gen=y" on the kernel command line runs the suites on the
 * multi-gen LRU: one CONFIG_LRU_GEN=y, CONFIG_LRU_GEN_ENABLED=n kernel
 * runs them on the classic LRU and on the multi-gen LRU, built once and
 * booted twice.  The switch is the kernel's own, lru_gen_change_state(),
 * what a write to /sys/kernel/mm/lru_gen/enabled does for the core
 * capability; it runs after init_lru_gen() and before KUnit runs the
 * built-in suites, and a fake node made later takes the state in
 * lruvec_init().
 */
static bool lrutest_lru_gen;
core_param(lrutest_lru_gen, lrutest_lru_gen, bool, 0444);

static int __init lrutest_lru_gen_init(void)
{
	if (lrutest_lru_gen)
		lru_gen_change_state(true);
	pr_info("lrutest: multi-gen LRU %s\n", lru_gen_enabled() ? "enabled" : "disabled");
	return 0;
}
late_initcall(lrutest_lru_gen_init);
#endif

static struct {
	struct task_struct *thread;	/* the running case's kthread */
	unsigned int steps;
} lrutest_case;

void lrutest_step(void)
{
	struct kunit *test = kunit_get_current_test();
	const char *sep;
	unsigned int at;

	if (!lrutest_fail_at || !test || current != lrutest_case.thread)
		return;
	lrutest_case.steps++;
	sep = strrchr(lrutest_fail_at, ':');
	if (!sep || kstrtouint(sep + 1, 10, &at) || at != lrutest_case.steps ||
	    strlen(test->name) != sep - lrutest_fail_at ||
	    strncmp(test->name, lrutest_fail_at, sep - lrutest_fail_at))
		return;
	KUNIT_FAIL_AND_ABORT(test, "lrutest_fail_at: forced failure at step %u", at);
}

/*
 * What a case must leave as it found it, on UP (lrutest_init()): nothing
 * isolated, unevictable or mlocked, no anon page mapped and no shmem page
 * (an mm or a segment still alive) left of it.
 */
static const enum node_stat_item lrutest_kept[] = {
	NR_ISOLATED_ANON, NR_ISOLATED_FILE, NR_UNEVICTABLE,
	NR_ANON_MAPPED, NR_SHMEM,
};

struct lrutest_leak {
	long node[ARRAY_SIZE(lrutest_kept)];
	long mlock;
};

static void lrutest_leak_snap(struct lrutest_leak *l)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(lrutest_kept); i++)
		l->node[i] = lrutest_node_state(lrutest_kept[i]);
	l->mlock = lrutest_zone_state(NR_MLOCK);
}

/*
 * The case's end (the first action registered, so the last to run, after
 * every resource of the case is gone, whether it passed or not): nothing
 * it isolated, made unevictable or mlocked is left.  Only on UP: on SMP
 * other CPUs move these meanwhile.
 */
static void lrutest_leak_check(void *data)
{
	struct lrutest_leak *before = data, after;
	struct kunit *test = kunit_get_current_test();
	int i;

	if (!test)
		return;
	lru_add_drain();
	mlock_drain_local();
	lrutest_leak_snap(&after);
	for (i = 0; i < ARRAY_SIZE(lrutest_kept); i++)
		KUNIT_EXPECT_EQ_MSG(test, after.node[i], before->node[i],
				    "leak: %s at the end of the case",
				    node_stat_name(lrutest_kept[i]));
	KUNIT_EXPECT_EQ_MSG(test, after.mlock, before->mlock,
			    "leak: nr_mlock at the end of the case");
}

/**
 * lrutest_init - suite init: keep the case's kthread on the CPU it started on
 * @test: the test case
 *
 * The lru_add and mlock batches are per CPU, and lru_add_drain() and
 * mlock_drain_local() drain the local CPU's only: a case that checks a
 * folio before and after its own drain must not move to another CPU in
 * between.  The affinity goes with the kthread, which ends with the case.
 * Also starts the case's step count (lrutest_step()) and, on UP, its
 * leak check (lrutest_leak_check()).
 */
int lrutest_init(struct kunit *test)
{
	struct lrutest_leak *leak;

	lrutest_case.thread = current;
	lrutest_case.steps = 0;
	if (!IS_ENABLED(CONFIG_SMP)) {
		leak = kunit_kzalloc(test, sizeof(*leak), GFP_KERNEL);
		if (!leak)
			return -ENOMEM;
		lru_add_drain();
		mlock_drain_local();
		lrutest_leak_snap(leak);
		if (kunit_add_action_or_reset(test, lrutest_leak_check, leak))
			return -ENOMEM;
	}
	return set_cpus_allowed_ptr(current, cpumask_of(raw_smp_processor_id()));
}

/**
 * lrutest_other_cpu - an online CPU other than the case's, or skip the case
 * @test: the test case, kept on its CPU by lrutest_init()
 */
int lrutest_other_cpu(struct kunit *test)
{
	int there = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());

	if (there >= nr_cpu_ids)
		kunit_skip(test, "one CPU online: there is no other CPU's batch");
	return there;
}

/**
 * lrutest_pgdat_zone_state - @item summed over the zones of node @nid, exact on SMP too
 * @nid: an online node
 * @item: the zone counter
 *
 * The sum over the node's populated zones of zone_page_state_snapshot().
 */
long lrutest_pgdat_zone_state(int nid, enum zone_stat_item item)
{
	struct zone *zone;
	long x = 0;

	for (zone = NODE_DATA(nid)->node_zones;
	     zone < NODE_DATA(nid)->node_zones + MAX_NR_ZONES; zone++)
		if (populated_zone(zone))
			x += zone_page_state_snapshot(zone, item);
	return x;
}

/**
 * lrutest_zone_state - global_zone_page_state(@item), exact on SMP too
 * @item: the zone counter
 *
 * Every node's zones (lrutest_pgdat_zone_state()).
 */
long lrutest_zone_state(enum zone_stat_item item)
{
	struct pglist_data *pgdat;
	long x = 0;

	for_each_online_pgdat(pgdat)
		x += lrutest_pgdat_zone_state(pgdat->node_id, item);
	return x;
}

/* The per-CPU deltas of @pgdat's @item not folded in yet. */
static long lrutest_pgdat_diff(struct pglist_data *pgdat, enum node_stat_item item)
{
	long x = 0;
	int cpu;

	for_each_online_cpu(cpu)
		x += per_cpu_ptr(pgdat->per_cpu_nodestats, cpu)->vm_node_stat_diff[item];
	return x;
}

/**
 * lrutest_node_state - global_node_page_state(@item), exact on SMP too
 * @item: the node counter
 *
 * Every node's counter plus every CPU's not yet folded delta to it (what
 * zone_page_state_snapshot() does for a zone).
 */
long lrutest_node_state(enum node_stat_item item)
{
	struct pglist_data *pgdat;
	long x = 0;

	/*
	 * Node by node, not vm_node_stat[] plus the deltas: the vmstat worker
	 * zeroes a CPU's deltas and adds them to the node at once, but to the
	 * global counter only later (fold_diff()).
	 */
	for_each_online_pgdat(pgdat)
		x += lrutest_pgdat_state(pgdat->node_id, item);
	return x;
}

/**
 * lrutest_pgdat_state - @item of node @nid alone, exact on SMP too
 * @nid: an online node
 * @item: the node counter
 *
 * Not node_page_state(): without CONFIG_NUMA it reads the global counter.
 */
long lrutest_pgdat_state(int nid, enum node_stat_item item)
{
	struct pglist_data *pgdat = NODE_DATA(nid);

	return atomic_long_read(&pgdat->vm_stat[item]) + lrutest_pgdat_diff(pgdat, item);
}
