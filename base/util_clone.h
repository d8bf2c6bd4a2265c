/* SPDX-License-Identifier: MIT */
/* Cloning a directory tree: reflinks (FICLONE, shared copy-on-write extents) where the
 * filesystem has them, else an in-kernel copy; the space such a clone takes. */
#ifndef DBT3_UTIL_CLONE_H
#define DBT3_UTIL_CLONE_H
#include "base/util.h"
#include <stdint.h>

/* How the regular files of one clone were made. */
struct util_clone_stats {
	uint64_t files_reflinked, files_copied;
	uint64_t bytes; /* the regular files' sizes */
};

/* Clones the tree src into dst, which must not exist: directories with src's modes, regular
 * files reflinked (FICLONE) where the filesystem can, else copied (copy_file_range, then
 * read/write); owners kept when run as root. Nothing is followed: a symbolic link or special
 * file in src fails the clone, and every file is made with O_EXCL. out may be NULL. */
int util_tree_clone(const char *src, const char *dst, struct util_clone_stats *out,
		    struct errbuf *err);

/* util_tree_clone from the directory sfd (left open) to a new directory name in dpfd: nothing
 * resolved by path, so a link planted above the clone is never followed. shown names the source
 * in messages. On failure errno says why (ENOSPC: the disk is full); the partial clone stays for
 * the caller to remove. */
int util_tree_clone_at(int sfd, int dpfd, const char *name, const char *shown,
		       struct util_clone_stats *out, struct errbuf *err);

/* One regular file src cloned (or copied) to dst, made with O_EXCL and src's mode and owner;
 * *out_reflinked (may be NULL) says how. */
int util_file_clone(const char *src, const char *dst, int *out_reflinked, struct errbuf *err);

/* The bytes of the regular files under path (st_size, links not followed). */
int util_tree_bytes(const char *path, uint64_t *out, struct errbuf *err);

/* Nonzero when the filesystem of directory dir makes reflinks: a small probe file made there,
 * cloned with FICLONE and both removed. */
int util_reflink_works(const char *dir);

/* The bytes an unprivileged user may still write on path's filesystem (statvfs f_bavail). */
int util_free_bytes(const char *path, uint64_t *out, struct errbuf *err);

/* Removes the tree path (rm -rf without following links; path itself may be a directory or a
 * file). 0 also when path does not exist. */
int util_tree_remove(const char *path, struct errbuf *err);

/* util_tree_remove of the entry name in the directory pfd (shown in messages). */
int util_tree_remove_at(int pfd, const char *name, const char *shown, struct errbuf *err);

#endif
