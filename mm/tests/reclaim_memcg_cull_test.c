// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of culling through the kernel's own reclaim: folios of an
 * SHM_LOCKed segment, still on the anon list they were faulted to (SHM_LOCK
 * moves no folio, Documentation/mm/unevictable-lru.rst), are met by memcg
 * reclaim of a test memory cgroup (lru_memcg.c), culled to LRU_UNEVICTABLE
 * once each (UNEVICTABLE_PGCULLED), and cost the next reclaim nothing.
 *
 * Culling as a cost table: N = 256 evictable anon folios
 * and M = 0, 10 N, 100 N locked ones, all charged to the test memcg, swap
 * on, swappiness 200, three reclaims of 32 in a row.  The locked folios were
 * faulted and made cold first, so they are the first reclaim meets, on the
 * classic LRU (the inactive list's tail) and on the multi-gen LRU (the same
 * generation as the evictable ones, max_seq - 1, nearer its tail): every
 * folio a reclaim scans is culled or reclaimed,
 * each locked folio is culled once over the three, and the last reclaim
 * culls nothing and scans only what it reclaims, whatever M.  On the classic
 * LRU the first reclaim pays for all M; on the multi-gen LRU a reclaim may
 * stop at its scan budget and leave the rest to the next.
 *
 * And the mlock that reclaim restores: mlock_count may undercount (a folio
 * mlocked while isolated is culled at putback with mlock_count 0, lru_add()),
 * so a munlock can leave a folio evictable in a VMA that is still VM_LOCKED;
 * "reclaim will fix it" (__munlock_folio()): reclaim finds the VM_LOCKED
 * VMA in the folio's rmap walk (folio_referenced()), mlocks the folio again
 * and culls it instead of evicting it (unevictable-lru.rst, "Mlocked Pages:
 * Other Considerations" and vmscan's "page_referenced()" notes).
 */
#include <kunit/test.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/shm.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <uapi/linux/shm.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define NR_EVICTABLE	256UL
#define TO_RECLAIM	32UL
#define ROUNDS		3	/* reclaims in a row */

struct cull_row {
	const char *desc;
	unsigned long locked;	/* M, pages of the SHM_LOCKed segment */
	unsigned long reclaimed[ROUNDS];	/* by each reclaim, classic LRU */
};

/*
 * What each reclaim returns on the classic LRU, the arithmetic of
 * shrink_lruvec() at swappiness 200 (anon's share whole whatever the
 * costs): at each priority p from DEF_PRIORITY down, size >> p of the
 * inactive list from its tail (the M locked folios first, then the N),
 * in chunks of SWAP_CLUSTER_MAX, each locked folio culled and each other
 * one reclaimed; one call of shrink_lruvec() stops after the chunk that
 * brings its own count to 32 (there is no file to scan), and a reclaim
 * after the priority that brings its total to 32.  M = 0: 256 give
 * 1 + 1 + 3 + 7 + 15 + 28 = 55, then 201 give 1 + 3 + 6 + 11 + 22 = 43,
 * then 158 give 1 + 2 + 4 + 9 + 17 = 33.  M = 10 N: priorities 11 to 1
 * cull 2000 of the 2560; priority 0 scans the whole list, culls the other
 * 560 and stops 48 evictable later, after the chunk that brings that call
 * to 32; then 45 and 35.  M = 100 N: likewise 49, then 45 and 34.
 */
static const struct cull_row cull_rows[] = {
	{ "M = 0", 0, { 55, 43, 33 } },
	{ "M = 10 N", 10 * NR_EVICTABLE, { 48, 45, 35 } },
	{ "M = 100 N", 100 * NR_EVICTABLE, { 49, 45, 34 } },
};

KUNIT_ARRAY_PARAM_DESC(cull, cull_rows, desc);

static void memcg_reclaim_culls_locked_folios_once(struct kunit *test)
{
	const struct cull_row *row = test->param_value;
	const unsigned long m = row->locked;
	unsigned long culled, scanned, r[ROUNDS], s[ROUNDS], c[ROUNDS];
	unsigned long total_culled = 0, total_reclaimed = 0;
	unsigned int i;
	struct lrutest_reclaim_stat b;
	struct lrutest_shm *seg = NULL;
	struct lrutest_memcg *cg;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	if (m) {
		seg = lrutest_shm_create(test, m);
		lrutest_shm_attach(test, seg);
		lrutest_shm_touch(test, seg);
		KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_LOCK), 0L);
		/*
		 * Unused since (MADV_COLD, as lrutest_memcg_anon() does to the
		 * evictable ones after): first in line on both LRUs, at the
		 * tail of the classic inactive list and of the multi-gen LRU
		 * generation that the evictable ones join after them.
		 * SHM_LOCK sets no VM_LOCKED to refuse MADV_COLD.
		 */
		KUNIT_ASSERT_EQ(test, do_madvise(current->mm, seg->addr,
						 m * PAGE_SIZE, MADV_COLD), 0);
	}
	lrutest_memcg_anon(test, NR_EVICTABLE, true);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ_MSG(test, b.lru[LRU_INACTIVE_ANON] + b.lru[LRU_ACTIVE_ANON],
			    m + NR_EVICTABLE,
			    "set up: SHM_LOCK moved no folio off the anon lists");
	KUNIT_ASSERT_EQ(test, b.lru[LRU_UNEVICTABLE], 0UL);

	for (i = 0; i < ROUNDS; i++) {
		culled = lrutest_event(UNEVICTABLE_PGCULLED);
		scanned = lrutest_reclaim_total(PGSCAN_ANON);
		r[i] = lrutest_memcg_reclaim(cg, TO_RECLAIM, MAX_SWAPPINESS);
		/* Culled folios are put back through the LRU batch: drain it. */
		lrutest_drain();
		s[i] = lrutest_reclaim_total(PGSCAN_ANON) - scanned;
		c[i] = lrutest_event(UNEVICTABLE_PGCULLED) - culled;
		kunit_info(test, "N=%lu M=%lu: reclaim %u scanned %lu, culled %lu, reclaimed %lu\n",
			   NR_EVICTABLE, m, i + 1, s[i], c[i], r[i]);
		KUNIT_EXPECT_EQ_MSG(test, s[i], c[i] + r[i],
				    "reclaim %u: every folio scanned is culled or reclaimed",
				    i + 1);
		total_culled += c[i];
		total_reclaimed += r[i];
	}
	lrutest_memcg_stat(cg, &b);
	KUNIT_EXPECT_EQ_MSG(test, total_culled, m,
			    "PGCULLED over the reclaims: each locked folio once");
	KUNIT_EXPECT_EQ_MSG(test, b.lru[LRU_UNEVICTABLE], m,
			    "the memcg's unevictable pages after the reclaims");
	KUNIT_EXPECT_EQ(test, b.lru[LRU_INACTIVE_ANON] + b.lru[LRU_ACTIVE_ANON],
			NR_EVICTABLE - total_reclaimed);
	KUNIT_EXPECT_EQ_MSG(test, c[ROUNDS - 1], 0UL, "the last reclaim culled again");
	/*
	 * The classic LRU's reclaim pays for all M in its first call (it
	 * keeps scanning the inactive list until it has reclaimed) and
	 * reclaims what the table says; the multi-gen LRU's may stop at its
	 * scan budget and leave the rest of the oldest generation to the next
	 * call.
	 */
	if (!lru_gen_enabled()) {
		KUNIT_EXPECT_EQ_MSG(test, c[0], m, "first reclaim: PGCULLED");
		for (i = 0; i < ROUNDS; i++)
			KUNIT_EXPECT_EQ_MSG(test, r[i], row->reclaimed[i], "reclaim %u", i + 1);
	} else {
		KUNIT_EXPECT_GE(test, r[ROUNDS - 1], TO_RECLAIM);
	}
	if (seg)
		lrutest_shm_destroy(test, seg);
	lrutest_vm_end(test);
}

/*
 * Culling on the active list (unevictable-lru.rst, "Vmscan's handling of
 * unevictable folios"): SWAP_CLUSTER_MAX folios of an SHM_LOCKed segment,
 * all active, the memcg's only LRU folios.  Reclaim at swappiness 0 scans no
 * anon, but with swap it ages the anon lists while the inactive one is low
 * (shrink_lruvec() -> shrink_active_list(SWAP_CLUSTER_MAX)): that one call
 * takes all of them (PGREFILL) and puts each back, unevictable, instead of
 * deactivating it: all culled, none deactivated, nothing reclaimed.
 */
static void memcg_reclaim_culls_locked_folios_of_the_active_list(struct kunit *test)
{
	const unsigned long m = SWAP_CLUSTER_MAX;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_memcg *cg;
	struct lrutest_shm *seg;
	unsigned long culled, i;

	if (lru_gen_enabled())
		kunit_skip(test, "the multi-gen LRU has no active list (it culls in sort_folio())");
	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	seg = lrutest_shm_create(test, m);
	lrutest_shm_attach(test, seg);
	lrutest_shm_touch(test, seg);
	/* Used twice since: folio_mark_accessed() activates, as a read would. */
	for (i = 0; i < m; i++) {
		struct folio *folio = filemap_get_folio(seg->mapping, i);

		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(folio), "no shm folio %lu", i);
		folio_mark_accessed(folio);
		folio_mark_accessed(folio);
		folio_put(folio);
	}
	lrutest_drain();
	KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_LOCK), 0L);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ_MSG(test, b.lru[LRU_ACTIVE_ANON], m, "set up: all active");
	KUNIT_ASSERT_EQ(test, b.lru[LRU_INACTIVE_ANON] + b.lru[LRU_UNEVICTABLE] +
			      lrutest_stat_file(&b), 0UL);

	culled = lrutest_event(UNEVICTABLE_PGCULLED);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_reclaim(cg, TO_RECLAIM, 0), 0UL);
	/* Culled folios are put back through the LRU batch: drain it. */
	lrutest_drain();
	culled = lrutest_event(UNEVICTABLE_PGCULLED) - culled;
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "locked active anon", &b, &a);
	KUNIT_EXPECT_EQ_MSG(test, a.refill - b.refill, m, "PGREFILL: one scan of the active list");
	KUNIT_EXPECT_EQ_MSG(test, culled, m, "PGCULLED");
	KUNIT_EXPECT_EQ(test, a.deactivate - b.deactivate, 0UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_UNEVICTABLE], m);
	KUNIT_EXPECT_EQ(test, lrutest_stat_anon(&a), 0UL);
	for (i = 0; i < m; i++) {
		struct folio *folio = filemap_get_folio(seg->mapping, i);

		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(folio), "no shm folio %lu", i);
		lrutest_expect_unevictable(test, lrutest_locate(folio), folio, "culled", i);
		folio_put(folio);
	}
	lrutest_shm_destroy(test, seg);
	lrutest_vm_end(test);
}

#define SHARED_PAGES	4	/* folio 0 is the one whose mlock goes missing */

/*
 * A shmem file mapped twice, folio 0 isolated while the first mapping is
 * mlocked, then the second mlocked and munlocked: folio 0 ends evictable
 * (mlock_count 1 - 1) though the first VMA still locks it, the other folios
 * unevictable with mlock_count 1.  Memcg reclaim restores folio 0's mlock
 * and culls it: NR_MLOCK, PGMLOCKED and PGCULLED +1 each, nothing reclaimed,
 * the folio on the unevictable list with mlock_count 1 and its references
 * as before.
 */
static void memcg_reclaim_restores_a_missed_mlock(struct kunit *test)
{
	struct folio *folios[SHARED_PAGES];
	struct lrutest_stat before;
	struct lrutest_reclaim_stat st;
	unsigned long a, b, reclaimed;
	struct lrutest_memcg *cg;
	struct file *file;
	int i, refs;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	file = lrutest_shmem_file(test, SHARED_PAGES);
	a = lrutest_mmap(test, file, SHARED_PAGES, MAP_SHARED | MAP_POPULATE);
	b = lrutest_mmap(test, file, SHARED_PAGES, MAP_SHARED | MAP_POPULATE);
	lrutest_drain();
	for (i = 0; i < SHARED_PAGES; i++) {
		folios[i] = lrutest_folio_at(test, a + i * PAGE_SIZE);
		KUNIT_ASSERT_NOT_NULL_MSG(test, folios[i], "page %d not mapped", i);
		KUNIT_ASSERT_PTR_EQ_MSG(test, lrutest_folio_at(test, b + i * PAGE_SIZE),
					folios[i], "page %d: the two mappings differ", i);
	}
	lrutest_memcg_stat(cg, &st);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_stat_anon(&st), (unsigned long)SHARED_PAGES,
			    "set up: the shmem folios on the test memcg's anon lists");

	lrutest_isolate(test, folios[0]);
	KUNIT_ASSERT_EQ(test, ksys_mlock2(a, SHARED_PAGES * PAGE_SIZE, 0), 0L);
	lrutest_putback(test, folios[0]);
	lrutest_drain();
	lrutest_expect_mlocked(test, folios[0], 0, "mlocked while isolated, culled at putback");
	KUNIT_ASSERT_EQ(test, ksys_mlock2(b, SHARED_PAGES * PAGE_SIZE, 0), 0L);
	KUNIT_ASSERT_EQ(test, ksys_munlock(b, SHARED_PAGES * PAGE_SIZE), 0L);
	lrutest_expect_evictable(test, folios[0], false,
				 "the undercounted folio after the second VMA's munlock");
	for (i = 1; i < SHARED_PAGES; i++)
		lrutest_expect_mlocked(test, folios[i], 1, "still locked in the first VMA");
	KUNIT_ASSERT_TRUE(test, lrutest_vma_flags(a) & VM_LOCKED);

	lrutest_stat(&before);
	refs = folio_ref_count(folios[0]);
	reclaimed = lrutest_memcg_reclaim(cg, SWAP_CLUSTER_MAX, MAX_SWAPPINESS);
	lrutest_drain();

	KUNIT_EXPECT_EQ_MSG(test, reclaimed, 0UL, "a folio of a VM_LOCKED VMA was reclaimed");
	/*
	 * The restored mlock waits in the mlock batch while reclaim puts the
	 * folio back (lru_add() culls it, mlock_count 0); the drain then
	 * applies it to the listed folio: counted once, for the one locked
	 * VMA, as if it had never gone missing.
	 */
	lrutest_expect_mlocked(test, folios[0], 1, "reclaim restored the missed mlock");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 1, .mlocked = 1, .culled = 1 },
				  "reclaim of the memcg");
	KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folios[0]), refs,
			    "references of the culled folio");
	lrutest_memcg_stat(cg, &st);
	KUNIT_EXPECT_EQ(test, st.lru[LRU_UNEVICTABLE], (unsigned long)SHARED_PAGES);
	KUNIT_EXPECT_EQ(test, lrutest_stat_anon(&st), 0UL);
	lrutest_vm_end(test);
}

#define RAMFS_PAGES	8

/*
 * ramfs folios are unevictable from the start: lru_add() culls each as it
 * lists it (its mapping is unevictable).  So reclaim of the memcg they are
 * charged to never meets them: it scans nothing, culls nothing and reclaims
 * nothing, and every folio stays in the page cache on LRU_UNEVICTABLE.
 */
static void memcg_reclaim_never_scans_ramfs_folios(struct kunit *test)
{
	struct lrutest_reclaim_stat b, a;
	unsigned long culled, reclaimed;
	struct lrutest_memcg *cg;
	struct file *file;

	/* First, so that the file's folios are freed before it goes. */
	cg = lrutest_memcg_create(test);
	file = lrutest_create(test, lrutest_mount(test, "ramfs"), "f");
	culled = lrutest_event(UNEVICTABLE_PGCULLED);
	lrutest_memcg_read(test, cg, file, 0, RAMFS_PAGES, 1);
	KUNIT_EXPECT_EQ_MSG(test, lrutest_event(UNEVICTABLE_PGCULLED) - culled,
			    RAMFS_PAGES, "PGCULLED as the folios were listed");
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ_MSG(test, b.lru[LRU_UNEVICTABLE], RAMFS_PAGES,
			    "set up: the ramfs folios on the test memcg's unevictable list");
	KUNIT_ASSERT_EQ(test, lrutest_stat_anon(&b) + lrutest_stat_file(&b), 0UL);

	culled = lrutest_event(UNEVICTABLE_PGCULLED);
	reclaimed = lrutest_memcg_reclaim(cg, SWAP_CLUSTER_MAX, -1);
	lrutest_drain();
	lrutest_memcg_stat(cg, &a);

	KUNIT_EXPECT_EQ(test, reclaimed, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, (a.scan_anon - b.scan_anon) + (a.scan_file - b.scan_file),
			    0UL, "pages scanned by the reclaim");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_event(UNEVICTABLE_PGCULLED) - culled, 0UL,
			    "PGCULLED by the reclaim");
	KUNIT_EXPECT_EQ(test, a.lru[LRU_UNEVICTABLE], RAMFS_PAGES);
	KUNIT_EXPECT_EQ_MSG(test, file->f_mapping->nrpages, RAMFS_PAGES,
			    "pages in the page cache after the reclaim");
	lrutest_vm_end(test);
}

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
/*
 * A locked PMD-sized shmem folio (shmctl(SHM_LOCK)'s shmem_lock() on a
 * huge=always tmpfs file), the only folio of the test memcg, swap on:
 * reclaim meets it on its anon list and culls it whole, counted in pages
 * (PGCULLED and the memcg's unevictable size +HPAGE_PMD_NR), reclaims
 * nothing; the next reclaim meets nothing.
 */
static void memcg_reclaim_culls_a_locked_large_folio_by_pages(struct kunit *test)
{
	const unsigned long n = HPAGE_PMD_NR;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_stat before;
	struct mem_cgroup *old;
	struct lrutest_memcg *cg;
	struct folio *folio;
	struct file *file;
	unsigned long reclaimed;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
	old = set_active_memcg(cg->memcg);
	folio = lrutest_shmem_huge_folio(test, &file);
	set_active_memcg(old);
	lrutest_drain();
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_stat_anon(&b), n,
			    "set up: the folio on the test memcg's anon lists");
	lrutest_shmem_lock(test, file);

	lrutest_stat(&before);
	reclaimed = lrutest_memcg_reclaim(cg, SWAP_CLUSTER_MAX, MAX_SWAPPINESS);
	lrutest_drain();
	lrutest_memcg_stat(cg, &a);
	KUNIT_EXPECT_EQ_MSG(test, reclaimed, 0UL, "reclaimed from a locked folio");
	lrutest_expect_unevictable(test, lrutest_memcg_find(cg, folio), folio,
				   "after reclaim", 0);
	KUNIT_EXPECT_FALSE(test, folio_test_active(folio));
	/* 6.12 threads no folio on LRU_UNEVICTABLE (folio->lru holds mlock_count). */
	KUNIT_EXPECT_EQ(test, a.lru[LRU_UNEVICTABLE], n);
	KUNIT_EXPECT_EQ(test, lrutest_stat_anon(&a), 0UL);
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.culled = n, .unevictable = n, .anon = -n,
					.lists = true },
				  "reclaim of a locked large folio");

	lrutest_stat(&before);
	KUNIT_EXPECT_EQ(test, lrutest_memcg_reclaim(cg, SWAP_CLUSTER_MAX, MAX_SWAPPINESS), 0UL);
	lrutest_drain();
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){ .lists = true },
				  "a second reclaim");
	lrutest_vm_end(test);
}
#else
static void memcg_reclaim_culls_a_locked_large_folio_by_pages(struct kunit *test)
{
	kunit_skip(test, "CONFIG_TRANSPARENT_HUGEPAGE is off: no large shmem folio");
}
#endif

static struct kunit_case reclaim_memcg_cull_cases[] = {
	KUNIT_CASE_PARAM(memcg_reclaim_culls_locked_folios_once, cull_gen_params),
	KUNIT_CASE(memcg_reclaim_culls_locked_folios_of_the_active_list),
	KUNIT_CASE(memcg_reclaim_restores_a_missed_mlock),
	KUNIT_CASE(memcg_reclaim_never_scans_ramfs_folios),
	KUNIT_CASE(memcg_reclaim_culls_a_locked_large_folio_by_pages),
	{}
};

static struct kunit_suite reclaim_memcg_cull_suite = {
	.name = "mm_reclaim_memcg_cull",
	.init = lrutest_vm_init,
	.test_cases = reclaim_memcg_cull_cases,
};

kunit_test_suite(reclaim_memcg_cull_suite);

MODULE_DESCRIPTION("KUnit tests of culling through memcg reclaim");
MODULE_LICENSE("GPL");
