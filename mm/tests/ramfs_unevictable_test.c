// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of ramfs folios on the unevictable LRU: ramfs_get_inode()
 * marks every mapping unevictable, so folio_add_lru() -> lru_add() lists
 * each new folio straight on LRU_UNEVICTABLE (counted as culled); reclaim
 * that meets one puts it back there; truncate and unlink take it off with
 * the counters balanced.  The same steps on tmpfs give evictable,
 * swap-backed folios on the anon lists, and on a tmpfs mounted noswap
 * unevictable ones again.
 *
 * The test mounts its own ramfs and tmpfs instances (kern_mount()) and
 * writes with kernel_write(); the folios are on the real node, so counts
 * are deltas of the global counters around each step.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/swap.h>
#include <linux/vmstat.h>

#include "internal.h"	/* mm/internal.h, by -I in the Makefile */
#include "lrutest_mlock.h"
#include "lrutest_reclaim.h"

#define RAMFS_TEST_PAGES	8

/* Drain (a fixture step) and take the suite's counter snapshot. */
static void lru_snap(struct lrutest_stat *s)
{
	lrutest_drain();
	lrutest_stat(s);
}

/*
 * Expect the counters to have moved from @a by exactly the deltas given,
 * and every other one of lrutest_stat not at all.
 */
static void expect_delta(struct kunit *test, const struct lrutest_stat *a,
			 long unevictable, long anon, long file, long file_pages,
			 long culled, const char *step)
{
	lrutest_drain();
	lrutest_expect_stat_delta(test, a,
				  &(struct lrutest_stat){
					.unevictable = unevictable, .anon = anon,
					.file = file, .file_pages = file_pages,
					.culled = culled, .lists = true },
				  step);
}

/* Write @pages zero pages at offset 0 of @file; expect that many folios. */
static void write_pages(struct kunit *test, struct file *file, unsigned long pages)
{
	size_t len = pages * PAGE_SIZE;
	loff_t pos = 0;
	void *buf;

	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ_MSG(test, kernel_write(file, buf, len, &pos), (ssize_t)len,
			    "kernel_write of %lu pages", pages);
	lru_add_drain();
	KUNIT_ASSERT_EQ_MSG(test, file->f_mapping->nrpages, pages,
			    "pages in the page cache after the write");
}

/* The folio at @index of @mapping, its reference already dropped. */
static struct folio *peek_folio(struct kunit *test, struct address_space *mapping,
				pgoff_t index)
{
	struct folio *folio = filemap_get_folio(mapping, index);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(folio), "no folio at index %lu", index);
	KUNIT_ASSERT_EQ_MSG(test, folio_nr_pages(folio), 1L, "folio %lu order", index);
	folio_put(folio);	/* the page cache keeps it while the file lives */
	return folio;
}

static void expect_all_unevictable(struct kunit *test, struct address_space *mapping,
				   unsigned long pages, const char *step)
{
	unsigned long i;

	for (i = 0; i < pages; i++) {
		struct folio *folio = peek_folio(test, mapping, i);

		lrutest_expect_unevictable(test, lrutest_locate(folio), folio, step, i);
		KUNIT_EXPECT_FALSE_MSG(test, folio_test_active(folio),
				       "%s: folio %lu active and unevictable", step, i);
		KUNIT_EXPECT_FALSE_MSG(test, folio_test_mlocked(folio),
				       "%s: folio %lu mlocked", step, i);
	}
}

/*
 * @file's mapping is unevictable, and a write of RAMFS_TEST_PAGES pages puts
 * every folio straight on LRU_UNEVICTABLE, culled on the way; @s is the
 * snapshot from before the write.
 */
static void write_lists_unevictable(struct kunit *test, struct file *file,
				    struct lrutest_stat *s)
{
	KUNIT_EXPECT_TRUE_MSG(test, mapping_unevictable(file->f_mapping),
			      "the mapping is unevictable");
	lru_snap(s);
	write_pages(test, file, RAMFS_TEST_PAGES);
	expect_delta(test, s, RAMFS_TEST_PAGES, 0, 0, RAMFS_TEST_PAGES,
		     RAMFS_TEST_PAGES, "write");
	expect_all_unevictable(test, file->f_mapping, RAMFS_TEST_PAGES, "write");
}

/* A write puts every folio straight on LRU_UNEVICTABLE, culled on the way. */
static void ramfs_write_lists_unevictable(struct kunit *test)
{
	struct vfsmount *mnt = lrutest_mount(test, "ramfs");
	struct lrutest_stat s;

	write_lists_unevictable(test, lrutest_create(test, mnt, "f"), &s);
}

/*
 * Truncate takes the folios past the new size off LRU_UNEVICTABLE and frees
 * them; unlink, then the last close, the rest.  Counters end balanced.
 */
static void ramfs_truncate_unlink_balanced(struct kunit *test)
{
	const unsigned long keep = RAMFS_TEST_PAGES / 2;
	struct vfsmount *mnt = lrutest_mount(test, "ramfs");
	struct file *file = lrutest_create(test, mnt, "f");
	struct dentry *dentry = file->f_path.dentry;
	struct inode *dir = d_inode(dentry->d_parent);
	struct lrutest_stat s;
	unsigned long i;
	int err;

	lru_snap(&s);
	write_pages(test, file, RAMFS_TEST_PAGES);

	KUNIT_ASSERT_EQ(test, vfs_truncate(&file->f_path, keep * PAGE_SIZE), 0L);
	expect_delta(test, &s, keep, 0, 0, keep, RAMFS_TEST_PAGES, "truncate");
	KUNIT_EXPECT_EQ(test, file->f_mapping->nrpages, keep);
	for (i = keep; i < RAMFS_TEST_PAGES; i++) {
		struct folio *folio = filemap_get_folio(file->f_mapping, i);

		if (!IS_ERR(folio)) {
			folio_put(folio);
			KUNIT_FAIL(test, "folio %lu past the new size survived truncate", i);
		}
	}
	expect_all_unevictable(test, file->f_mapping, keep, "truncate");

	/* As do_unlinkat(): hold the dentry, so d_delete() only unhashes it. */
	dget(dentry);
	inode_lock_nested(dir, I_MUTEX_PARENT);
	err = vfs_unlink(&nop_mnt_idmap, dir, dentry, NULL);
	inode_unlock(dir);
	dput(dentry);
	KUNIT_ASSERT_EQ(test, err, 0);
	/* Still open: the inode and its folios stay until the last close. */
	expect_delta(test, &s, keep, 0, 0, keep, RAMFS_TEST_PAGES, "unlink");
	lrutest_close(test, file);
	expect_delta(test, &s, 0, 0, 0, 0, RAMFS_TEST_PAGES, "last close");
}

/*
 * The same on tmpfs: the mapping is evictable, the folios swap-backed on
 * the anon lists, none culled; truncation and the last close balance.
 */
static void tmpfs_write_lists_evictable(struct kunit *test)
{
	struct vfsmount *mnt = lrutest_mount(test, "tmpfs");
	struct file *file = lrutest_create(test, mnt, "f");
	struct lrutest_stat s;
	unsigned long i;

	KUNIT_EXPECT_FALSE_MSG(test, mapping_unevictable(file->f_mapping),
			       "a tmpfs mapping is evictable");
	lru_snap(&s);
	write_pages(test, file, RAMFS_TEST_PAGES);
	expect_delta(test, &s, 0, RAMFS_TEST_PAGES, 0, RAMFS_TEST_PAGES, 0, "write");
	for (i = 0; i < RAMFS_TEST_PAGES; i++) {
		struct folio *folio = peek_folio(test, file->f_mapping, i);
		int lru = lrutest_locate(folio);

		KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(folio), "folio %lu: PG_lru", i);
		KUNIT_EXPECT_FALSE_MSG(test, folio_test_unevictable(folio),
				       "folio %lu: PG_unevictable", i);
		KUNIT_EXPECT_TRUE_MSG(test, folio_test_swapbacked(folio),
				      "folio %lu: swap-backed", i);
		KUNIT_EXPECT_TRUE_MSG(test, lru == LRU_INACTIVE_ANON || lru == LRU_ACTIVE_ANON,
				      "folio %lu on list %d, not an anon list", i, lru);
	}
	KUNIT_ASSERT_EQ(test, vfs_truncate(&file->f_path, 0), 0L);
	expect_delta(test, &s, 0, 0, 0, 0, 0, "truncate");
	KUNIT_EXPECT_EQ(test, file->f_mapping->nrpages, 0UL);
}

/*
 * tmpfs mounted "noswap" has nowhere to put its folios but memory:
 * shmem_get_inode() marks each of its mappings unevictable, so the folios
 * go straight to LRU_UNEVICTABLE as on ramfs (unevictable-lru.rst, "tmpfs
 * with noswap"); truncation takes them off with the counters balanced.
 */
static void tmpfs_noswap_write_lists_unevictable(struct kunit *test)
{
	struct vfsmount *mnt = lrutest_mount_opts(test, "tmpfs", "noswap");
	struct file *file = lrutest_create(test, mnt, "f");
	struct lrutest_stat s;

	write_lists_unevictable(test, file, &s);
	KUNIT_ASSERT_EQ(test, vfs_truncate(&file->f_path, 0), 0L);
	expect_delta(test, &s, 0, 0, 0, 0, RAMFS_TEST_PAGES, "truncate");
	KUNIT_EXPECT_EQ(test, file->f_mapping->nrpages, 0UL);
}

/*
 * unevictable-lru.rst, "Migrating MLOCKED Pages": "if the page was
 * unevictable for other reasons, PG_unevictable is copied explicitly"
 * (folio_migrate_flags()).  A folio of a noswap tmpfs mapping, isolated by
 * compaction and migrated, is replaced in the page cache by a folio that
 * comes to the LRU already unevictable: lru_add() lists it on
 * LRU_UNEVICTABLE without counting a new cull.  migrate_pages() puts the
 * new folio in this CPU's lru_add batch (folio_add_lru()); the drain is
 * the one that lists it.
 */
static void migration_of_a_noswap_tmpfs_folio_copies_pg_unevictable(struct kunit *test)
{
	struct migration_target_control mtc = {
		.nid = NUMA_NO_NODE,
		.gfp_mask = GFP_HIGHUSER_MOVABLE,
	};
	struct vfsmount *mnt = lrutest_mount_opts(test, "tmpfs", "noswap");
	struct file *file = lrutest_create(test, mnt, "f");
	struct list_head *list = lrutest_migrate_list(test);
	struct folio *old, *new;
	struct lrutest_stat s;
	unsigned int nr = 0;

	if (!IS_ENABLED(CONFIG_COMPACTION))
		kunit_skip(test, "CONFIG_COMPACTION is off: no compaction");
	write_pages(test, file, 1);
	old = peek_folio(test, file->f_mapping, 0);
	KUNIT_ASSERT_TRUE(test, folio_test_unevictable(old));
	lru_snap(&s);

#ifdef CONFIG_COMPACTION
	KUNIT_ASSERT_EQ(test, lrutest_compact_isolate(test, old, list), 1UL);
#endif
	KUNIT_EXPECT_EQ(test, migrate_pages(list, alloc_migration_target, NULL,
					    (unsigned long)&mtc, MIGRATE_SYNC,
					    MR_COMPACTION, &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 1U);
	new = peek_folio(test, file->f_mapping, 0);
	KUNIT_EXPECT_PTR_NE(test, new, old);
	expect_delta(test, &s, 0, 0, 0, 0, 0, "migration");
	expect_all_unevictable(test, file->f_mapping, 1, "migration");
}

static struct kunit_case ramfs_unevictable_cases[] = {
	KUNIT_CASE(ramfs_write_lists_unevictable),
	KUNIT_CASE(ramfs_truncate_unlink_balanced),
	KUNIT_CASE(tmpfs_write_lists_evictable),
	KUNIT_CASE(tmpfs_noswap_write_lists_unevictable),
	KUNIT_CASE(migration_of_a_noswap_tmpfs_folio_copies_pg_unevictable),
	{}
};

static struct kunit_suite ramfs_unevictable_suite = {
	.name = "mm_ramfs_unevictable",
	.init = lrutest_init,
	.test_cases = ramfs_unevictable_cases,
};

kunit_test_suite(ramfs_unevictable_suite);

MODULE_DESCRIPTION("KUnit tests of ramfs folios on the unevictable LRU");
MODULE_LICENSE("GPL");
