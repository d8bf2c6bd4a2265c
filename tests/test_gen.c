/* SPDX-License-Identifier: MIT */
/* dbt3/gen.c against TPC-H dbgen's own output (md5 of each table at SF 0.01 and 0.1), chunked
 * and partial reads against the whole stream, and the 'gen' command's files and exit codes. */
#include "base/cli.h"
#include "dbt3/gen.h"
#include "tests/harness.h"
#include "tests/th_gen.h"
#include "tests/th_spawn.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

struct ref_md5 {
	enum gen_table t;
	const char *md5;
};

/* dbgen -s 0.01 (default format, every row ends with '|'). */
static const struct ref_md5 ref_sf001[] = {
    {GEN_CUSTOMER, "a8aa97edad6d47b183a569759fbd3eec"},
    {GEN_LINEITEM, "4c6d44350a1f7974f56f5d3d7091c2be"},
    {GEN_NATION, "2f588e0b7fa72939b498c2abecd9fbbe"},
    {GEN_ORDERS, "c8d2008fb47f47f9e56543d4cb0f4e6a"},
    {GEN_PART, "9cce16188c241c25617ca5ed6191e37e"},
    {GEN_PARTSUPP, "c6889c3ed0939ca02475f7fb410cbb50"},
    {GEN_REGION, "c235841b00d29ad4f817771fcc851207"},
    {GEN_SUPPLIER, "56e0621c472064c2a998757c70b44043"},
};

/* dbgen -s 0.1 (default format). */
static const struct ref_md5 ref_sf01[] = {
    {GEN_CUSTOMER, "8f279b30fee7203e32886be01efd823b"},
    {GEN_LINEITEM, "dec17abbc566d431f5808c5c9f81b8a5"},
    {GEN_NATION, "2f588e0b7fa72939b498c2abecd9fbbe"},
    {GEN_ORDERS, "2520d48234df183e47c57027a52007ee"},
    {GEN_PART, "3f5dc86fbedff28bf1a88bea8341aa6f"},
    {GEN_PARTSUPP, "e3bd40ee500c9cc88fd14a4dc904c09e"},
    {GEN_REGION, "c235841b00d29ad4f817771fcc851207"},
    {GEN_SUPPLIER, "85f567a75bd806f3ccff89341866ab1c"},
};

/* The whole table through the public pull API, with reads of `step` bytes. */
static int stream_all(const struct gen_ctx *ctx, enum gen_table t, int64_t first, int64_t last,
		      unsigned flags, size_t step, struct gen_buf *out)
{
	struct errbuf err;
	struct gen_stream *s;
	if (gen_stream_new(&s, ctx, t, first, last, flags, &err) < 0) {
		fprintf(stderr, "gen_stream_new: %s\n", err.msg);
		return -1;
	}
	out->len = 0;
	for (;;) {
		if (gen_buf_reserve(out, out->len + step) < 0)
			return -1;
		size_t n = gen_stream_read(s, out->data + out->len, step);
		if (n == 0)
			break;
		if (n > step)
			return -1;
		out->len += n;
	}
	gen_stream_free(s);
	return 0;
}

static void check_md5s(const struct gen_ctx *ctx, const struct ref_md5 *ref, size_t n)
{
	struct gen_buf b = {0};
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(
		    stream_all(ctx, ref[i].t, 0, gen_rows(ctx, ref[i].t), 0, 1 << 20, &b), 0);
		th_md5_is(gen_table_name(ref[i].t), b.data, b.len, ref[i].md5);
	}
	gen_buf_release(&b);
}

TH_TEST(gen, sf001_matches_dbgen_md5)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	CU_ASSERT_EQUAL(gen_rows(ctx, GEN_CUSTOMER), 1500);
	CU_ASSERT_EQUAL(gen_rows(ctx, GEN_ORDERS), 15000);
	CU_ASSERT_EQUAL(gen_rows(ctx, GEN_LINEITEM), 15000);
	CU_ASSERT_EQUAL(gen_rows(ctx, GEN_PART), 2000);
	CU_ASSERT_EQUAL(gen_rows(ctx, GEN_SUPPLIER), 100);
	CU_ASSERT_EQUAL(gen_rows(ctx, GEN_NATION), 25);
	CU_ASSERT_EQUAL(gen_rows(ctx, GEN_REGION), 5);
	check_md5s(ctx, ref_sf001, sizeof(ref_sf001) / sizeof(ref_sf001[0]));
}

TH_TEST(gen, sf01_matches_dbgen_md5)
{
	struct errbuf err;
	struct gen_ctx *ctx = NULL;
	CU_ASSERT_EQUAL_FATAL(gen_ctx_new(&ctx, 0.1, &err), 0);
	CU_ASSERT_EQUAL(gen_rows(ctx, GEN_ORDERS), 150000);
	check_md5s(ctx, ref_sf01, sizeof(ref_sf01) / sizeof(ref_sf01[0]));
	gen_ctx_free(ctx);
}

/* The pool is written in 16 parallel segments from recorded seeds; any thread count, including
 * the plain sequential walk, gives dbgen's bytes (lineitem and partsupp comments sample the whole
 * pool). */
TH_TEST(gen, pool_same_for_any_thread_count)
{
	static const int counts[] = {1, 3, 16};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		struct errbuf err;
		struct gen_ctx *ctx = NULL;
		CU_ASSERT_EQUAL_FATAL(gen_ctx_new_threads(&ctx, 0.01, counts[i], &err), 0);
		check_md5s(ctx, ref_sf001, 2);	   /* customer, lineitem */
		check_md5s(ctx, ref_sf001 + 4, 2); /* part, partsupp */
		gen_ctx_free(ctx);
	}
}

/* Without the trailing delimiter each row is the default row with its last '|' dropped. */
TH_TEST(gen, no_trailing_delimiter_drops_last_bar)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	struct gen_buf a = {0}, b = {0};
	for (int t = 0; t < GEN_NTABLES; t++) {
		CU_ASSERT_EQUAL_FATAL(stream_all(ctx, t, 0, gen_rows(ctx, t), 0, 1 << 16, &a), 0);
		CU_ASSERT_EQUAL_FATAL(
		    stream_all(ctx, t, 0, gen_rows(ctx, t), GEN_NO_TRAILING_DELIMITER, 1 << 16, &b),
		    0);
		size_t k = 0, rows = 0;
		int same = 1;
		for (size_t i = 0; i < a.len; i++) {
			if (a.data[i] == '|' && i + 1 < a.len && a.data[i + 1] == '\n')
				continue;
			if (a.data[i] == '\n')
				rows++;
			if (k >= b.len || b.data[k++] != a.data[i]) {
				same = 0;
				break;
			}
		}
		CU_ASSERT(same);
		CU_ASSERT_EQUAL(k, b.len);
		CU_ASSERT(rows > 0);
	}
	gen_buf_release(&a);
	gen_buf_release(&b);
}

/* Starting mid-table (jumping the streams ahead) gives exactly the rest of the full stream,
 * for every table, including reads smaller than a row. */
TH_TEST(gen, chunk_from_middle_equals_full_stream)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	struct gen_buf full = {0}, head = {0}, tail = {0}, small = {0};
	struct errbuf err;
	for (int t = 0; t < GEN_NTABLES; t++) {
		int64_t n = gen_rows(ctx, t);
		int64_t mid = n * 7 / 13 + 1;
		CU_ASSERT_EQUAL_FATAL(stream_all(ctx, t, 0, n, 0, 1 << 16, &full), 0);
		CU_ASSERT_EQUAL_FATAL(gen_chunk(ctx, t, 0, mid, 0, &head, NULL, &err), 0);
		CU_ASSERT_EQUAL_FATAL(gen_chunk(ctx, t, mid, n, 0, &tail, NULL, &err), 0);
		CU_ASSERT_EQUAL(head.len + tail.len, full.len);
		CU_ASSERT(head.len > 0 && tail.len > 0);
		CU_ASSERT(head.len <= full.len && memcmp(full.data, head.data, head.len) == 0);
		CU_ASSERT(tail.len <= full.len &&
			  memcmp(full.data + full.len - tail.len, tail.data, tail.len) == 0);
		/* 7-byte reads split rows; concatenated they are still the same bytes */
		CU_ASSERT_EQUAL_FATAL(stream_all(ctx, t, mid, n, 0, 7, &small), 0);
		CU_ASSERT_EQUAL(small.len, tail.len);
		CU_ASSERT(small.len == tail.len && memcmp(small.data, tail.data, tail.len) == 0);
	}
	gen_buf_release(&full);
	gen_buf_release(&head);
	gen_buf_release(&tail);
	gen_buf_release(&small);
}

/* orders+lineitem and part+partsupp in one pass equal the tables generated alone. */
TH_TEST(gen, paired_pass_equals_single_tables)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	static const enum gen_table pairs[2][2] = {{GEN_ORDERS, GEN_LINEITEM},
						   {GEN_PART, GEN_PARTSUPP}};
	struct gen_buf m = {0}, c = {0}, alone = {0};
	struct errbuf err;
	for (int i = 0; i < 2; i++) {
		int64_t n = gen_rows(ctx, pairs[i][0]);
		CU_ASSERT_EQUAL_FATAL(gen_chunk(ctx, pairs[i][0], 100, n, 0, &m, &c, &err), 0);
		CU_ASSERT_EQUAL_FATAL(stream_all(ctx, pairs[i][0], 100, n, 0, 1 << 16, &alone), 0);
		CU_ASSERT(m.len == alone.len && memcmp(m.data, alone.data, m.len) == 0);
		CU_ASSERT_EQUAL_FATAL(stream_all(ctx, pairs[i][1], 100, n, 0, 1 << 16, &alone), 0);
		CU_ASSERT(c.len == alone.len && memcmp(c.data, alone.data, c.len) == 0);
	}
	gen_buf_release(&m);
	gen_buf_release(&c);
	gen_buf_release(&alone);
}

TH_TEST(gen, names_parse_and_bad_arguments_fail)
{
	struct gen_ctx *ctx = th_gen_sf001();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	enum gen_table t;
	CU_ASSERT_EQUAL(gen_table_parse("partsupp", &t), 0);
	CU_ASSERT_EQUAL(t, GEN_PARTSUPP);
	CU_ASSERT_EQUAL(gen_table_parse("parts", &t), -1);
	CU_ASSERT_STRING_EQUAL(gen_table_name(GEN_LINEITEM), "lineitem");
	struct errbuf err;
	struct gen_ctx *bad = NULL;
	CU_ASSERT_EQUAL(gen_ctx_new(&bad, 0, &err), -1);
	CU_ASSERT_PTR_NULL(bad);
	CU_ASSERT_EQUAL(gen_ctx_new(&bad, 100001, &err), -1);
	struct gen_stream *s = NULL;
	CU_ASSERT_EQUAL(gen_stream_new(&s, ctx, GEN_ORDERS, 20, 10, 0, &err), -1);
	CU_ASSERT_PTR_NULL(s);
}

static int run_gen(const char *args, const char *dir)
{
	return th_system("'%s' gen %s -o '%s' >/dev/null 2>&1", DBT3_BINARY, args, dir);
}

TH_TEST(gen, command_writes_dbgen_files)
{
	char *dir = th_tempdir("gen");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 -j 2 -q", dir), 0);
	char path[4096];
	for (size_t i = 0; i < sizeof(ref_sf001) / sizeof(ref_sf001[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.tbl", dir, gen_table_name(ref_sf001[i].t));
		th_md5_file_is(path, ref_sf001[i].md5);
		snprintf(path, sizeof(path), "%s/%s.tbl.tmp", dir, gen_table_name(ref_sf001[i].t));
		CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	}
	th_rmtree(dir);
	free(dir);
}

TH_TEST(gen, command_rejects_bad_input)
{
	char *dir = th_tempdir("genbad");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	CU_ASSERT_EQUAL(run_gen("-s 0", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s -1", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s abc", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 100001", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 1 -T nosuch", dir), CLI_USAGE);
	/* an empty list or an empty element is a usage error, not an empty run */
	CU_ASSERT_EQUAL(run_gen("-s 0.01 -T ''", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 -T nation,", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 -T ,nation", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 -T nation,,region", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 --tables=", dir), CLI_USAGE);
	char probe[4096];
	snprintf(probe, sizeof(probe), "%s/nation.tbl", dir);
	CU_ASSERT_NOT_EQUAL(access(probe, F_OK), 0);
	CU_ASSERT_EQUAL(run_gen("-s 1 -j 0", dir), CLI_USAGE);
	CU_ASSERT_EQUAL(run_gen("", dir), CLI_USAGE);
	/* a regular file where the directory should be: a bad -o (exit 2), nothing written */
	char file[4096], sub[4200];
	snprintf(file, sizeof(file), "%s/plain", dir);
	FILE *f = fopen(file, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	snprintf(sub, sizeof(sub), "%s/out", file);
	CU_ASSERT_EQUAL(run_gen("-s 0.01 -T nation", sub), CLI_USAGE);
	/* a full disk is an I/O error: exit 2 (never 1) */
	char cmd[9000];
	snprintf(cmd, sizeof(cmd),
		 "'%s' gen -s 0.01 -T nation,region --stdout >/dev/full 2>/dev/null", DBT3_BINARY);
	int st = system(cmd);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == CLI_IO);
	th_rmtree(dir);
	free(dir);
}

/* Runs `dbt3stab gen -s 0.01 -T nation,region -j 1 -o DIR` with stderr on a pseudo-terminal in
 * raw mode (no "\n" to "\r\n"); *out gets what it wrote there (caller frees). Its exit code. */
static int run_gen_on_tty(const char *dir, char **out)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	CU_ASSERT_FATAL(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	CU_ASSERT_FATAL(slave >= 0);
	struct termios tio;
	CU_ASSERT_FATAL(tcgetattr(slave, &tio) == 0);
	cfmakeraw(&tio);
	CU_ASSERT_FATAL(tcsetattr(slave, TCSANOW, &tio) == 0);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(slave, STDERR_FILENO) < 0)
			_exit(127);
		execl(DBT3_BINARY, DBT3_BINARY, "gen", "-s", "0.01", "-T", "nation,region", "-j", "1",
		      "-o", dir, (char *)NULL);
		_exit(127);
	}
	close(slave);
	size_t len = 0;
	*out = calloc(1, 65536);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*out);
	ssize_t n;
	/* a read fails (EIO) once the child, the last holder of the slave, has exited */
	while (len < 65535 && (n = read(master, *out + len, 65535 - len)) > 0)
		len += (size_t)n;
	close(master);
	int st;
	CU_ASSERT_FATAL(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* On a terminal: the pool line, erased, then one final line per table that stays; nothing at
 * all on stderr that is not a terminal. */
TH_TEST(gen, command_draws_progress_only_on_a_terminal)
{
	char *dir = th_tempdir("gentty");
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	char *tty = NULL;
	CU_ASSERT_EQUAL(run_gen_on_tty(dir, &tty), 0);
	const char *pool = "\r\033[Kgen: building the text pool...\r\033[K";
	CU_ASSERT_EQUAL(strncmp(tty, pool, strlen(pool)), 0);
	/* "%-15s %lld rows": the name padded to 15 columns */
	const char *finals[] = {"\r\033[Kgen: nation          25 rows  ",
				"\r\033[Kgen: region          5 rows  "};
	for (int i = 0; i < 2; i++) {
		const char *line = strstr(tty, finals[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(line);
		const char *end = strchr(line, '\n'), *done = strstr(line, " MB/s  done at ");
		CU_ASSERT_PTR_NOT_NULL_FATAL(end);
		CU_ASSERT(done && done < end && end[-1] == 's');
	}
	CU_ASSERT_FATAL(strlen(tty) > 0);
	CU_ASSERT_EQUAL(tty[strlen(tty) - 1], '\n');
	free(tty);
	char cmd[9000], err[4200];
	snprintf(err, sizeof(err), "%s/stderr", dir);
	snprintf(cmd, sizeof(cmd), "'%s' gen -s 0.01 -T nation,region -o '%s' 2>'%s'", DBT3_BINARY,
		 dir, err);
	CU_ASSERT_EQUAL(system(cmd), 0);
	struct stat sb;
	CU_ASSERT_EQUAL_FATAL(stat(err, &sb), 0);
	CU_ASSERT_EQUAL(sb.st_size, 0);
	th_rmtree(dir);
	free(dir);
}

TH_MAIN(gen)
