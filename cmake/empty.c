/* SPDX-License-Identifier: MIT */
/* Keeps a folder library valid while it has no sources of its own. */
typedef int dbt3_empty_unit;
