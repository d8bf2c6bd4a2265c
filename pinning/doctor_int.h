/* SPDX-License-Identifier: MIT */
/* Internals shared by the doctor's sources, in doctor_sys.c. */
#ifndef DBT3_DOC_INT_H
#define DBT3_DOC_INT_H
#include <stddef.h>

/* root + path into out (root NULL or "" is the real system). */
void doctor_path(char *out, size_t len, const char *root, const char *path);

/* The first line of root+path without its newline; 0, or -1 when it cannot be opened. */
int doctor_read_line(const char *root, const char *path, char *out, size_t len);

/* Nonzero when the kernel list "0-3,8" holds id. */
int doctor_list_has(const char *list, unsigned id);

#endif
