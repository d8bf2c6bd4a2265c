/* SPDX-License-Identifier: MIT */
/* base/safe_write.c (issue 30, F1-F3): a device, FIFO, socket or directory is never written nor
 * replaced; temp files have a random name and never follow a planted link; the mode is exact. */
#include "base/safe_write.h"
#include "tests/harness.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char *dir;

static void setup(void)
{
	dir = th_tempdir("safe_write");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
}

static void teardown(void)
{
	th_rmtree(dir);
	free(dir);
	dir = NULL;
}

static char *at(const char *name)
{
	static char path[3][4096];
	static int k;
	k = (k + 1) % 3;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

/* Entries in the test directory (no "." or ".."): what a refused or aborted write left. */
static int n_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

TH_TEST(safe_write, new_file_has_its_text_and_exact_mode)
{
	struct errbuf err = {""};
	char line[64];
	struct stat st;
	setup();
	mode_t old = umask(077); /* the mode is set on our own file, whatever the umask */
	CU_ASSERT_EQUAL(util_write_file(at("a.txt"), "hello\n", 6, 0644, &err), 0);
	umask(old);
	CU_ASSERT_EQUAL(th_read_line(at("a.txt"), line, sizeof(line)), 0);
	CU_ASSERT_STRING_EQUAL(line, "hello");
	CU_ASSERT_EQUAL(stat(at("a.txt"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0644);
	CU_ASSERT_EQUAL(n_entries(), 1);
	teardown();
}

TH_TEST(safe_write, regular_file_is_replaced_by_a_new_one)
{
	struct errbuf err = {""};
	char line[64];
	struct stat before, after;
	setup();
	write_text(at("a.txt"), "old\n");
	CU_ASSERT_EQUAL(stat(at("a.txt"), &before), 0);
	CU_ASSERT_EQUAL(util_write_atomic(at("a.txt"), "new\n", 4, &err), 0);
	CU_ASSERT_EQUAL(stat(at("a.txt"), &after), 0);
	CU_ASSERT_NOT_EQUAL(before.st_ino, after.st_ino); /* renamed over, not written into */
	th_read_line(at("a.txt"), line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "new");
	CU_ASSERT_EQUAL(n_entries(), 1);
	teardown();
}

/* /dev/null and /dev/full: refused with one line, still character devices, same inode. */
TH_TEST(safe_write, devices_are_refused_and_left_as_they_are)
{
	const char *devs[] = {"/dev/null", "/dev/full"};
	for (size_t i = 0; i < 2; i++) {
		struct errbuf err = {""};
		struct stat before, after;
		char want[128];
		CU_ASSERT_EQUAL_FATAL(stat(devs[i], &before), 0);
		CU_ASSERT_TRUE_FATAL(S_ISCHR(before.st_mode));
		CU_ASSERT_EQUAL(util_write_atomic(devs[i], "x\n", 2, &err), -1);
		snprintf(want, sizeof(want),
			 "cannot write '%s': it is a character device (only a regular file is "
			 "written)",
			 devs[i]);
		CU_ASSERT_STRING_EQUAL(err.msg, want);
		err.msg[0] = '\0';
		CU_ASSERT_EQUAL(util_out_check(devs[i], NULL, 0, NULL, NULL, &err), -1);
		CU_ASSERT_STRING_EQUAL(err.msg, want);
		CU_ASSERT_EQUAL(stat(devs[i], &after), 0);
		CU_ASSERT_TRUE(S_ISCHR(after.st_mode));
		CU_ASSERT_EQUAL(before.st_ino, after.st_ino);
		CU_ASSERT_EQUAL(before.st_rdev, after.st_rdev);
	}
}

TH_TEST(safe_write, fifo_socket_and_directory_are_refused)
{
	struct errbuf err = {""};
	struct stat st;
	setup();
	CU_ASSERT_EQUAL_FATAL(mkfifo(at("fifo"), 0644), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(at("dir"), 0755), 0);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", at("sock"));
	CU_ASSERT_EQUAL_FATAL(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	CU_ASSERT_EQUAL(util_write_atomic(at("fifo"), "x", 1, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "it is a FIFO"));
	CU_ASSERT_EQUAL(util_write_atomic(at("dir"), "x", 1, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "it is a directory"));
	CU_ASSERT_EQUAL(util_write_atomic(at("sock"), "x", 1, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "it is a socket"));
	close(s);
	CU_ASSERT_TRUE(stat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
	CU_ASSERT_TRUE(stat(at("dir"), &st) == 0 && S_ISDIR(st.st_mode));
	CU_ASSERT_TRUE(lstat(at("sock"), &st) == 0 && S_ISSOCK(st.st_mode));
	CU_ASSERT_EQUAL(n_entries(), 3); /* no temp file left */
	teardown();
}

/* A symbolic link to a device is judged by what it points to. */
TH_TEST(safe_write, link_to_a_device_is_refused)
{
	struct errbuf err = {""};
	struct stat st;
	setup();
	CU_ASSERT_EQUAL_FATAL(symlink("/dev/null", at("out.txt")), 0);
	CU_ASSERT_EQUAL(util_write_atomic(at("out.txt"), "x", 1, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "character device"));
	CU_ASSERT_TRUE(lstat(at("out.txt"), &st) == 0 && S_ISLNK(st.st_mode));
	CU_ASSERT_TRUE(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	teardown();
}

/* F2/F3: the old fixed temp name PATH.tmp, planted as a link to a victim, is not used. */
TH_TEST(safe_write, link_planted_at_the_old_temp_name_is_left_alone)
{
	struct errbuf err = {""};
	char line[64];
	struct stat st;
	setup();
	write_text(at("victim"), "victim\n");
	CU_ASSERT_EQUAL(chmod(at("victim"), 0600), 0);
	CU_ASSERT_EQUAL_FATAL(symlink(at("victim"), at("my.cnf.tmp")), 0);
	CU_ASSERT_EQUAL(util_write_file(at("my.cnf"), "[mysqld]\n", 9, 0644, &err), 0);
	th_read_line(at("victim"), line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "victim");
	CU_ASSERT_TRUE(stat(at("victim"), &st) == 0 && (st.st_mode & 07777) == 0600);
	CU_ASSERT_TRUE(lstat(at("my.cnf.tmp"), &st) == 0 && S_ISLNK(st.st_mode));
	th_read_line(at("my.cnf"), line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "[mysqld]");
	CU_ASSERT_EQUAL(n_entries(), 3);
	teardown();
}

/* NAME.<16 hex digits>.tmp, a new draw each time: no name to plant a link at in advance. */
TH_TEST(safe_write, temp_names_are_random)
{
	struct errbuf err = {""};
	struct util_out a, b;
	setup();
	CU_ASSERT_EQUAL_FATAL(util_out_open(&a, at("r.json"), 0644, &err), 0);
	CU_ASSERT_EQUAL_FATAL(util_out_open(&b, at("r.json"), 0644, &err), 0);
	CU_ASSERT_STRING_NOT_EQUAL(a.tmp, b.tmp);
	CU_ASSERT_EQUAL(strlen(a.tmp), strlen("r.json.") + 16 + strlen(".tmp"));
	CU_ASSERT_EQUAL(strncmp(a.tmp, "r.json.", 7), 0);
	CU_ASSERT_EQUAL(strspn(a.tmp + 7, "0123456789abcdef"), 16);
	CU_ASSERT_STRING_EQUAL(a.tmp + 23, ".tmp");
	util_out_abort(&a);
	util_out_abort(&b);
	CU_ASSERT_EQUAL(n_entries(), 0);
	teardown();
}

/* What appears at the name while the file is written is not replaced at the rename. */
TH_TEST(safe_write, commit_checks_the_target_again)
{
	struct errbuf err = {""};
	struct util_out o;
	struct stat st;
	setup();
	CU_ASSERT_EQUAL_FATAL(util_out_open(&o, at("r.json"), 0644, &err), 0);
	CU_ASSERT_EQUAL(write(o.fd, "{}\n", 3), 3);
	CU_ASSERT_EQUAL_FATAL(mkfifo(at("r.json"), 0644), 0);
	CU_ASSERT_EQUAL(util_out_commit(&o, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "it is a FIFO"));
	CU_ASSERT_TRUE(stat(at("r.json"), &st) == 0 && S_ISFIFO(st.st_mode));
	CU_ASSERT_EQUAL(n_entries(), 1);
	teardown();
}

static int refuse_all(const char *path, void *ctx, struct errbuf *err)
{
	(*(int *)ctx)++;
	return errbuf_set(err, "guard refused '%s'", path);
}

/* -o's check: empty, an input under another name, the guard, a missing directory. */
TH_TEST(safe_write, check_refuses_inputs_empty_and_guarded)
{
	struct errbuf err = {""};
	int calls = 0;
	setup();
	write_text(at("in.json"), "{}\n");
	CU_ASSERT_EQUAL_FATAL(link(at("in.json"), at("hard.json")), 0);
	char in[4096];
	snprintf(in, sizeof(in), "%s", at("in.json"));
	const char *inputs[] = {NULL, in};
	CU_ASSERT_EQUAL(util_out_check("", inputs, 2, NULL, NULL, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "an empty output path (-o)");
	CU_ASSERT_EQUAL(util_out_check(at("hard.json"), inputs, 2, NULL, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "it is the input"));
	CU_ASSERT_EQUAL(util_out_check(at("new.txt"), inputs, 2, refuse_all, &calls, &err), 0);
	CU_ASSERT_EQUAL(calls, 0); /* the guard sees existing files only */
	write_text(at("old.txt"), "x\n");
	CU_ASSERT_EQUAL(util_out_check(at("old.txt"), inputs, 2, refuse_all, &calls, &err), -1);
	CU_ASSERT_EQUAL(calls, 1);
	CU_ASSERT_EQUAL(util_out_check(at("no/such.txt"), NULL, 0, NULL, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "No such file or directory"));
	CU_ASSERT_EQUAL(n_entries(), 3); /* the trial temp files are gone */
	teardown();
}

TH_TEST(safe_write, openat_takes_a_plain_name_only)
{
	struct errbuf err = {""};
	struct util_out o;
	setup();
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(dfd >= 0);
	CU_ASSERT_EQUAL(util_out_openat(&o, dfd, "../x", "x", 0600, &err), -1);
	CU_ASSERT_EQUAL(util_out_openat(&o, dfd, "", "x", 0600, &err), -1);
	CU_ASSERT_EQUAL(util_out_openat(&o, dfd, "pid", "DIR/pid", 0600, &err), 0);
	CU_ASSERT_EQUAL(write(o.fd, "1\n", 2), 2);
	CU_ASSERT_EQUAL(util_out_commit(&o, &err), 0);
	close(dfd);
	struct stat st;
	CU_ASSERT_TRUE(stat(at("pid"), &st) == 0 && (st.st_mode & 07777) == 0600);
	CU_ASSERT_EQUAL(n_entries(), 1);
	teardown();
}

/* A log written in place: a planted link or a FIFO (without blocking) is refused, and a regular
 * file is truncated only after the check. */
TH_TEST(safe_write, open_regular_refuses_links_and_fifos)
{
	char line[64];
	setup();
	write_text(at("victim"), "victim\n");
	CU_ASSERT_EQUAL_FATAL(symlink(at("victim"), at("link.log")), 0);
	CU_ASSERT_EQUAL_FATAL(mkfifo(at("fifo.log"), 0644), 0);
	errno = 0;
	CU_ASSERT_EQUAL(util_openat_regular(AT_FDCWD, at("link.log"), O_WRONLY | O_TRUNC, 0644),
			-1);
	CU_ASSERT_EQUAL(errno, ELOOP);
	CU_ASSERT_EQUAL(util_openat_regular(AT_FDCWD, at("fifo.log"), O_WRONLY | O_TRUNC, 0644),
			-1);
	th_read_line(at("victim"), line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "victim");
	int fd = util_openat_regular(AT_FDCWD, at("victim"), O_WRONLY | O_TRUNC, 0644);
	CU_ASSERT_TRUE(fd >= 0);
	struct stat st;
	CU_ASSERT_TRUE(fstat(fd, &st) == 0 && st.st_size == 0);
	close(fd);
	teardown();
}

/* util_outdir_open: a link in a directory others can write is not followed, one in a private
 * directory is; what it makes is said (made), and the descriptor is the directory. */
TH_TEST(safe_write, outdir_follows_links_only_in_private_directories)
{
	struct errbuf err;
	struct stat a, b;
	int made = -1;
	setup();
	CU_ASSERT_EQUAL_FATAL(mkdir(at("target"), 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(at("pub"), 0777), 0);
	CU_ASSERT_EQUAL_FATAL(chmod(at("pub"), 01777), 0);
	CU_ASSERT_EQUAL_FATAL(symlink(at("target"), at("pub/dir")), 0);
	CU_ASSERT_EQUAL(util_outdir_open(at("pub/dir/x"), 0, &made, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "symbolic link"));
	CU_ASSERT_EQUAL(rmdir(at("target/x")), -1); /* nothing made through the link */
	CU_ASSERT_EQUAL_FATAL(symlink(at("target"), at("own")), 0);
	int fd = util_outdir_open(at("own/x/y"), 0, &made, &err);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(made, 1);
	CU_ASSERT_TRUE(fstat(fd, &a) == 0 && stat(at("target/x/y"), &b) == 0 &&
		       a.st_ino == b.st_ino);
	close(fd);
	fd = util_outdir_open(at("own/x/y"), 0, &made, &err);
	CU_ASSERT_TRUE(fd >= 0 && made == 0);
	close(fd);
	/* files written by path below it later: a sticky directory of the caller's is fine, one
	 * that lets others rename what is in it is not */
	fd = util_outdir_open(at("pub/new"), UTIL_OUTDIR_STABLE, NULL, &err);
	CU_ASSERT_TRUE(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL(chmod(at("pub"), 0777), 0);
	CU_ASSERT_EQUAL(util_outdir_open(at("pub/new2"), UTIL_OUTDIR_STABLE, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "other users can write"));
	write_text(at("file"), "x");
	CU_ASSERT_EQUAL(util_outdir_open(at("file/sub"), 0, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "Not a directory"));
	teardown();
}

TH_MAIN(safe_write)
