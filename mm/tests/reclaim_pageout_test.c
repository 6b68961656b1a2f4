// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of madvise(MADV_PAGEOUT) and the unevictable LRU.
 *
 * MADV_PAGEOUT reclaims the folios of a range at once: madvise_pageout()
 * refuses a VM_LOCKED VMA (can_madv_lru_vma()), and otherwise isolates each
 * folio mapped only there and hands the list to reclaim_pages() ->
 * shrink_folio_list().  What reclaim cannot evict it culls
 * (Documentation/mm/unevictable-lru.rst, "Vmscan's handling of unevictable
 * folios"): a folio of an SHM_LOCKed segment, still on the anon list, is
 * put back (folio_putback_lru()) and lru_add() moves it to LRU_UNEVICTABLE.
 * Once rescued (SHM_UNLOCK, munlock), the same folios are evictable again:
 * they leave the memcg's unevictable count and MADV_PAGEOUT swaps them out.
 * MADV_FREE refuses a VM_LOCKED VMA too; elsewhere it makes anon folios
 * lazyfree (clean, no longer swap-backed, on the file LRU), and reclaim
 * then drops them without swap, unless they were written again
 * (try_to_unmap_one() makes them swap-backed again) or someone else holds
 * a reference.
 *
 * Swap is a RAM disk (brd, a synchronous block device), so that a folio
 * written out is clean when shrink_folio_list() looks at it again and is
 * freed in the same call.
 */
#include <kunit/test.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/shm.h>
#include <linux/shmem_fs.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <uapi/linux/shm.h>

#include "lrutest.h"
#include "lrutest_memcg.h"
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define NR_PAGES	16UL

/* madvise(MADV_PAGEOUT) of @pages at @addr in the case's mm. */
static int pageout(unsigned long addr, unsigned long pages)
{
	lrutest_step();
	return do_madvise(current->mm, addr, pages * PAGE_SIZE, MADV_PAGEOUT);
}

/* A segment of NR_PAGES pages, attached and written to, locked or not. */
static struct lrutest_shm *segment(struct kunit *test, bool locked)
{
	struct lrutest_shm *seg = lrutest_shm_create(test, NR_PAGES);

	lrutest_shm_attach(test, seg);
	lrutest_shm_touch(test, seg);
	if (locked)
		KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_LOCK), 0L);
	return seg;
}

/* madvise(MADV_FREE) of @pages at @addr in the case's mm. */
static int lazyfree(unsigned long addr, unsigned long pages)
{
	lrutest_step();
	return do_madvise(current->mm, addr, pages * PAGE_SIZE, MADV_FREE);
}

struct locked_row {
	const char *desc;
	int flags;		/* of mlock2() */
	int advice;		/* MADV_PAGEOUT, MADV_COLD or MADV_FREE */
};

static const struct locked_row locked_rows[] = {
	{ "MADV_PAGEOUT of mlock()", 0, MADV_PAGEOUT },
	{ "MADV_COLD of mlock()", 0, MADV_COLD },
	{ "MADV_COLD of mlock2(MLOCK_ONFAULT)", MLOCK_ONFAULT, MADV_COLD },
	{ "MADV_PAGEOUT of mlock2(MLOCK_ONFAULT)", MLOCK_ONFAULT, MADV_PAGEOUT },
	{ "MADV_FREE of mlock()", 0, MADV_FREE },
	{ "MADV_FREE of mlock2(MLOCK_ONFAULT)", MLOCK_ONFAULT, MADV_FREE },
};

KUNIT_ARRAY_PARAM_DESC(locked, locked_rows, desc);

/*
 * No MADV_PAGEOUT or MADV_COLD (can_madv_lru_vma()) and no MADV_FREE
 * (madvise_dontneed_free_valid_vma(): only MADV_DONTNEED_LOCKED may drop
 * locked pages) of a VM_LOCKED VMA, VM_LOCKONFAULT too: -EINVAL before any
 * folio is looked at, so every folio stays mlocked on LRU_UNEVICTABLE,
 * mapped, with no reference taken or dropped, and no count moves.
 */
static void madvise_refuses_a_locked_vma(struct kunit *test)
{
	const struct locked_row *row = test->param_value;
	unsigned long addr = lrutest_mmap_anon(test, NR_PAGES, true), i;
	struct lrutest_stat before;
	int ret;

	KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, NR_PAGES * PAGE_SIZE, row->flags), 0L);
	lrutest_stat(&before);

	if (row->advice == MADV_PAGEOUT)
		ret = pageout(addr, NR_PAGES);
	else if (row->advice == MADV_FREE)
		ret = lazyfree(addr, NR_PAGES);
	else
		ret = do_madvise(current->mm, addr, NR_PAGES * PAGE_SIZE, row->advice);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	lrutest_expect_stat_delta(test, &before, &(struct lrutest_stat){ .lists = true },
				  row->desc);
	for (i = 0; i < NR_PAGES; i++) {
		struct folio *folio = lrutest_folio_at(test, addr + i * PAGE_SIZE);

		KUNIT_ASSERT_NOT_NULL(test, folio);
		lrutest_expect_mlocked(test, folio, 1, row->desc);
		lrutest_expect_refs(test, folio, 1, 1, row->desc);
	}
	lrutest_vm_end(test);
}

/*
 * An SHM_LOCKed segment is no VM_LOCKED VMA, so MADV_PAGEOUT takes its
 * folios off the anon list; shrink_folio_list() finds each unevictable
 * (mapping_unevictable()) before it would unmap or write it, and keeps it,
 * still mapped; the putback culls it, whether or not there is swap to
 * write it to.  The putback goes through this CPU's lru_add batch
 * (folio_add_lru()), drained here before the counts.
 */
static void madvise_pageout_culls_a_locked_segment(struct kunit *test)
{
	struct lrutest_shm *seg;
	struct lrutest_stat before;
	unsigned long swapped, i;
	struct folio *folio;

	lrutest_swap_on(test);
	seg = segment(test, true);
	lrutest_stat(&before);
	swapped = lrutest_vm_event(PSWPOUT);

	KUNIT_EXPECT_EQ(test, pageout(seg->addr, NR_PAGES), 0);
	lrutest_drain();
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){ .culled = NR_PAGES,
							  .unevictable = NR_PAGES,
							  .anon = -(long)NR_PAGES, .lists = true },
				  "MADV_PAGEOUT of an SHM_LOCKed segment");
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PSWPOUT) - swapped, 0UL);
	KUNIT_EXPECT_EQ(test, seg->mapping->nrpages, NR_PAGES);
	for (i = 0; i < NR_PAGES; i++) {
		folio = lrutest_folio_at(test, seg->addr + i * PAGE_SIZE);
		KUNIT_EXPECT_NOT_NULL_MSG(test, folio, "page %lu unmapped", i);
		if (folio)
			lrutest_expect_unevictable(test, lrutest_locate(folio), folio, "culled", i);
	}
	lrutest_shm_destroy(test, seg);
	lrutest_vm_end(test);
}

enum rescue { RESCUE_SHM_UNLOCK, RESCUE_MUNLOCK };

struct rescue_row {
	const char *desc;
	enum rescue how;
};

static const struct rescue_row rescue_rows[] = {
	{ "SHM_UNLOCK of a culled segment", RESCUE_SHM_UNLOCK },
	{ "munlock() of mlocked anon", RESCUE_MUNLOCK },
};

KUNIT_ARRAY_PARAM_DESC(rescue, rescue_rows, desc);

/*
 * Swap on, a test memcg (*@cg), and NR_PAGES folios charged to it, all on
 * its LRU_UNEVICTABLE: an SHM_LOCKed segment culled by MADV_PAGEOUT, or
 * anon memory mlock()ed (mlock_fixup() -> mlock_vma_pages_range() ends with
 * lru_add_drain()).  Returns the address of the range.
 */
static unsigned long locked_in_memcg(struct kunit *test, const struct rescue_row *row,
				     struct lrutest_memcg **cg, struct lrutest_shm **seg)
{
	struct lrutest_reclaim_stat s;
	unsigned long addr;

	lrutest_swap_on(test);
	*cg = lrutest_memcg_create(test);
	if (row->how == RESCUE_SHM_UNLOCK) {
		*seg = segment(test, true);
		addr = (*seg)->addr;
		KUNIT_ASSERT_EQ(test, pageout(addr, NR_PAGES), 0);
		lrutest_drain();
	} else {
		/* Not zero-filled: swap-out writes them (no zeromap entry). */
		addr = lrutest_memcg_anon(test, NR_PAGES, false);
		KUNIT_ASSERT_EQ(test, ksys_mlock2(addr, NR_PAGES * PAGE_SIZE, 0), 0L);
	}
	lrutest_memcg_stat(*cg, &s);
	KUNIT_ASSERT_EQ(test, s.lru[LRU_UNEVICTABLE], NR_PAGES);
	return addr;
}

/* The rescue itself: SHM_UNLOCK or munlock(), each complete as it returns. */
static void rescue(struct kunit *test, const struct rescue_row *row, unsigned long addr,
		   struct lrutest_shm *seg)
{
	if (row->how == RESCUE_SHM_UNLOCK)
		KUNIT_ASSERT_EQ(test, lrutest_shm_ctl(seg->id, SHM_UNLOCK), 0L);
	else
		KUNIT_ASSERT_EQ(test, ksys_munlock(addr, NR_PAGES * PAGE_SIZE), 0L);
}

/*
 * SHM_UNLOCK (shmem_unlock_mapping() -> check_move_unevictable_folios())
 * and munlock() (munlock_folio(), drained by mlock_vma_pages_range()) move
 * every folio off the memcg's LRU_UNEVICTABLE before they return, onto the
 * anon lists (the inactive one on the classic LRU: a culled or mlocked
 * folio is not PG_active).
 */
static void rescue_leaves_the_memcg_unevictable_count(struct kunit *test)
{
	const struct rescue_row *row = test->param_value;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_shm *seg = NULL;
	struct lrutest_memcg *cg;
	unsigned long addr;

	addr = locked_in_memcg(test, row, &cg, &seg);
	lrutest_memcg_stat(cg, &b);

	rescue(test, row, addr, seg);
	lrutest_memcg_stat(cg, &a);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_UNEVICTABLE], 0UL);
	KUNIT_EXPECT_EQ(test, lrutest_stat_anon(&a) - lrutest_stat_anon(&b), NR_PAGES);
	if (!lru_gen_enabled())
		KUNIT_EXPECT_EQ(test, a.lru[LRU_INACTIVE_ANON] - b.lru[LRU_INACTIVE_ANON],
				NR_PAGES);
	if (seg)
		lrutest_shm_destroy(test, seg);
	lrutest_vm_end(test);
}

/*
 * Rescued, the folios are reclaim's again: MADV_PAGEOUT writes each to
 * swap (PSWPOUT) and frees it, so the memcg's anon lists are empty; the
 * segment's pages are in swap, not in its page cache.
 */
static void madvise_pageout_swaps_out_a_rescued_folio(struct kunit *test)
{
	const struct rescue_row *row = test->param_value;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_shm *seg = NULL;
	struct lrutest_memcg *cg;
	unsigned long addr;

	addr = locked_in_memcg(test, row, &cg, &seg);
	rescue(test, row, addr, seg);
	lrutest_memcg_stat(cg, &b);
	KUNIT_ASSERT_EQ(test, lrutest_stat_anon(&b), NR_PAGES);

	KUNIT_EXPECT_EQ(test, pageout(addr, NR_PAGES), 0);
	lrutest_memcg_stat(cg, &a);
	KUNIT_EXPECT_EQ(test, a.pswpout - b.pswpout, NR_PAGES);
	KUNIT_EXPECT_EQ(test, lrutest_stat_anon(&a), 0UL);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_UNEVICTABLE], 0UL);
	if (seg) {
		KUNIT_EXPECT_EQ(test, seg->mapping->nrpages, 0UL);
		KUNIT_EXPECT_EQ(test, SHMEM_I(seg->mapping->host)->swapped, NR_PAGES);
		lrutest_shm_destroy(test, seg);
	}
	lrutest_vm_end(test);
}

/*
 * NR_PAGES lazyfree anon pages charged to a test memcg (written, not
 * zero-filled, then MADV_FREE), swap on or off as @swap says.  The folios
 * wait in this CPU's lru_lazyfree batch, which madvise_pageout() drains
 * (lru_add_drain()) before it looks at the range.  Returns the address.
 */
static unsigned long lazyfree_in_memcg(struct kunit *test, bool swap,
				       struct lrutest_memcg **cg)
{
	lrutest_swap(test, swap);
	*cg = lrutest_memcg_create(test);
	return lrutest_memcg_lazyfree(test, NR_PAGES);
}

struct lazyfree_row {
	const char *desc;
	bool swap;
};

static const struct lazyfree_row lazyfree_rows[] = {
	{ "no swap", false },
	{ "swap on", true },
};

KUNIT_ARRAY_PARAM_DESC(lazyfree, lazyfree_rows, desc);

/*
 * A clean lazyfree folio mapped once and referenced by nothing else is
 * discarded, not written anywhere: try_to_unmap_one() clears its PTE
 * (the folio's references are the isolation's and the mapping's), and
 * shrink_folio_list() frees it (PGLAZYFREED), swap or no swap.  The range
 * reads back as zeroes (a new fault) and the memcg holds no folio.
 */
static void madvise_pageout_discards_a_clean_lazyfree_folio(struct kunit *test)
{
	const struct lazyfree_row *row = test->param_value;
	unsigned long addr, freed, swapped, i;
	struct lrutest_reclaim_stat a;
	struct lrutest_memcg *cg;

	addr = lazyfree_in_memcg(test, row->swap, &cg);
	freed = lrutest_vm_event(PGLAZYFREED);
	swapped = lrutest_vm_event(PSWPOUT);

	KUNIT_EXPECT_EQ(test, pageout(addr, NR_PAGES), 0);
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PGLAZYFREED) - freed, NR_PAGES);
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PSWPOUT) - swapped, 0UL);
	lrutest_memcg_stat(cg, &a);
	KUNIT_EXPECT_EQ(test, lrutest_stat_anon(&a) + lrutest_stat_file(&a), 0UL);
	for (i = 0; i < NR_PAGES; i++) {
		KUNIT_EXPECT_NULL_MSG(test, lrutest_folio_at(test, addr + i * PAGE_SIZE),
				      "page %lu still mapped", i);
		KUNIT_EXPECT_EQ_MSG(test, lrutest_user_touch(test, addr + i * PAGE_SIZE), 0,
				    "page %lu", i);
	}
	lrutest_vm_end(test);
}

/*
 * A lazyfree folio written to again has a dirty PTE: try_to_unmap_one()
 * moves the dirty bit to the folio, makes it swap-backed again and leaves
 * it mapped, and shrink_folio_list() activates it (PGACTIVATE); the putback
 * (folio_putback_lru(), through this CPU's lru_add batch, drained here)
 * lists it active anon.  Nothing is freed and the new data stay.
 */
static void madvise_pageout_keeps_a_lazyfree_folio_written_again(struct kunit *test)
{
	unsigned long addr, freed, i;
	struct lrutest_reclaim_stat b, a;
	struct lrutest_memcg *cg;
	struct folio *folio;
	const u8 mark = 0x3c;

	addr = lazyfree_in_memcg(test, false, &cg);
	for (i = 0; i < NR_PAGES; i++)
		lrutest_user_store(test, addr + i * PAGE_SIZE, mark);
	freed = lrutest_vm_event(PGLAZYFREED);
	lrutest_memcg_stat(cg, &b);

	KUNIT_EXPECT_EQ(test, pageout(addr, NR_PAGES), 0);
	lrutest_drain();
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PGLAZYFREED) - freed, 0UL);
	lrutest_memcg_stat(cg, &a);
	KUNIT_EXPECT_EQ(test, a.activate - b.activate, NR_PAGES);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_ANON], NR_PAGES);
	KUNIT_EXPECT_EQ(test, lrutest_stat_file(&a), 0UL);
	for (i = 0; i < NR_PAGES; i++) {
		folio = lrutest_folio_at(test, addr + i * PAGE_SIZE);
		KUNIT_EXPECT_NOT_NULL_MSG(test, folio, "page %lu unmapped", i);
		if (folio)
			KUNIT_EXPECT_TRUE_MSG(test, folio_test_swapbacked(folio), "page %lu", i);
		KUNIT_EXPECT_EQ_MSG(test, lrutest_user_touch(test, addr + i * PAGE_SIZE), mark,
				    "page %lu", i);
	}
	lrutest_vm_end(test);
}

/*
 * A clean lazyfree folio that someone else holds a reference to (here the
 * test) cannot be discarded now: try_to_unmap_one() leaves it mapped and
 * shrink_folio_list() activates it, but it is still clean, so it stays
 * lazyfree (not swap-backed, active on the file LRU, once the putback's
 * lru_add batch is drained) for a later reclaim to drop.  Linux before
 * 6.15 made it swap-backed on any extra reference.
 */
static void madvise_pageout_keeps_a_referenced_lazyfree_folio_lazyfree(struct kunit *test)
{
	struct folio *folio[NR_PAGES];
	struct lrutest_reclaim_stat a;
	unsigned long addr, freed, i;
	struct lrutest_memcg *cg;
	bool lazy = true;

	addr = lazyfree_in_memcg(test, false, &cg);
	for (i = 0; i < NR_PAGES; i++) {
		folio[i] = lrutest_folio_at(test, addr + i * PAGE_SIZE);
		KUNIT_ASSERT_NOT_NULL(test, folio[i]);
	}
	freed = lrutest_vm_event(PGLAZYFREED);

	KUNIT_EXPECT_EQ(test, pageout(addr, NR_PAGES), 0);
	lrutest_drain();
	KUNIT_EXPECT_EQ(test, lrutest_vm_event(PGLAZYFREED) - freed, 0UL);
	for (i = 0; i < NR_PAGES; i++) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, lrutest_folio_at(test, addr + i * PAGE_SIZE),
					folio[i], "page %lu", i);
		KUNIT_EXPECT_EQ_MSG(test, lrutest_user_touch(test, addr + i * PAGE_SIZE),
				    LRUTEST_ANON_MARK, "page %lu", i);
		lazy &= !folio_test_swapbacked(folio[i]);
	}
	lrutest_skip_known_bug(test, lazy, KERNEL_VERSION(6, 15, 0),
			       "\"mm: set folio swapbacked iff folios are dirty in try_to_unmap_one\"");
	KUNIT_EXPECT_TRUE(test, lazy);
	lrutest_memcg_stat(cg, &a);
	KUNIT_EXPECT_EQ(test, a.lru[LRU_ACTIVE_FILE], NR_PAGES);
	KUNIT_EXPECT_EQ(test, lrutest_stat_anon(&a), 0UL);
	lrutest_vm_end(test);
}

/*
 * unevictable-lru.rst, "try_to_unmap()": a folio in a VM_LOCKED VMA whose
 * mlock was missed is mlocked when reclaim tries to unmap it:
 * try_to_unmap_one() restores the mlock and gives up.  reclaim_pages(),
 * MADV_PAGEOUT's reclaim, ignores references and so never asks
 * folio_referenced(), the other place that restores it.  A locked anon page
 * whose mlock the case undoes with munlock_folio() (the VMA stays
 * VM_LOCKED), isolated and handed to reclaim_pages(): nothing reclaimed,
 * the folio still mapped and mlocked again (NR_MLOCK and PGMLOCKED +1),
 * and culled as it is put back (mlock_count 1, PGCULLED +1).
 */
static void reclaim_restores_a_missed_mlock_in_try_to_unmap(struct kunit *test)
{
	struct lrutest_stat before;
	struct list_head *list;
	struct folio *folio;
	unsigned long addr;

	lrutest_swap_on(test);
	list = lrutest_isolated_list(test);
	folio = lrutest_mlocked_page(test, &addr);
	munlock_folio(folio);
	lrutest_drain();
	lrutest_expect_rescued(test, folio, false, "mlock undone");
	KUNIT_ASSERT_TRUE(test, lrutest_vma_flags(addr) & VM_LOCKED);
	lrutest_stat(&before);

	KUNIT_ASSERT_TRUE(test, folio_isolate_lru(folio));
	list_add(&folio->lru, list);
	KUNIT_EXPECT_EQ(test, reclaim_pages(list), 0UL);
	KUNIT_EXPECT_TRUE(test, list_empty(list));
	/* The put back (folio_putback_lru()) waits in this CPU's lru_add batch. */
	lrutest_drain();
	KUNIT_EXPECT_PTR_EQ(test, lrutest_folio_at(test, addr), folio);
	lrutest_expect_mlocked(test, folio, 1, "after reclaim");
	lrutest_expect_stat_delta(test, &before,
				  &(struct lrutest_stat){
					.nr_mlock = 1, .mlocked = 1, .culled = 1 },
				  "reclaim of a locked page whose mlock was missed");
	lrutest_vm_end(test);
}

static struct kunit_case reclaim_pageout_cases[] = {
	KUNIT_CASE_PARAM(madvise_refuses_a_locked_vma, locked_gen_params),
	KUNIT_CASE(madvise_pageout_culls_a_locked_segment),
	KUNIT_CASE_PARAM(rescue_leaves_the_memcg_unevictable_count, rescue_gen_params),
	KUNIT_CASE_PARAM(madvise_pageout_swaps_out_a_rescued_folio, rescue_gen_params),
	KUNIT_CASE_PARAM(madvise_pageout_discards_a_clean_lazyfree_folio, lazyfree_gen_params),
	KUNIT_CASE(madvise_pageout_keeps_a_lazyfree_folio_written_again),
	KUNIT_CASE(madvise_pageout_keeps_a_referenced_lazyfree_folio_lazyfree),
	KUNIT_CASE(reclaim_restores_a_missed_mlock_in_try_to_unmap),
	{}
};

static struct kunit_suite reclaim_pageout_suite = {
	.name = "mm_reclaim_pageout",
	.init = lrutest_vm_init,
	.test_cases = reclaim_pageout_cases,
};

kunit_test_suite(reclaim_pageout_suite);

MODULE_DESCRIPTION("KUnit tests of MADV_PAGEOUT and the unevictable LRU");
MODULE_LICENSE("GPL");
