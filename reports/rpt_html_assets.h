/* SPDX-License-Identifier: MIT */
/* Files of reports/assets/ compiled in by reports/assets/embed.cmake (a build step): each is a
 * NUL-terminated byte array plus its length without the NUL. Checked at build time to hold no
 * text that would end an inline <script> or <style> early. */
#ifndef DBT3_RPT_HTML_ASSETS_H
#define DBT3_RPT_HTML_ASSETS_H
#include <stddef.h>

extern const unsigned char rpt_asset_vega_js[]; /* vega.min.js (npm vega, BSD-3-Clause) */
extern const size_t rpt_asset_vega_js_len;
extern const unsigned char rpt_asset_vega_lite_js[]; /* vega-lite.min.js (BSD-3-Clause) */
extern const size_t rpt_asset_vega_lite_js_len;
extern const unsigned char rpt_asset_report_js[]; /* charts.js + report.js: specs, sorting */
extern const size_t rpt_asset_report_js_len;
extern const unsigned char rpt_asset_report_css[]; /* report.css */
extern const size_t rpt_asset_report_css_len;
extern const unsigned char rpt_asset_history_js[]; /* charts.js + history.js: trend page */
extern const size_t rpt_asset_history_js_len;
extern const unsigned char rpt_asset_licenses[]; /* LICENSE.vega + LICENSE.vega-lite */
extern const size_t rpt_asset_licenses_len;

#endif
