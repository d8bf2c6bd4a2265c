/* SPDX-License-Identifier: MIT */
/* The query templates as data (internal to qry.c and the tests). */
#ifndef DBT3_QRY_TEMPLATES_H
#define DBT3_QRY_TEMPLATES_H

#define QRY_TEMPLATE_COUNT 22

/* Template of the timed statement of query id (1..22), ":N" marking parameter N; NULL otherwise. */
const char *qry_template(int id);

/* Q15's untimed statements around the timed one. */
extern const char qry_q15_pre[];
extern const char qry_q15_post[];

#endif
