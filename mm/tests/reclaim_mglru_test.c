// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of reclaim on the multi-gen LRU, through the kernel's memcg
 * reclaim entry on a memory cgroup that holds the test's folios alone
 * (lru_memcg.c): try_to_free_mem_cgroup_pages() -> lru_gen_shrink_lruvec()
 * -> try_to_shrink_lruvec(), aging (try_to_inc_max_seq()) and eviction
 * (evict_folios()) as in production.
 *
 * What Documentation/mm/multigen_lru.rst promises, and the cases check:
 * - "clean file pages can be evicted regardless of swap constraints": the
 *   oldest generation of each type is tracked apart (min_seq[]), and with
 *   no swap, or swappiness 0, eviction takes file folios only and leaves
 *   every anon folio on its generation list;
 * - "The aging promotes hot pages to the youngest generation when it finds
 *   them accessed through page tables", and "when the eviction walks the
 *   rmap and finds a young PTE" it looks around it: a folio with a young
 *   PTE is put back in the youngest generation, not evicted, while unused
 *   folios of the same generation are (the multi-gen version of the second
 *   chance).  Here the rmap walk of the eviction finds it: the page-table
 *   walk of the aging only visits mms on the memcg's mm_list (fork() and
 *   exec() put them there; the case's mm comes from mm_alloc()), and UML
 *   has no CONFIG_LRU_GEN_WALKS_MMU.
 *
 * Where the kernels differ (feature probes of mm/vmscan.c, mm/tests/Makefile):
 * - LRUTEST_HAS_MGLRU_ANON_FIRST (7.3): min_seq[] of anon and file move
 *   independently, and get_type_to_scan() returns anon for any swappiness
 *   >= MAX_SWAPPINESS; file is taken only while anon has no generation to
 *   evict (scan_folios() of anon scans nothing).  In 6.12 anon's min_seq
 *   is held at or below file's (try_to_inc_min_seq()) and MAX_SWAPPINESS
 *   only picks anon among folios of the same, oldest, generation.
 * - LRUTEST_HAS_MGLRU_PROMOTE_2ND (7.3): a young PTE promotes a folio only
 *   on its second access: without PG_referenced, folio_update_gen() (the
 *   look-around) and lru_gen_set_refs() (the folio's own rmap walk) set
 *   PG_referenced and clear the accessed bit, nothing else (see the comment
 *   on LRU_REFS_FLAGS).  MADV_COLD clears PG_referenced
 *   (lru_gen_clear_refs()); a fault sets it (folio_add_lru()).
 * - LRUTEST_HAS_MGLRU_NR_TO_SCAN (7.3): evict_folios() isolates
 *   nr_to_scan folios (evictable >> priority, at most MIN_LRU_BATCH) per
 *   call; 6.12 isolates up to MIN_LRU_BATCH whatever the priority.
 * The exact counts (MGLRU_EXACT()) are those of 6.12 (no probe) and of
 * 7.3 (all three); a tree with only some of them checks the rest only.
 *
 * The suite skips unless the multi-gen LRU is enabled (the "mglru" boots).
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/swap.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define NR_ANON		128UL
#define NR_CACHE		128UL
#define NR_USED		64UL
#define TO_RECLAIM	32UL	/* SWAP_CLUSTER_MAX: the least memcg reclaim asks */

#ifdef LRUTEST_HAS_MGLRU_ANON_FIRST
#define MGLRU_ANON_FIRST	true
#else
#define MGLRU_ANON_FIRST	false
#endif

/* Which multi-gen LRU the exact counts are of: 6.12's (0), 7.3's (1), neither (-1). */
#if defined(LRUTEST_HAS_MGLRU_ANON_FIRST) && defined(LRUTEST_HAS_MGLRU_PROMOTE_2ND) && \
	defined(LRUTEST_HAS_MGLRU_NR_TO_SCAN)
#define MGLRU_OF		1
#elif !defined(LRUTEST_HAS_MGLRU_ANON_FIRST) && !defined(LRUTEST_HAS_MGLRU_PROMOTE_2ND) && \
	!defined(LRUTEST_HAS_MGLRU_NR_TO_SCAN)
#define MGLRU_OF		0
#else
#define MGLRU_OF		(-1)
#endif
#define MGLRU_UNKNOWN		(-1L)
#define MGLRU_EXACT(v612, v73)	\
	(MGLRU_OF == 1 ? (long)(v73) : MGLRU_OF == 0 ? (long)(v612) : MGLRU_UNKNOWN)
#define MGLRU_KNOWN		(MGLRU_OF >= 0)

/* max_seq, min_seq[LRU_GEN_ANON] and min_seq[LRU_GEN_FILE], MGLRU_EXACT() values. */
struct mglru_seqs {
	long max, anon, file;
};

#define MGLRU_SEQS(max612, anon612, file612, max73, anon73, file73)	\
	{ MGLRU_EXACT(max612, max73), MGLRU_EXACT(anon612, anon73),	\
	  MGLRU_EXACT(file612, file73) }

/*
 * The sequence numbers of the test memcg's lruvec: it starts at max_seq
 * MIN_NR_GENS + 1 = 3 and min_seq[] 0 (lru_gen_init_lruvec()); each aging
 * is one more max_seq (inc_max_seq()), and a type's min_seq moves up as its
 * oldest generation empties (try_to_inc_min_seq(); on 6.12 anon's no
 * further than file's), or with the aging itself (inc_min_seq()).
 */
static void expect_seqs(struct kunit *test, struct lrutest_memcg *cg,
			const struct mglru_seqs *want, const char *what)
{
#ifdef CONFIG_LRU_GEN
	struct lru_gen_folio *lrugen = &cg->lruvec->lrugen;
	long max_seq = READ_ONCE(lrugen->max_seq);
	long min_anon = READ_ONCE(lrugen->min_seq[LRU_GEN_ANON]);
	long min_file = READ_ONCE(lrugen->min_seq[LRU_GEN_FILE]);

	if (!MGLRU_KNOWN)
		return;
	KUNIT_EXPECT_EQ_MSG(test, max_seq, want->max, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, min_anon, want->anon, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, min_file, want->file, "%s", what);
#endif
}

struct mglru_type_row {
	const char *desc;
	bool swap;
	int swappiness;
	bool cache;		/* 128 page cache folios beside the anon ones */
	bool aged;		/* a reclaim at MAX_SWAPPINESS first: anon made old */
	bool anon_scanned;	/* expected: PGSCAN_ANON moves */
	long steal_anon;	/* expected PGSTEAL_ANON, or MGLRU_UNKNOWN */
	long steal_file;	/* expected PGSTEAL_FILE, or MGLRU_UNKNOWN */
	struct mglru_seqs before, after;	/* around the reclaim */
};

/*
 * Without swap (or at swappiness 0) anon cannot be evicted and eviction
 * must not look at it, even with nothing else to evict.  With swap and
 * MAX_SWAPPINESS: eviction takes from the oldest generation of a type
 * (min_seq[]), and anon just faulted went to the youngest generations
 * while page cache read in went to an older one, so file goes first
 * whatever the swappiness; with no page cache, the aging makes anon old enough and
 * anon is scanned.  Swappiness 0 keeps eviction off anon even once anon
 * is in the oldest generations (after a reclaim that aged and evicted it).
 *
 * That is 6.12.  In 7.3 (MGLRU_ANON_FIRST) MAX_SWAPPINESS means anon first
 * whatever the ages: the page cache in generations older than anon's is
 * left while anon is swapped out, once the aging gave anon a generation to
 * evict.  Exact counts: 6.12 reclaims one batch of MIN_LRU_BATCH (64); 7.3
 * reclaims evictable >> priority per priority, 1 + 1 + 3 + 7 + 14 + 25 = 51
 * of 128, and at swappiness 200 with page cache takes file only before the
 * aging: the 4 page cache folios in the oldest file generation (each 31st
 * read fills the per-CPU lru_add batch and is listed before
 * folio_mark_accessed(), so lru_gen_folio_seq() puts it one generation
 * below the rest), then 1 + 7 + 15 + 28 = 51 anon.
 *
 * The sequence numbers (expect_seqs()), fresh at (3, 0, 0) but after the
 * set-up reclaim of the aged row: 6.12 ages only where two anon
 * generations empty (no page cache at 200, and the aged row's set-up):
 * (4, 2, 2); evicting file it leaves file's min_seq past the emptied
 * oldest generation, (3, 0, 1), with anon's held at or below it, and
 * (3, 1, 1) at 200.  7.3 ages whenever, below the default priority, the
 * oldest evictable generation is MIN_NR_GENS below max_seq: once when the
 * oldest file generation empties (4, 1, 1: inc_min_seq() moves anon's too;
 * at 200, (4, 2, 1)), twice with no page cache at 200 (5, 2, 3).  Rows
 * that evict nothing move nothing.
 */
static const struct mglru_type_row mglru_type_rows[] = {
	{ "no swap, swappiness 60", false, 60, true, false, false,
	  MGLRU_EXACT(0, 0), MGLRU_EXACT(64, 51),
	  MGLRU_SEQS(3, 0, 0, 3, 0, 0), MGLRU_SEQS(3, 0, 1, 4, 1, 1) },
	{ "no swap, swappiness 200", false, 200, true, false, false,
	  MGLRU_EXACT(0, 0), MGLRU_EXACT(64, 51),
	  MGLRU_SEQS(3, 0, 0, 3, 0, 0), MGLRU_SEQS(3, 0, 1, 4, 1, 1) },
	{ "no swap, swappiness 200, no page cache", false, 200, false, false, false,
	  MGLRU_EXACT(0, 0), MGLRU_EXACT(0, 0),
	  MGLRU_SEQS(3, 0, 0, 3, 0, 0), MGLRU_SEQS(3, 0, 0, 3, 0, 0) },
	{ "swap, swappiness 0", true, 0, true, false, false,
	  MGLRU_EXACT(0, 0), MGLRU_EXACT(64, 51),
	  MGLRU_SEQS(3, 0, 0, 3, 0, 0), MGLRU_SEQS(3, 0, 1, 4, 1, 1) },
	{ "swap, swappiness 0, anon aged, no page cache", true, 0, false, true, false,
	  MGLRU_EXACT(0, 0), MGLRU_EXACT(0, 0),
	  MGLRU_SEQS(4, 2, 2, 5, 2, 3), MGLRU_SEQS(4, 2, 2, 5, 2, 3) },
	{ "swap, swappiness 200", true, 200, true, false, MGLRU_ANON_FIRST,
	  MGLRU_EXACT(0, 51), MGLRU_EXACT(64, 4),
	  MGLRU_SEQS(3, 0, 0, 3, 0, 0), MGLRU_SEQS(3, 1, 1, 4, 2, 1) },
	{ "swap, swappiness 200, no page cache", true, 200, false, false, true,
	  MGLRU_EXACT(64, 51), MGLRU_EXACT(0, 0),
	  MGLRU_SEQS(3, 0, 0, 3, 0, 0), MGLRU_SEQS(4, 2, 2, 5, 2, 3) },
};

KUNIT_ARRAY_PARAM_DESC(mglru_type, mglru_type_rows, desc);

/* Anon pages on the test memcg's generation lists, walked. */
static unsigned long anon_walked(struct lrutest_memcg *cg)
{
	return lrutest_memcg_walk(cg, LRU_INACTIVE_ANON) +
	       lrutest_memcg_walk(cg, LRU_ACTIVE_ANON);
}

/*
 * 128 anon folios left unused since they were written, and 128 page cache
 * folios read twice if the row says so; one reclaim of 32 at the row's
 * swappiness: anon is scanned only if the row says so, and what is
 * reclaimed leaves the lists.
 */
static void mglru_eviction_type_follows_swap_and_swappiness(struct kunit *test)
{
	const struct mglru_type_row *row = test->param_value;
	struct lrutest_reclaim_stat b, a;
	unsigned long reclaimed, scan_anon, nr_anon;
	struct lrutest_memcg *cg;
	struct file *file;

	lrutest_swap(test, row->swap);
	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	lrutest_memcg_anon(test, NR_ANON, true);
	if (row->cache)
		lrutest_memcg_read(test, cg, file, 0, NR_CACHE, 2);
	lrutest_drain();

	if (row->aged)
		KUNIT_ASSERT_GE_MSG(test, lrutest_memcg_reclaim(cg, TO_RECLAIM, MAX_SWAPPINESS),
				    TO_RECLAIM, "set up: reclaim that ages and evicts anon");
	lrutest_memcg_stat(cg, &b);
	nr_anon = lrutest_stat_anon(&b);
	if (!row->aged)
		KUNIT_ASSERT_EQ_MSG(test, nr_anon, NR_ANON, "set up: anon pages of the memcg");
	KUNIT_ASSERT_EQ_MSG(test, anon_walked(cg), nr_anon,
			    "set up: anon pages on the generation lists, walked");
	KUNIT_ASSERT_EQ_MSG(test, lrutest_stat_file(&b), row->cache ? NR_CACHE : 0,
			    "set up: file pages of the memcg");

	expect_seqs(test, cg, &row->before, "set up");

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, row->swappiness);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, row->desc, &b, &a);
	expect_seqs(test, cg, &row->after, "after the reclaim");

	scan_anon = a.scan_anon - b.scan_anon;
	if (MGLRU_KNOWN)
		KUNIT_EXPECT_EQ_MSG(test, (long)reclaimed, row->steal_anon + row->steal_file,
				    "reclaimed");
	else if (row->cache || row->anon_scanned)
		KUNIT_EXPECT_GE_MSG(test, reclaimed, TO_RECLAIM, "reclaimed");
	else
		KUNIT_EXPECT_EQ_MSG(test, reclaimed, 0UL, "nothing evictable, nothing reclaimed");
	KUNIT_EXPECT_EQ_MSG(test, scan_anon != 0, row->anon_scanned,
			    "anon scanned: %lu pages", scan_anon);
	lrutest_memcg_expect_stolen(test, reclaimed, &b, &a);
	if (!row->anon_scanned) {
		KUNIT_EXPECT_EQ_MSG(test, anon_walked(cg), nr_anon,
				    "anon pages still on the memcg's generation lists, walked");
		KUNIT_EXPECT_EQ_MSG(test, a.steal_file - b.steal_file, reclaimed,
				    "everything reclaimed was file");
	}
#ifdef CONFIG_LRU_GEN
	if (MGLRU_ANON_FIRST && row->cache && row->anon_scanned)
		KUNIT_EXPECT_LE_MSG(test, READ_ONCE(cg->lruvec->lrugen.min_seq[LRU_GEN_FILE]),
				    READ_ONCE(cg->lruvec->lrugen.min_seq[LRU_GEN_ANON]),
				    "anon swapped out, page cache as old or older left");
#endif
	if (MGLRU_KNOWN) {
		KUNIT_EXPECT_EQ_MSG(test, (long)(a.steal_anon - b.steal_anon), row->steal_anon,
				    "PGSTEAL_ANON");
		KUNIT_EXPECT_EQ_MSG(test, (long)(a.steal_file - b.steal_file), row->steal_file,
				    "PGSTEAL_FILE");
	}
	lrutest_vm_end(test);
}

/*
 * 128 anon folios made cold together (MADV_COLD: one generation, accessed
 * bits clear), then the first 64 used again (young PTEs).  The used ones
 * went to the generation first, so they are the first an LRU that ignored
 * accesses would evict.  Reclaim of 32 with swap, at MAX_SWAPPINESS:
 * every used folio is kept, mapped and listed in the youngest generation
 * (the aging found its young PTE), younger than every unused folio left;
 * what is reclaimed is unused, swapped out: all 64 of them.
 *
 * In 7.3 (LRUTEST_HAS_MGLRU_PROMOTE_2ND) a young PTE promotes on the second
 * access only, and MADV_COLD forgets the first: the used half keeps the
 * PG_referenced of its fault (the first access) and gets a young PTE (the
 * second), only the unused half is made cold.  The first two used folios,
 * isolated together (nr_to_scan 2), are activated by their own rmap walk
 * (lru_gen_set_refs(): max_seq - 1); the look-around of the first promotes
 * the other 62 to max_seq (folio_update_gen(), PG_workingset); one more
 * aging follows: the oldest used folio is 2 generations old.
 *
 * The sequence numbers: 6.12 empties the two anon generations below the
 * youngest, ages once (max_seq 4) and, evicting the rest of the unused
 * ones, leaves min_seq[] at 3; 7.3 ages twice (max_seq 5: each time the
 * oldest evictable generation was MIN_NR_GENS below max_seq), and leaves
 * anon's min_seq at 3, where the two activated folios are, and file's at 4.
 */
static void mglru_reclaim_promotes_used_anon_and_evicts_unused(struct kunit *test)
{
	static const struct mglru_seqs fresh = MGLRU_SEQS(3, 0, 0, 3, 0, 0);
	static const struct mglru_seqs aged = MGLRU_SEQS(4, 3, 3, 5, 3, 4);
	struct lrutest_reclaim_stat b, a;
	unsigned long addr, i, reclaimed, used_kept = 0, unused_gone = 0;
	int age, oldest_used = -1, youngest_unused = INT_MAX;
	struct lrutest_memcg *cg;

	lrutest_swap_on(test);
	cg = lrutest_memcg_create(test);
#ifdef LRUTEST_HAS_MGLRU_PROMOTE_2ND
	addr = lrutest_memcg_anon(test, NR_ANON, false);
	/* The folios are on the LRU (drained): MADV_COLD finds them. */
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr + NR_USED * PAGE_SIZE,
					 (NR_ANON - NR_USED) * PAGE_SIZE, MADV_COLD), 0);
#else
	addr = lrutest_memcg_anon(test, NR_ANON, true);
#endif
	for (i = 0; i < NR_USED; i++)
		lrutest_user_touch(test, addr + i * PAGE_SIZE);
	lrutest_drain();

	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ_MSG(test, lrutest_stat_anon(&b), NR_ANON,
			    "set up: anon pages of the memcg");
	expect_seqs(test, cg, &fresh, "set up");
	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, MAX_SWAPPINESS);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "used and unused anon", &b, &a);
	expect_seqs(test, cg, &aged, "after the reclaim");

	for (i = 0; i < NR_ANON; i++) {
		age = lrutest_memcg_gen_at(cg, addr + i * PAGE_SIZE);
		if (i < NR_USED) {
			KUNIT_EXPECT_GE_MSG(test, age, 0,
					    "used page %lu: not on a generation list (%d)", i, age);
			used_kept += age >= 0;
			oldest_used = max(oldest_used, age);
		} else if (age == -ENOENT) {
			unused_gone++;
		} else {
			KUNIT_EXPECT_GE_MSG(test, age, 0,
					    "unused page %lu: mapped but not listed", i);
			youngest_unused = min(youngest_unused, age);
		}
	}
	kunit_info(test, "reclaimed %lu: used kept %lu (oldest generation age %d), unused gone %lu (youngest left %d)\n",
		   reclaimed, used_kept, oldest_used, unused_gone, youngest_unused);
	KUNIT_EXPECT_EQ_MSG(test, used_kept, NR_USED, "used folios kept on the lists");
	if (MGLRU_KNOWN) {
		KUNIT_EXPECT_EQ_MSG(test, (long)oldest_used, MGLRU_EXACT(0, 2),
				    "oldest generation of a used folio, 0 = the youngest");
		KUNIT_EXPECT_EQ_MSG(test, reclaimed, NR_ANON - NR_USED,
				    "reclaimed: every unused folio");
	} else {
		KUNIT_EXPECT_GE_MSG(test, reclaimed, TO_RECLAIM, "reclaimed");
	}
	KUNIT_EXPECT_EQ_MSG(test, unused_gone, reclaimed, "unused folios swapped out");
	KUNIT_EXPECT_EQ_MSG(test, a.pswpout - b.pswpout, reclaimed, "PSWPOUT");
	KUNIT_EXPECT_EQ_MSG(test, lrutest_stat_anon(&b) - lrutest_stat_anon(&a), reclaimed,
			    "anon pages gone from the memcg's generations");
	if (youngest_unused != INT_MAX)
		KUNIT_EXPECT_LT_MSG(test, oldest_used, youngest_unused,
				    "used folios are in younger generations than unused ones");
	lrutest_vm_end(test);
}

#ifdef CONFIG_LRU_GEN
/*
 * Tiers (the comments above MAX_NR_TIERS and LRU_REFS_FLAGS): each read
 * through the file marks an access, PG_referenced on the first, then
 * PG_workingset and the LRU_REFS_WIDTH bits (6.12's folio_inc_refs()), or
 * the LRU_REFS_WIDTH bits and PG_workingset (7.3's lru_gen_inc_refs()):
 * five reads set them all.
 * sort_folio() moves a folio of the oldest generation to the next instead
 * of evicting it if its tier is above the one refaults protect
 * (get_tier_idx(): none, in a memcg that has seen no refault) or if every
 * bit is set ("mm/mglru: fix underprotected page cache").  64 pages read
 * five times, then 64 read once: one reclaim of 32 keeps every page read
 * five times and reclaims pages read once only.  Each protected folio
 * counts in PGREFILL (scan_folios(): the folios sorted), all 64.  6.12
 * evicts one batch of MIN_LRU_BATCH (64) read once.  7.3 evicts
 * evictable >> priority a call, from the oldest generation: there, of each
 * pass of reads, the two folios that filled this CPU's lru_add batch (its
 * 31st and 62nd) were listed before folio_mark_accessed() and so one
 * generation below the rest (lru_gen_folio_seq()).  Priority 7 protects one
 * page read five times, 6 a second and evicts a page read once, 5 evicts
 * the other, which empties that generation, ages (a new max_seq) and
 * protects 2 more; 4, 3 and 2 protect 7, 15 and 31, and 1 (63 to scan) the
 * last 7, then evicts 56 read once: 58, and 32 reclaimed ends the reclaim.
 * Protection spends the accesses: folio_inc_gen() clears the LRU_REFS bits
 * and PG_referenced of each folio it moves on, and on 6.12 PG_workingset
 * too (one of its LRU_REFS_FLAGS), so there each is a page read never
 * again; 7.3 keeps PG_workingset, which leaves the folio in the top tier
 * (lru_tier_from_refs()).
 */
static void mglru_reclaim_protects_page_cache_read_five_times(struct kunit *test)
{
	const unsigned long nr_hot = 64, nr_cold = 64;
	const long want = MGLRU_EXACT(64, 58);
	struct lrutest_reclaim_stat b, a;
	unsigned long reclaimed, index;
	struct lrutest_memcg *cg;
	struct file *file;

	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	lrutest_memcg_read(test, cg, file, 0, nr_hot, 5);
	lrutest_memcg_read(test, cg, file, nr_hot, nr_cold, 1);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, lrutest_stat_file(&b), nr_hot + nr_cold);

	reclaimed = lrutest_memcg_reclaim(cg, TO_RECLAIM, -1);
	lrutest_memcg_stat(cg, &a);
	lrutest_memcg_log(test, "page cache read five times, then once", &b, &a);

	KUNIT_EXPECT_EQ_MSG(test, lrutest_page_cache_slots(file, 0, nr_hot, LRUTEST_SLOT_CACHED),
			    nr_hot, "pages read five times still cached");
	KUNIT_EXPECT_EQ_MSG(test,
			    lrutest_page_cache_slots(file, nr_hot, nr_cold, LRUTEST_SLOT_SHADOW),
			    reclaimed, "pages read once evicted");
	KUNIT_EXPECT_EQ_MSG(test, a.refill - b.refill, nr_hot, "PGREFILL: the folios protected");
	for (index = 0; index < nr_hot; index++) {
		struct folio *folio = filemap_get_folio(file->f_mapping, index);
		unsigned long refs;

		KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
		refs = lrutest_folio_flags(folio) & LRU_REFS_MASK;
		KUNIT_EXPECT_EQ_MSG(test, refs, 0UL, "LRU_REFS bits of protected page %lu", index);
		KUNIT_EXPECT_FALSE_MSG(test, folio_test_referenced(folio),
				       "PG_referenced of protected page %lu", index);
		if (MGLRU_KNOWN)
			KUNIT_EXPECT_EQ_MSG(test, (long)folio_test_workingset(folio),
					    MGLRU_EXACT(0, 1),
					    "PG_workingset of protected page %lu", index);
		folio_put(folio);
	}
	KUNIT_EXPECT_EQ(test, a.steal_file - b.steal_file, reclaimed);
	KUNIT_EXPECT_EQ(test, lrutest_stat_file(&b) - lrutest_stat_file(&a), reclaimed);
	if (want != MGLRU_UNKNOWN)
		KUNIT_EXPECT_EQ(test, (long)reclaimed, want);
	else
		KUNIT_EXPECT_GE(test, reclaimed, TO_RECLAIM);
	lrutest_vm_end(test);
}

/*
 * lru_gen_refault() (mm/workingset.c): the shadow entry of an evicted page
 * cache folio keeps its tier (lru_gen_eviction()).  A refault counts
 * WORKINGSET_REFAULT; a recent one (lru_gen_test_recent(): evicted from
 * the current min_seq on 6.12, within MAX_NR_GENS generations on 7.3) also
 * counts one refault in that tier's lrugen->refaulted[], which
 * get_tier_idx() weighs.  A page read four times is in tier 2
 * (order_base_2(4)), not protected: 64 of them, one reclaim of 32, the
 * first evicted page read again at once.  6.12 counts every recent refault
 * in WORKINGSET_ACTIVATE and restores this one as a stall
 * (refs >= BIT(LRU_REFS_WIDTH) - 1: PG_workingset and every LRU_REFS bit
 * set, WORKINGSET_RESTORE +1); 7.3 counts neither for a read and restores
 * only a folio evicted with PG_workingset, which four reads do not set
 * (the fifth does): it gives back the LRU_REFS bits, which the read's own
 * mark of the access then starts over.
 */
static void mglru_refault_of_page_cache_read_four_times_counts_in_its_tier(struct kunit *test)
{
	const unsigned long nr = 64;
	const int tier = 2;
	struct lrutest_workingset s0, s1;
	struct lrutest_memcg *cg;
	struct lru_gen_folio *lrugen;
	struct folio *folio;
	unsigned long index;
	long refaulted;
	struct file *file;
	int hist;

	cg = lrutest_memcg_create(test);
	file = lrutest_ramdisk(test, 1);
	lrutest_memcg_read(test, cg, file, 0, nr, 4);
	KUNIT_ASSERT_GE(test, lrutest_memcg_reclaim(cg, TO_RECLAIM, -1), TO_RECLAIM);
	for (index = 0; index < nr; index++)
		if (lrutest_page_cache_slots(file, index, 1, LRUTEST_SLOT_SHADOW))
			break;
	KUNIT_ASSERT_LT_MSG(test, index, nr, "set up: no page evicted with a shadow entry");

	lrugen = &cg->lruvec->lrugen;
	hist = lru_hist_from_seq(READ_ONCE(lrugen->min_seq[LRU_GEN_FILE]));
	refaulted = atomic_long_read(&lrugen->refaulted[hist][LRU_GEN_FILE][tier]);
	lrutest_memcg_workingset(cg, &s0);
	lrutest_memcg_read(test, cg, file, index, 1, 1);
	lrutest_memcg_workingset(cg, &s1);

	KUNIT_EXPECT_EQ(test, s1.refault - s0.refault, 1UL);
	refaulted = atomic_long_read(&lrugen->refaulted[hist][LRU_GEN_FILE][tier]) - refaulted;
	KUNIT_EXPECT_EQ_MSG(test, refaulted, 1L, "refaults of tier %d", tier);
	folio = filemap_get_folio(file->f_mapping, index);
	KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
	KUNIT_EXPECT_TRUE(test, folio_test_referenced(folio));
	if (MGLRU_KNOWN) {
		KUNIT_EXPECT_EQ(test, (long)folio_test_workingset(folio), MGLRU_EXACT(1, 0));
		KUNIT_EXPECT_EQ(test, (long)(lrutest_folio_flags(folio) & LRU_REFS_MASK),
				MGLRU_EXACT(LRU_REFS_MASK, 0));
		KUNIT_EXPECT_EQ(test, (long)(s1.restore - s0.restore), MGLRU_EXACT(1, 0));
		KUNIT_EXPECT_EQ(test, (long)(s1.activate - s0.activate), MGLRU_EXACT(1, 0));
	}
	folio_put(folio);
	lrutest_vm_end(test);
}

/*
 * The feedback loop of the multi-gen LRU (the comment above
 * positive_ctrl_err()): a type or tier is the PV, compared with the SP, and
 * the PV is evicted (a positive error) while it has fewer than
 * MIN_LRU_BATCH refaults or refaults no more, per folio evicted, than the
 * SP once both are weighted by their gains:
 * pv.refaulted * (sp.total + MIN_LRU_BATCH) * sp.gain <=
 * (sp.refaulted + 1) * pv.total * pv.gain.  Here refaulted and total are
 * the refaults and evictions each row sets, in the oldest generation's
 * history (refaulted[], evicted[]) of a new memcg, whose averages and
 * protected counts are 0.  MIN_LRU_BATCH is BITS_PER_LONG, 64.
 */
#define HIST_TIERS	3	/* the tiers a row sets: 0, 1 and 2 */

struct ctrl_history {
	unsigned long refaulted[ANON_AND_FILE][HIST_TIERS];
	unsigned long evicted[ANON_AND_FILE][HIST_TIERS];
};

/* Set @h as the history of @lruvec's oldest generations. */
static void set_ctrl_history(struct kunit *test, struct lruvec *lruvec,
			     const struct ctrl_history *h)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int type, tier;

	for (type = 0; type < ANON_AND_FILE; type++) {
		int hist = lru_hist_from_seq(READ_ONCE(lrugen->min_seq[type]));

		for (tier = 0; tier < MAX_NR_TIERS; tier++) {
			atomic_long_t *refaulted = &lrugen->refaulted[hist][type][tier];
			atomic_long_t *evicted = &lrugen->evicted[hist][type][tier];

			KUNIT_ASSERT_EQ(test, lrugen->avg_refaulted[type][tier], 0UL);
			KUNIT_ASSERT_EQ(test, lrugen->avg_total[type][tier], 0UL);
			KUNIT_ASSERT_EQ(test, atomic_long_read(refaulted), 0L);
			KUNIT_ASSERT_EQ(test, atomic_long_read(evicted), 0L);
		}
		/* MAX_NR_TIERS - 1 entries on 6.12, MAX_NR_TIERS on 7.3. */
		for (tier = 0; tier < (int)ARRAY_SIZE(lrugen->protected[hist][type]); tier++)
			KUNIT_ASSERT_EQ(test, lrugen->protected[hist][type][tier], 0UL);
		for (tier = 0; tier < HIST_TIERS; tier++) {
			atomic_long_set(&lrugen->refaulted[hist][type][tier],
					h->refaulted[type][tier]);
			atomic_long_set(&lrugen->evicted[hist][type][tier], h->evicted[type][tier]);
		}
	}
}

/*
 * Which version of the comparison the kernel has: 6.12's get_type_to_scan()
 * compares the first tiers of anon and file and also returns the last tier
 * to evict (LRUTEST_HAS_TYPE_TO_SCAN_TIER, its declaration in
 * mm/internal.h); 7.3's compares the sums of all tiers and leaves the tier
 * to get_tier_idx().  Index into a row's expectations.
 */
#ifdef LRUTEST_HAS_TYPE_TO_SCAN_TIER
#define CTRL_OF		0
static int type_to_scan(struct lruvec *lruvec, int swappiness)
{
	int tier;

	return get_type_to_scan(lruvec, swappiness, &tier);
}
#else
#define CTRL_OF		1
static int type_to_scan(struct lruvec *lruvec, int swappiness)
{
	return get_type_to_scan(lruvec, swappiness);
}
#endif

struct type_choice_row {
	const char *desc;
	int swappiness;
	struct ctrl_history h;
	int type[2];	/* LRU_GEN_ANON or LRU_GEN_FILE: 6.12's choice, 7.3's */
};

#define ANON_FILE(a, f)	{ { a }, { f } }

/*
 * With swap and a swappiness between MIN_SWAPPINESS + 1 and MAX_SWAPPINESS
 * (below and above, 6.12's isolate_folios() chooses without calling
 * get_type_to_scan(), and 7.3's get_type_to_scan() returns early), anon is
 * the SP with gain swappiness and file the PV with gain MAX_SWAPPINESS -
 * swappiness: file is evicted unless its refaults say otherwise.  With
 * both types refaulting 64 of 128 evicted, the rule keeps file up to
 * swappiness 80 (64 * 192 * 80 = 983040 <= 65 * 128 * 120 = 998400) and
 * takes anon from 81 (995328 > 990080).
 */
static const struct type_choice_row type_choice_rows[] = {
	{ "no refaults, swappiness 60: file", 60, {}, { LRU_GEN_FILE, LRU_GEN_FILE } },
	{ "no refaults, swappiness 199: file", 199, {}, { LRU_GEN_FILE, LRU_GEN_FILE } },
	{ "file 63 refaults of 64, anon none of 1024: file, 63 < MIN_LRU_BATCH", 100,
	  { ANON_FILE(0, 63), ANON_FILE(1024, 64) }, { LRU_GEN_FILE, LRU_GEN_FILE } },
	{ "file 64 refaults of 128, anon none of 128: anon", 100,
	  { ANON_FILE(0, 64), ANON_FILE(128, 128) }, { LRU_GEN_ANON, LRU_GEN_ANON } },
	{ "both 64 refaults of 128, swappiness 80: file", 80,
	  { ANON_FILE(64, 64), ANON_FILE(128, 128) }, { LRU_GEN_FILE, LRU_GEN_FILE } },
	{ "both 64 refaults of 128, swappiness 81: anon", 81,
	  { ANON_FILE(64, 64), ANON_FILE(128, 128) }, { LRU_GEN_ANON, LRU_GEN_ANON } },
	{ "anon 128 refaults of 256, file 64 of 256: file", 100,
	  { ANON_FILE(128, 64), ANON_FILE(256, 256) }, { LRU_GEN_FILE, LRU_GEN_FILE } },
	/*
	 * File's refaults in tier 1 only: 6.12 compares tier 0 (no file
	 * refaults: file), 7.3 the sums (64 of 192 against none of 128: anon).
	 */
	{ "file 64 refaults of 64 in tier 1, none of 128 in tier 0, anon none of 128", 100,
	  { { { 0 }, { 0, 64 } }, { { 128 }, { 128, 64 } } },
	  { LRU_GEN_FILE, LRU_GEN_ANON } },
};

KUNIT_ARRAY_PARAM_DESC(type_choice, type_choice_rows, desc);

static void get_type_to_scan_evicts_the_type_that_refaults_less(struct kunit *test)
{
	const struct type_choice_row *row = test->param_value;
	struct lrutest_memcg *cg;

	if (MIN_LRU_BATCH != 64)
		kunit_skip(test, "MIN_LRU_BATCH is BITS_PER_LONG: the rows are for 64 bits");
	cg = lrutest_memcg_create(test);
	set_ctrl_history(test, cg->lruvec, &row->h);
	KUNIT_EXPECT_EQ(test, type_to_scan(cg->lruvec, row->swappiness), row->type[CTRL_OF]);
}

struct tier_choice_row {
	const char *desc;
	unsigned long refaulted[HIST_TIERS];	/* of file, by tier */
	unsigned long evicted[HIST_TIERS];
	int tier[2];	/* the last tier evicted: 6.12's, 7.3's */
};

/*
 * get_tier_idx(): tier 0 of a type is the SP, each higher tier in turn the
 * PV, and eviction stops below the first tier that refaults more than tier
 * 0 (those from it up are protected).  The gains leave a margin: 1 and 2
 * in 6.12, 2 and 3 in 7.3.  So with tier 0 at 64 refaults of 128, tier 1
 * at 80 of 128 is evicted in 6.12 (80 * 192 * 1 = 15360 <= 65 * 128 * 2 =
 * 16640) and protected in 7.3 (30720 > 24960); at 64 of 128 it is evicted
 * in both (7.3: 24576 <= 24960).
 */
static const struct tier_choice_row tier_choice_rows[] = {
	{ "no refaults: every tier evicted", {}, {}, { 3, 3 } },
	{ "tier 1 64 refaults of 64, tier 0 none of 128: tier 1 protected",
	  { 0, 64 }, { 128, 64 }, { 0, 0 } },
	{ "tier 2 64 refaults of 64, tiers 0 and 1 none: tier 2 protected",
	  { 0, 0, 64 }, { 128, 128, 64 }, { 1, 1 } },
	{ "tiers 0 and 1 64 refaults of 128: every tier evicted",
	  { 64, 64 }, { 128, 128 }, { 3, 3 } },
	{ "tier 0 64 refaults of 128, tier 1 80 of 128: the gains decide",
	  { 64, 80 }, { 128, 128 }, { 3, 0 } },
};

KUNIT_ARRAY_PARAM_DESC(tier_choice, tier_choice_rows, desc);

static void get_tier_idx_protects_the_tiers_that_refault_more(struct kunit *test)
{
	const struct tier_choice_row *row = test->param_value;
	struct ctrl_history h = {};
	struct lrutest_memcg *cg;

	if (MIN_LRU_BATCH != 64)
		kunit_skip(test, "MIN_LRU_BATCH is BITS_PER_LONG: the rows are for 64 bits");
	cg = lrutest_memcg_create(test);

	memcpy(h.refaulted[LRU_GEN_FILE], row->refaulted, sizeof(row->refaulted));
	memcpy(h.evicted[LRU_GEN_FILE], row->evicted, sizeof(row->evicted));
	set_ctrl_history(test, cg->lruvec, &h);
	KUNIT_EXPECT_EQ(test, get_tier_idx(cg->lruvec, LRU_GEN_FILE), row->tier[CTRL_OF]);
}
#else
static void mglru_reclaim_protects_page_cache_read_five_times(struct kunit *test)
{
	kunit_skip(test, "CONFIG_LRU_GEN is off: no multi-gen LRU");
}

static void mglru_refault_of_page_cache_read_four_times_counts_in_its_tier(struct kunit *test)
{
	kunit_skip(test, "CONFIG_LRU_GEN is off: no multi-gen LRU");
}

static const char *const no_rows[] = { "CONFIG_LRU_GEN is off" };

static void no_row_desc(const char *const *row, char *desc)
{
	strscpy(desc, *row, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(type_choice, no_rows, no_row_desc);
KUNIT_ARRAY_PARAM(tier_choice, no_rows, no_row_desc);

static void get_type_to_scan_evicts_the_type_that_refaults_less(struct kunit *test)
{
	kunit_skip(test, "CONFIG_LRU_GEN is off: no multi-gen LRU");
}

static void get_tier_idx_protects_the_tiers_that_refault_more(struct kunit *test)
{
	kunit_skip(test, "CONFIG_LRU_GEN is off: no multi-gen LRU");
}
#endif

static struct kunit_case reclaim_mglru_cases[] = {
	KUNIT_CASE_PARAM(mglru_eviction_type_follows_swap_and_swappiness,
			 mglru_type_gen_params),
	KUNIT_CASE(mglru_reclaim_promotes_used_anon_and_evicts_unused),
	KUNIT_CASE(mglru_reclaim_protects_page_cache_read_five_times),
	KUNIT_CASE(mglru_refault_of_page_cache_read_four_times_counts_in_its_tier),
	KUNIT_CASE_PARAM(get_type_to_scan_evicts_the_type_that_refaults_less,
			 type_choice_gen_params),
	KUNIT_CASE_PARAM(get_tier_idx_protects_the_tiers_that_refault_more,
			 tier_choice_gen_params),
	{}
};

static struct kunit_suite reclaim_mglru_suite = {
	.name = "mm_reclaim_mglru",
	.init = lrutest_memcg_mglru_init,
	.test_cases = reclaim_mglru_cases,
};

kunit_test_suite(reclaim_mglru_suite);

MODULE_DESCRIPTION("KUnit tests of multi-gen LRU reclaim on a test memcg");
MODULE_LICENSE("GPL");
