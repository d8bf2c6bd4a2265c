/* SPDX-License-Identifier: MIT */
/* Root execs nothing a file or another user named (docs/server.md, "Who can reach a managed
 * server"): --resume takes no binary from the result file, the --version probe runs as the
 * server's user, a preload reaches the server only, --variant values cannot add lines to my.cnf.
 * One loaded SF 0.01 instance; the cases that need root say so and skip without it. */
#include "result/res.h"
#include "tests/harness.h"
#include "tests/th_db.h"
#include "tests/th_schema.h"
#include "tests/th_spawn.h"
#include <jansson.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct th_db db;
static int loaded;
static char out[1 << 14];

/* db.tmp/name, in buf. */
static const char *at(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", db.tmp, name);
	return buf;
}

/* A directory everyone may write (1777), like /tmp: where another user plants things and
 * where the server's user leaves its marks. */
static void pub_dir(char *buf, size_t n, const char *name)
{
	at(buf, n, name);
	CU_ASSERT_EQUAL_FATAL(mkdir(buf, 0777) == 0 || chmod(buf, 0777) == 0, 1);
	CU_ASSERT_EQUAL_FATAL(chmod(buf, 01777), 0);
}

/* A shell script at path with body, mode mode. */
static void script(const char *path, const char *body, mode_t mode)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(chmod(path, mode), 0);
}

/* The log of th_db_run's tag: one line, holding want. */
static void assert_one_line(const char *tag, const char *want)
{
	char log[4300];
	snprintf(log, sizeof(log), "%s/%s.log", db.tmp, tag);
	char *text = th_slurp(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL(th_count(text, "\n"), 1);
	if (!strstr(text, want))
		fprintf(stderr, "'%s' lacks '%s': %s", log, want, text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	free(text);
}

static int need_root(void)
{
	if (geteuid() != 0) {
		th_skip("needs root: the server's user differs from the tool's only then");
		return 0;
	}
	return 1;
}

static uid_t mysql_uid(void)
{
	struct passwd *pw = getpwnam("mysql");
	CU_ASSERT_PTR_NOT_NULL_FATAL(pw);
	return pw->pw_uid;
}

/* Runs the variants (NULL-terminated, at most 2) over 2 restarts of Q6 into dir and interrupts
 * the run (SIGINT) once wait_for exists: an interrupted variant run, its output in log. */
static void interrupted_run(const char *dir, const char *log, const char *const *variants,
			    const char *wait_for)
{
	const char *args[32] = {
	    "run", "-s",     "0.01", "-o",	  dir, "--restarts",	   "2",	     "--warmup",
	    "0",   "--runs", "1",    "--queries", "6", "--restart-paired", "--quiet"};
	int n = 15;
	for (int i = 0; variants[i]; i++) {
		args[n++] = "--variant";
		args[n++] = variants[i];
	}
	args[n] = NULL;
	pid_t child = th_db_spawn(&db, log, args, 0);
	int waited = 0;
	while (access(wait_for, F_OK) != 0 && waited < 120000 &&
	       waitpid(child, NULL, WNOHANG) == 0) {
		th_sleep_ms(20);
		waited += 20;
	}
	CU_ASSERT_EQUAL(kill(child, SIGINT), 0);
	CU_ASSERT_EQUAL_FATAL(th_wait_exit(child), 130);
}

/* A --variant value with a line break or a '!' would reach my.cnf as a line of its own (an
 * !include): refused in one line before anything is made. */
TH_TEST(run_exec_db, variant_line_break_and_bang_refused)
{
	char vd[4300];
	static const char *const bad[] = {"a:init_connect=a\n!include /etc/passwd.cnf\n#",
					  "a:init_connect=x!y", "a:init_connect=x\ty"};
	static const char *const why[] = {"contains a line break", "contains a '!'",
					  "contains a control character"};
	at(vd, sizeof(vd), "vd");
	for (int i = 0; i < 3; i++) {
		const char *args[] = {"run",  "-s",	    "0.01", "-o",	vd,  "--variant",
				      bad[i], "--restarts", "1",    "--warmup", "0", "--runs",
				      "1",    "--queries",  "6",    NULL};
		CU_ASSERT_EQUAL(th_db_run(&db, "variant-bad", args), 2);
		assert_one_line("variant-bad", why[i]);
		CU_ASSERT_NOT_EQUAL(access(vd, F_OK), 0);
	}
}

/* Another user leaves an interrupted result file whose plan.variant_spec names a world-writable
 * script: --resume refuses it in one line, names the variant and the command, and runs
 * nothing. */
TH_TEST(run_exec_db, resume_runs_no_binary_of_the_file)
{
	char pub[4300], evil[4400], mark[4400], res[4400], spec[4600], dir[4300], from[4400];
	char log[4300];
	static const char *const one[] = {"a:", NULL};
	CU_ASSERT_FATAL(loaded);
	pub_dir(pub, sizeof(pub), "pub");
	snprintf(evil, sizeof(evil), "%s/evil.sh", pub);
	snprintf(mark, sizeof(mark), "%s/ran", pub);
	snprintf(res, sizeof(res), "%s/planted.json", pub);
	at(dir, sizeof(dir), "planted-from");
	snprintf(from, sizeof(from), "%s/a.json", dir);
	interrupted_run(dir, at(log, sizeof(log), "planted-from.log"), one, from);
	char body[4500];
	snprintf(body, sizeof(body), "id -u >> '%s'", mark);
	script(evil, body, 0777);
	snprintf(spec, sizeof(spec), "a:mysqld=%s", evil);
	json_error_t je;
	json_t *r = json_load_file(from, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	json_object_set_new(json_object_get(r, "plan"), "variant_spec", json_string(spec));
	CU_ASSERT_EQUAL_FATAL(json_dump_file(r, res, 0), 0);
	json_decref(r);
	chmod(res, 0666);

	const char *plain[] = {"run", "--resume", res, NULL};
	CU_ASSERT_EQUAL(th_db_run(&db, "resume-planted", plain), 2);
	assert_one_line("resume-planted", "variant 'a' of the file is not on the command line");
	assert_one_line("resume-planted", "--variant a:mysqld=");
	const char *other[] = {"run", "--resume", res, "--variant", "a:", NULL};
	CU_ASSERT_EQUAL(th_db_run(&db, "resume-other", other), 2);
	assert_one_line("resume-other", "variant 'a' differs from the file's");
	CU_ASSERT_NOT_EQUAL(access(mark, F_OK), 0);
}

/* The --version probe of a --mysqld runs as the server's user: a script that records its uid. */
TH_TEST(run_exec_db, version_probe_runs_as_mysql)
{
	char pub[4300], bin[4300], probe[4400], mark[4400], line[64];
	if (!need_root())
		return;
	pub_dir(pub, sizeof(pub), "pub-probe");
	at(bin, sizeof(bin), "bin");
	CU_ASSERT_EQUAL_FATAL(mkdir(bin, 0755), 0);
	snprintf(probe, sizeof(probe), "%s/fake-mysqld", bin);
	snprintf(mark, sizeof(mark), "%s/uid", pub);
	char body[4500];
	snprintf(body, sizeof(body), "id -u > '%s'; exit 1", mark);
	script(probe, body, 0755);
	int rc = th_sh(out, sizeof(out), "'%s' server start --datadir '%s' --mysqld '%s'",
		       DBT3_BINARY, db.inst, probe);
	CU_ASSERT_NOT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(th_read_line(mark, line, sizeof(line)), 0);
	char want[32];
	snprintf(want, sizeof(want), "%u", (unsigned)mysql_uid());
	CU_ASSERT_STRING_EQUAL(line, want);
}

/* mark.so: a library whose constructor appends the uid of whoever loads it to mark. */
static void build_marker_so(char *so, size_t n, const char *mark)
{
	char lib[4300], src[4400];
	at(lib, sizeof(lib), "lib");
	CU_ASSERT_EQUAL_FATAL(mkdir(lib, 0755) == 0 || access(lib, F_OK) == 0, 1);
	snprintf(src, sizeof(src), "%s/mark.c", lib);
	snprintf(so, n, "%s/mark.so", lib);
	if (access(so, F_OK) == 0)
		return;
	FILE *f = fopen(src, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f,
		"#include <fcntl.h>\n#include <stdio.h>\n#include <unistd.h>\n"
		"__attribute__((constructor)) static void mark(void)\n"
		"{\n\tint fd = open(\"%s\", O_WRONLY | O_APPEND | O_CREAT, 0666);\n"
		"\tif (fd >= 0) {\n\t\tdprintf(fd, \"%%u\\n\", (unsigned)getuid());\n"
		"\t\tclose(fd);\n\t}\n}\n",
		mark);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(
	    th_sh(out, sizeof(out), "cc -shared -fPIC -o '%s' '%s' && chmod 755 '%s'", so, src, so),
	    0);
}

static void write_profile(const char *path, const char *preload)
{
	json_t *p = json_pack("{s:s, s:i, s:[], s:[], s:s}", "format", "dbt3stab-profile",
			      "format_version", 1, "settings", "run_args", "preload", preload);
	CU_ASSERT_EQUAL_FATAL(json_dump_file(p, path, 0), 0);
	json_decref(p);
}

/* A profile's preload is loaded by the server, as the server's user, and by nothing root runs
 * (before: dbt3stab setenv'd it into its own process, so the --version probe loaded it as
 * uid 0). */
TH_TEST(run_exec_db, profile_preload_reaches_only_the_server)
{
	char pub[4300], mark[4400], so[4400], prof[4300], res[4300];
	CU_ASSERT_FATAL(loaded);
	if (!need_root())
		return;
	pub_dir(pub, sizeof(pub), "pub-preload");
	snprintf(mark, sizeof(mark), "%s/loaded-by", pub);
	build_marker_so(so, sizeof(so), mark);
	write_profile(at(prof, sizeof(prof), "preload-profile.json"), so);
	at(res, sizeof(res), "preload.json");
	const char *args[] = {"run", "-s",	   "0.01", "-o",       res, "--profile",
			      prof,  "--restarts", "1",	   "--warmup", "0", "--runs",
			      "1",   "--queries",  "6",	   "--quiet",  NULL};
	CU_ASSERT_EQUAL(th_db_run(&db, "preload", args), 0);
	char *text = th_slurp(mark);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text); /* the server loaded it */
	char want[32];
	snprintf(want, sizeof(want), "%u\n", (unsigned)mysql_uid());
	size_t lines = th_count(text, "\n");
	CU_ASSERT(lines >= 1);
	CU_ASSERT_EQUAL(th_count(text, want), lines); /* and only as mysql */
	if (th_count(text, want) != lines)
		fprintf(stderr, "loaded by uids:\n%s", text);
	free(text);
}

/* A preload the server's user would load from a file another user can change, or by a relative
 * path, is refused in one line before anything runs. */
TH_TEST(run_exec_db, preload_from_a_writable_file_refused)
{
	char pub[4300], mark[4400], so[4400], ww[4400], prof[4300], res[4300];
	pub_dir(pub, sizeof(pub), "pub-preload-bad");
	snprintf(mark, sizeof(mark), "%s/loaded-by", pub);
	build_marker_so(so, sizeof(so), mark);
	snprintf(ww, sizeof(ww), "%s/mark.so", pub);
	CU_ASSERT_EQUAL_FATAL(th_sh(out, sizeof(out), "cp '%s' '%s' && chmod 777 '%s'", so, ww, ww),
			      0);
	at(prof, sizeof(prof), "bad-profile.json");
	at(res, sizeof(res), "bad-preload.json");
	static const char *const why[] = {"can be changed by another user",
					  "is not an absolute path"};
	const char *preload[] = {ww, "lib/mark.so"};
	for (int i = 0; i < 2; i++) {
		write_profile(prof, preload[i]);
		const char *args[] = {"run", "-s",	   "0.01", "-o",       res, "--profile",
				      prof,  "--restarts", "1",	   "--warmup", "0", "--runs",
				      "1",   "--queries",  "6",	   NULL};
		CU_ASSERT_EQUAL(th_db_run(&db, "preload-bad", args), 2);
		assert_one_line("preload-bad", why[i]);
		CU_ASSERT_NOT_EQUAL(access(res, F_OK), 0);
	}
	CU_ASSERT_NOT_EQUAL(access(mark, F_OK), 0);
}

/* An interrupted variant run's note gives --variant words, and that command completes it. */
TH_TEST(run_exec_db, resume_hint_gives_the_variants)
{
	char dir[4300], both[4400], log[4300];
	CU_ASSERT_FATAL(loaded);
	at(dir, sizeof(dir), "variants");
	at(log, sizeof(log), "variants.log");
	snprintf(both, sizeof(both), "%s/b.json", dir); /* b measured too: both in the dir */
	static const char *const two[] = {"a:", "b:innodb_adaptive_hash_index=OFF", NULL};
	interrupted_run(dir, log, two, both);
	char *text = th_slurp(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	const char *cmd = strstr(text, "    dbt3stab run --resume");
	if (!cmd)
		fprintf(stderr, "no resume command in: %s", text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cmd);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(cmd, " --variant a: --variant b:innodb_adaptive_hash_index=OFF"));
	char line[9000];
	snprintf(line, sizeof(line), "'%s'%.*s --quiet >'%s/variants-resume.log' 2>&1", DBT3_BINARY,
		 (int)strcspn(cmd + 12, "\n"), cmd + 12, db.tmp);
	free(text);
	CU_ASSERT_EQUAL(th_system("%s", line), 0);
	for (int i = 0; i < 2; i++) {
		char f[4400];
		snprintf(f, sizeof(f), "%s/%s.json", dir, i ? "b" : "a");
		struct res_file *r = th_result_read_valid(f);
		CU_ASSERT_PTR_NOT_NULL(r->finished_at);
		res_file_free(r);
	}
}

int main(int argc, char **argv)
{
	return th_db_main_loaded(&db, &loaded, "exec", "run_exec_db", th_cases(), argc, argv);
}
