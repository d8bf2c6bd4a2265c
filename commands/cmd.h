/* SPDX-License-Identifier: MIT */
/* The subcommand table: one cmd_<name>.c per verb, each taking its own argv (argv[0] = name). */
#ifndef DBT3_CMD_H
#define DBT3_CMD_H

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_server(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_queries(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pin(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_stabilize(int argc, char **argv);

/* The table, terminated by a NULL name. */
extern const struct cmd cmd_table[];

/* Finds a command by name; NULL when unknown. */
const struct cmd *cmd_find(const char *name);

#endif
