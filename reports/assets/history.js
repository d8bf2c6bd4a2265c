/* SPDX-License-Identifier: MIT */
/* dbt3stab history report: one trend chart per query from the embedded data (script#dbt3-data):
 * every restart mean a dot, the per-result geometric mean a line, change points a rule labelled
 * with ratio and build; hover shows build and date. Inlined by reports/rpt_html_history.c after
 * charts.js, which draws the charts (and marks <html> when done or failed). Text from the store
 * reaches the page only through Vega (SVG text) or textContent. */
(function () {
	'use strict';
	var CONFIG = dbt3Charts.CONFIG;

	function trendSpec(q) {
		var dots = [], line = [], cps = [];
		q.points.forEach(function (p) {
			p.means.forEach(function (m, k) {
				dots.push({t: p.started_at, ms: m, build: p.build_id, restart: k + 1});
			});
			line.push({t: p.started_at, ms: p.gmean, build: p.build_id, n: p.means.length});
		});
		q.change_points.forEach(function (c) {
			cps.push({t: c.started_at, build: c.build_id, ratio: c.ratio,
				  label: '\u00d7' + c.ratio.toFixed(3) + ' ' + c.build_id.substring(0, 24),
				  kind: c.ratio > 1 ? 'slower' : 'faster', p: c.p,
				  ci: '[' + c.ci_low.toFixed(3) + ', ' + c.ci_high.toFixed(3) + ']'});
		});
		var x = {field: 't', type: 'temporal', title: 'result started at (UTC)'};
		var y = {field: 'ms', type: 'quantitative', title: 'restart mean (ms)',
			 scale: {zero: false}};
		var layers = [
			{data: {values: dots}, mark: {type: 'circle', size: 18, opacity: 0.45, color: '#4c78a8'},
			 encoding: {x: x, y: y, tooltip: [
				 {field: 'build', title: 'build'}, {field: 't', type: 'temporal', title: 'started',
				 format: '%Y-%m-%d %H:%M'}, {field: 'restart', title: 'restart'},
				 {field: 'ms', format: '.2f', title: 'mean ms'}]}},
			{data: {values: line}, mark: {type: 'line', color: '#1d1d1f', strokeWidth: 1.5,
				point: {filled: true, size: 22, color: '#1d1d1f'}},
			 encoding: {x: x, y: {field: 'ms', type: 'quantitative'}, tooltip: [
				 {field: 'build', title: 'build'}, {field: 't', type: 'temporal', title: 'started',
				 format: '%Y-%m-%d %H:%M'}, {field: 'n', title: 'restarts'},
				 {field: 'ms', format: '.2f', title: 'geometric mean ms'}]}}
		];
		if (cps.length) {
			var colour = {field: 'kind', type: 'nominal', title: 'change point',
				      scale: {domain: ['slower', 'faster'], range: ['#d62728', '#2ca02c']}};
			layers.push({data: {values: cps}, mark: {type: 'rule', strokeDash: [4, 3], strokeWidth: 1.5},
				     encoding: {x: x, color: colour, tooltip: [
					     {field: 'build', title: 'first build after'},
					     {field: 't', type: 'temporal', title: 'started', format: '%Y-%m-%d %H:%M'},
					     {field: 'ratio', format: '.3f', title: 'ratio after/before'},
					     {field: 'ci', title: 'CI'}, {field: 'p', format: '.2g', title: 'p'}]}});
			layers.push({data: {values: cps}, mark: {type: 'text', align: 'left', dx: 3, dy: -4,
				fontSize: 10, baseline: 'bottom'},
				     encoding: {x: x, y: {value: 0}, text: {field: 'label'}, color: colour}});
		}
		return {width: 640, height: 150, config: CONFIG, layer: layers};
	}

	function render(data) {
		var byKey = {};
		data.series.forEach(function (s) {
			s.queries.forEach(function (q) { byKey[s.id + '/' + q.id] = q; });
		});
		return dbt3Charts.render('history', 'div.chart[data-key]', function (el) {
			var q = byKey[el.getAttribute('data-key')];
			if (!q) throw new Error('no data for ' + el.getAttribute('data-key'));
			return trendSpec(q);
		});
	}

	render(dbt3Charts.data());
})();
