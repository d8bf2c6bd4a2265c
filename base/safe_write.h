/* SPDX-License-Identifier: MIT */
/* The one way the tool writes a file: checked target, private temp file beside it, rename. */
#ifndef DBT3_SAFE_WRITE_H
#define DBT3_SAFE_WRITE_H
#include "base/util.h"
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A file being written: a temp file "NAME.<16 random hex>.tmp" made with O_CREAT|O_EXCL|
 * O_NOFOLLOW in the target's directory (held open as dirfd), renamed over NAME by
 * util_out_commit. Nothing outside the temp file is ever opened for writing, chmod'ed or
 * chown'ed, so a symbolic link planted at any name is left alone. */
struct util_out {
	int fd;		 /* the temp file, open for writing; -1 when none */
	int dirfd;	 /* the target's directory; -1 when none */
	char name[256];	 /* the target's name in dirfd */
	char tmp[256];	 /* the temp file's name in dirfd */
	char path[4096]; /* the target as given, for messages */
};

/* 0 when path does not exist or is a regular file (a symbolic link is followed); -1 and
 * "cannot write 'P': it is a character device (only a regular file is written)" when it is a
 * device, FIFO, socket or directory. */
int util_out_kind_check(const char *path, struct errbuf *err);

/* util_out_kind_check for NAME in the directory dirfd (shown in the message). */
int util_out_kind_checkat(int dirfd, const char *name, const char *shown, struct errbuf *err);

/* Checks path (util_out_kind_check), opens its directory and creates the temp file with mode
 * (exactly: set with fchmod on the new file). 0, or -1 with one line in err and nothing left. */
int util_out_open(struct util_out *out, const char *path, mode_t mode, struct errbuf *err);

/* Like util_out_open for NAME (no '/') in the directory dirfd, which the caller checked and keeps
 * open (a dup of it is held). Used for an instance's files: no path is resolved again. */
int util_out_openat(struct util_out *out, int dirfd, const char *name, const char *shown,
		    mode_t mode, struct errbuf *err);

/* fsync and close the temp file, check NAME again (util_out_kind_check), rename the temp file
 * over it and fsync the directory. 0, or -1 with err, the temp file removed. Always releases o. */
int util_out_commit(struct util_out *o, struct errbuf *err);

/* Closes and removes the temp file, if any; safe on a released or zeroed-then-failed o. */
void util_out_abort(struct util_out *o);

/* Writes len bytes to path with mode through util_out_open and util_out_commit. */
int util_write_file(const char *path, const void *data, size_t len, mode_t mode,
		    struct errbuf *err);

/* Like util_write_file for NAME in the directory dirfd (util_out_openat; shown in messages). */
int util_write_fileat(int dirfd, const char *name, const char *shown, const void *data, size_t len,
		      mode_t mode, struct errbuf *err);

/* Opens a file written in place (a log) or read, relative to dirfd (AT_FDCWD for a path): flags
 * (O_WRONLY, O_RDWR, O_CREAT, O_APPEND, O_TRUNC ...) plus O_NOFOLLOW, O_NOCTTY and O_CLOEXEC,
 * and it must be a regular file (with one link, when opened for writing): a symbolic link, a
 * device, a FIFO or a hard link at the name is refused without blocking, and nothing is
 * truncated before that check. The descriptor, or -1 with errno set
 * (ELOOP for a link, EINVAL for what is no regular file). mode applies to a file made new. */
int util_openat_regular(int dirfd, const char *path, int flags, mode_t mode);

/* Refuses what an existing regular target must not become (e.g. a result file replaced by a
 * report): 0 to allow, or -1 with err. */
typedef int (*util_out_guard_fn)(const char *path, void *ctx, struct errbuf *err);

/* The check of an output (-o) before anything is read or computed: not empty; when it exists,
 * a regular file (util_out_kind_check), none of the n inputs (NULL entries skipped; by device
 * and inode, so another name or link of an input is caught) and allowed by guard (may be NULL);
 * and a temp file can be made beside it (made and removed). 0, or -1 with one line in err. */
int util_out_check(const char *path, const char *const *inputs, size_t n, util_out_guard_fn guard,
		   void *ctx, struct errbuf *err);

/* Output directories (-o DIR). Every component is opened with O_NOFOLLOW relative to the one
 * before it and what is missing is made with mkdirat (0755), so no link another user plants at
 * a name the tool makes or passes is followed; a link is followed only where the user set it up
 * (it lies in a directory that nobody but root and the caller can write, e.g. "/tmp" or a home
 * directory's link), and the directory written into must belong to root or the caller. */
enum util_outdir_flags {
	/* The caller writes below the directory by path later (a child process, a file rewritten
	 * at each checkpoint): also refuse a directory that another user can rename or replace,
	 * i.e. one that lies in, or itself is, a directory others can write (group or world
	 * writable without the sticky bit, or another user's). */
	UTIL_OUTDIR_STABLE = 1 << 0,
};

/* Makes path as mkdir -p does, under the rules above, and opens it: the directory's descriptor
 * (O_DIRECTORY, close-on-exec; the caller closes it) for util_out_openat, or -1 with one line in
 * err. *made (may be NULL) is set to 1 when the last component was made by this call, so that a
 * caller that fails later can remove it again (made components above it stay). */
int util_outdir_open(const char *path, unsigned flags, int *made, struct errbuf *err);

/* 0 when the directory of st lets nobody but root and the caller rename its entries (it belongs
 * to one of them, and it is not group or world writable, or has the sticky bit); else -1 and
 * err says "cannot use 'shown': ...". For a file written by path in that directory later. */
int util_dir_stable_check(const struct stat *st, const char *shown, struct errbuf *err);

/* The outermost directory of path that does not exist yet into out (len bytes), "" when path
 * exists: what a mkdir -p of path makes. */
void util_path_first_missing(char *out, size_t len, const char *path);

/* Removes the empty directories of path from path up to made (what util_path_first_missing
 * said before they were made; rmdir: a directory with anything in it stays). */
void util_dirs_unmake(const char *path, const char *made);

#endif
