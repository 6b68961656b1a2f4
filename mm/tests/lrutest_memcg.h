/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lrutest: reclaim on a real lruvec.  A memory cgroup created by the test
 * (lru_memcg.c) holds the test's folios alone, so the kernel's own memcg
 * reclaim entry, try_to_free_mem_cgroup_pages(), runs get_scan_count(),
 * shrink_active_list(), shrink_inactive_list() and folio_check_references()
 * on them as in production, and every list size and memcg event counts the
 * test's folios only.  A RAM-disk swap device switched on by the test gives
 * anon folios somewhere to go.
 */
#ifndef _MM_TESTS_LRUTEST_MEMCG_H
#define _MM_TESTS_LRUTEST_MEMCG_H

#include <kunit/test.h>
#include <linux/mmzone.h>
#include <linux/syscalls.h>

struct file;
struct mem_cgroup;
struct vfsmount;
struct task_struct;

struct lrutest_memcg {
	struct vfsmount *mnt;		/* the cgroup2 hierarchy */
	struct mem_cgroup *memcg;	/* its memory controller */
	struct lruvec *lruvec;		/* on the node the test runs on */
	struct task_struct *owner;	/* a parked kthread in the cgroup */
};

/*
 * Reclaim statistics of the test cgroup at one instant.  The list sizes are
 * the memcg's exact per-zone LRU sizes (what get_scan_count() reads), or,
 * with the multi-gen LRU, which keeps none, its lruvec's own statistics
 * (lruvec_page_state_local() after a flush); the
 * scan and steal counts per type are the global vm events (the memcg counts
 * them only per reclaimer: lrutest_memcg_log() checks the two agree);
 * refill, activate and deactivate are the memcg's own.
 */
struct lrutest_reclaim_stat {
	unsigned long lru[NR_LRU_LISTS];
	unsigned long scan_anon, scan_file;	/* PGSCAN_ANON, PGSCAN_FILE */
	unsigned long steal_anon, steal_file;	/* PGSTEAL_ANON, PGSTEAL_FILE */
	unsigned long pswpout;			/* PSWPOUT */
	unsigned long scan_memcg;		/* memcg PGSCAN_DIRECT */
	unsigned long steal_memcg;		/* memcg PGSTEAL_DIRECT */
	unsigned long refill;			/* memcg PGREFILL */
	unsigned long activate;			/* memcg PGACTIVATE */
	unsigned long deactivate;		/* memcg PGDEACTIVATE */
	unsigned long rotate_file;		/* lrutest_rotated_file() */
};

/*
 * The test memcg's refault counts (memory.stat's workingset_*_file and
 * workingset_*_anon) and the eviction clock of its lruvec:
 * lrutest_memcg_workingset().
 */
struct lrutest_workingset {
	unsigned long refault;	/* WORKINGSET_REFAULT_FILE */
	unsigned long activate;	/* WORKINGSET_ACTIVATE_FILE */
	unsigned long restore;	/* WORKINGSET_RESTORE_FILE */
	unsigned long refault_anon;	/* WORKINGSET_REFAULT_ANON */
	unsigned long activate_anon;	/* WORKINGSET_ACTIVATE_ANON */
	unsigned long restore_anon;	/* WORKINGSET_RESTORE_ANON */
	unsigned long age;	/* lruvec->nonresident_age */
};

int lrutest_memcg_classic_init(struct kunit *test);
int lrutest_memcg_mglru_init(struct kunit *test);
/* Pages on the anon lists (or generations) of @s, and on the file ones. */
static inline unsigned long lrutest_stat_anon(const struct lrutest_reclaim_stat *s)
{
	return s->lru[LRU_INACTIVE_ANON] + s->lru[LRU_ACTIVE_ANON];
}

static inline unsigned long lrutest_stat_file(const struct lrutest_reclaim_stat *s)
{
	return s->lru[LRU_INACTIVE_FILE] + s->lru[LRU_ACTIVE_FILE];
}

struct lrutest_memcg *lrutest_memcg_create(struct kunit *test);
void lrutest_memcg_stat(struct lrutest_memcg *cg,
			struct lrutest_reclaim_stat *stat);
unsigned long lrutest_memcg_reclaim(struct lrutest_memcg *cg,
				    unsigned long nr_pages, int swappiness);
void lrutest_memcg_log(struct kunit *test, const char *what,
		       const struct lrutest_reclaim_stat *before,
		       const struct lrutest_reclaim_stat *after);
void lrutest_memcg_expect_stolen(struct kunit *test, unsigned long reclaimed,
				 const struct lrutest_reclaim_stat *before,
				 const struct lrutest_reclaim_stat *after);
int lrutest_memcg_find(struct lrutest_memcg *cg, struct folio *folio);
unsigned long lrutest_memcg_walk(struct lrutest_memcg *cg, enum lru_list lru);
int lrutest_memcg_lru_at(struct lrutest_memcg *cg, unsigned long addr,
			 unsigned long *flags);
int lrutest_memcg_gen_at(struct lrutest_memcg *cg, unsigned long addr);
void lrutest_memcg_workingset(struct lrutest_memcg *cg, struct lrutest_workingset *s);

void lrutest_memcg_read(struct kunit *test, struct lrutest_memcg *cg,
			struct file *file, pgoff_t first, unsigned long nr,
			unsigned int times);
void lrutest_swap_on(struct kunit *test);
void lrutest_swap(struct kunit *test, bool on);
/* The byte lrutest_memcg_anon() stores at the start of each page. */
#define LRUTEST_ANON_MARK	0x5a
unsigned long lrutest_memcg_anon(struct kunit *test, unsigned long pages, bool cold);
unsigned long lrutest_memcg_lazyfree(struct kunit *test, unsigned long pages);
u8 lrutest_user_touch(struct kunit *test, unsigned long addr);
void lrutest_user_store(struct kunit *test, unsigned long addr, u8 byte);

#endif /* _MM_TESTS_LRUTEST_MEMCG_H */
