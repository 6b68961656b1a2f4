/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lrutest: helpers of the mlock/munlock KUnit tests (lru_vm.c), which run
 * the real mlock paths on real VMAs of a user mm attached to the test
 * kthread.
 */
#ifndef _MM_TESTS_LRUTEST_MLOCK_H
#define _MM_TESTS_LRUTEST_MLOCK_H

#include <kunit/test.h>
#include <linux/mm_types.h>
/*
 * The syscall bodies the cases call, visible to KUnit: ksys_mlock2(),
 * ksys_munlock(), ksys_mlockall(), ksys_munlockall(), ksys_brk(),
 * ksys_mremap() (linux/syscalls.h) and do_mprotect_pkey() (mm/internal.h).
 */
#include <linux/syscalls.h>
#include "internal.h"

/*
 * The suite's one counter snapshot: NR_MLOCK (summed over every zone), the
 * unevictable_pgs_* vm events and the node LRU counters, read at one
 * instant.  Cases compare two of these and expect exact deltas.
 */
struct lrutest_stat {
	long nr_mlock;
	long mlocked;	/* UNEVICTABLE_PGMLOCKED */
	long munlocked;	/* UNEVICTABLE_PGMUNLOCKED */
	long culled;	/* UNEVICTABLE_PGCULLED */
	long scanned;	/* UNEVICTABLE_PGSCANNED */
	long rescued;	/* UNEVICTABLE_PGRESCUED */
	long stranded;	/* UNEVICTABLE_PGSTRANDED */
	long cleared;	/* UNEVICTABLE_PGCLEARED */
	/* Compared only where the wanted delta sets .lists: */
	long unevictable;	/* NR_UNEVICTABLE */
	long anon;		/* NR_INACTIVE_ANON + NR_ACTIVE_ANON */
	long file;		/* NR_INACTIVE_FILE + NR_ACTIVE_FILE */
	long file_pages;	/* NR_FILE_PAGES */
	bool lists;
};

/* Take it now (no drain: the caller drains where the case needs it). */
void lrutest_stat(struct lrutest_stat *stat);
unsigned long lrutest_vm_event(enum vm_event_item item);
/*
 * Expect exactly @want since @before: every field, a field left 0 must not
 * move; the LRU fields only if @want->lists.
 */
void lrutest_expect_stat_delta(struct kunit *test,
			       const struct lrutest_stat *before,
			       const struct lrutest_stat *want,
			       const char *what);

/* Flush the per-CPU LRU and mlock batches. */
void lrutest_drain(void);

/* Folio state checks, on the folio's own (real) lruvec. */
void lrutest_expect_mlocked(struct kunit *test, struct folio *folio,
			    unsigned int mlock_count, const char *what);
void lrutest_expect_evictable(struct kunit *test, struct folio *folio,
			      bool file, const char *what);
void lrutest_expect_rescued(struct kunit *test, struct folio *folio,
			    bool file, const char *what);
int lrutest_locate(struct folio *folio);
void lrutest_expect_refs(struct kunit *test, struct folio *folio, int mapped,
			 int held, const char *what);

/* KUnit actions: folio_put() of @folio; folio_putback_lru() of it. */
void lrutest_folio_put_action(void *folio);
void lrutest_free_page_action(void *page);
void lrutest_putback_action(void *folio);
/* Isolation that ends with the case whatever happens. */
void lrutest_isolate(struct kunit *test, struct folio *folio);
void lrutest_putback(struct kunit *test, struct folio *folio);
struct list_head *lrutest_isolated_list(struct kunit *test);
struct list_head *lrutest_migrate_list(struct kunit *test);
void lrutest_putback_movable_action(void *list);
#ifdef CONFIG_COMPACTION
unsigned long lrutest_compact_isolate(struct kunit *test, struct folio *folio,
				      struct list_head *list);
unsigned long lrutest_compact_scan(struct kunit *test, struct folio *folio,
				   struct list_head *list, isolate_mode_t mode);
#endif
struct folio *lrutest_real_folio(struct kunit *test, unsigned int order,
				 unsigned long flags, bool add);
struct folio *lrutest_real_folio_on(struct kunit *test, unsigned int order,
				    unsigned long flags, bool add, int nid);
void lrutest_real_folio_free(struct kunit *test, struct folio *folio);

/* An unprivileged locker: no CAP_IPC_LOCK, RLIMIT_MEMLOCK of @pages. */
struct lrutest_cred;
struct lrutest_cred *lrutest_drop_ipc_lock(struct kunit *test, unsigned long pages);
void lrutest_restore_ipc_lock(struct kunit *test, struct lrutest_cred *c);
#ifdef CONFIG_USER_NS
struct lrutest_cred *lrutest_userns_locker(struct kunit *test, unsigned long ns_max,
					   unsigned long rlimit);
#endif

/* A user mm for the test kthread, and mappings in it. */
struct mm_struct *lrutest_mm_attach(struct kunit *test);
int lrutest_vm_init(struct kunit *test);
void lrutest_vm_end(struct kunit *test);
void lrutest_mm_exit(struct kunit *test);
unsigned long lrutest_mmap(struct kunit *test, struct file *file,
			   unsigned long pages, unsigned long flags);
unsigned long lrutest_mmap_anon(struct kunit *test, unsigned long pages,
				bool populate);
struct file *lrutest_shmem_file(struct kunit *test, unsigned long pages);
void lrutest_shmem_mapped_twice(struct kunit *test, unsigned long pages,
				unsigned long *a, unsigned long *b);
struct file *lrutest_pagecache_file(struct kunit *test);
struct file *lrutest_ramdisk(struct kunit *test, int minor);
struct file *lrutest_exec_file(struct kunit *test, unsigned long pages);
enum lrutest_driver {
	LRUTEST_DRIVER_MIXEDMAP,
	LRUTEST_DRIVER_PFNMAP,
	LRUTEST_DRIVER_IO_ONLY,
	LRUTEST_DRIVER_PFNMAP_ONLY,
	LRUTEST_DRIVER_DONTEXPAND_ONLY,
};

struct file *lrutest_driver_file(struct kunit *test, enum lrutest_driver kind,
				 struct page **page);
void lrutest_touch(struct kunit *test, unsigned long addr);
struct folio *lrutest_folio_at(struct kunit *test, unsigned long addr);
struct folio *lrutest_mlocked_page(struct kunit *test, unsigned long *addr);
vm_flags_t lrutest_vma_flags(unsigned long addr);
int lrutest_vma_span(unsigned long addr, unsigned long *start,
		     unsigned long *end);
int lrutest_map_count(void);
unsigned long lrutest_locked_vm(void);
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
unsigned long lrutest_thp_map(struct kunit *test, struct folio **folio);
unsigned long lrutest_thp_map_by_ptes(struct kunit *test, struct folio **folio);
#endif

#endif /* _MM_TESTS_LRUTEST_MLOCK_H */
