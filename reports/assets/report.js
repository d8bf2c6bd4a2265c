/* SPDX-License-Identifier: MIT */
/* dbt3stab HTML report: builds Vega-Lite specs from the embedded data (script#dbt3-data), which
 * charts.js (inlined before this file by reports/rpt_html.c) draws with Vega as SVG, marking
 * <html> when done or failed; makes table.figures sortable. Text from result files reaches the
 * page only through Vega (SVG text nodes) or textContent. */
(function () {
	'use strict';
	var VERDICTS = ['regression', 'improvement', 'unchanged', 'inconclusive', 'wrong-result', 'overall'];
	var VERDICT_COLOURS = ['#d62728', '#2ca02c', '#7f7f7f', '#e6a100', '#7b2fbf', '#1d1d1f'];
	var SIDE_COLOURS = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#9d755d', '#e45756', '#72b7b2', '#bab0ac'];
	var CONFIG = dbt3Charts.CONFIG;

	function sideScale(data) {
		return {domain: data.sides, range: SIDE_COLOURS.slice(0, Math.max(1, data.sides.length))};
	}

	/* One row per query: ratio new/old with its CI, the min-effect band, colour by verdict, shape
	 * for plan changes and wrong results; the overall geometric-mean ratio as the last row. */
	function forestSpec(data) {
		var rows = data.queries.map(function (q) {
			var mark = q.wrong ? 'wrong result' : (q.plan_changed ? 'plan changed' : 'same plan');
			return {query: q.id, ratio: q.ratio, lo: q.lo, hi: q.hi, verdict: q.verdict, mark: mark,
				p: q.p_adj};
		});
		if (data.overall && data.overall.ratio != null)
			rows.push({query: 'all (geo. mean)', ratio: data.overall.ratio, lo: data.overall.lo,
				   hi: data.overall.hi, verdict: 'overall', mark: 'same plan', p: null});
		var order = rows.map(function (r) { return r.query; });
		var finite = rows.filter(function (r) { return r.ratio != null; });
		var xs = [];
		finite.forEach(function (r) {
			xs.push(r.ratio);
			if (r.lo != null) xs.push(r.lo);
			if (r.hi != null) xs.push(r.hi);
		});
		xs.push(data.band[0], data.band[1]);
		var lo = Math.min.apply(null, xs), hi = Math.max.apply(null, xs);
		var pad = Math.pow(hi / lo, 0.05);
		/* room on the right for the "plan changed" / "wrong result" labels */
		var marked = finite.some(function (r) { return r.mark !== 'same plan'; });
		var right = marked ? Math.pow(hi * pad / (lo / pad), 0.2) : 1;
		var x = {type: 'quantitative', title: 'ratio new / old (log scale; ' +
			 Math.round((1 - data.alpha) * 100) + '% confidence interval)',
			 scale: {type: 'log', domain: [lo / pad, hi * pad * right], nice: false},
			 axis: {format: '.3~f', tickCount: 8}};
		var y = {field: 'query', type: 'nominal', sort: order, title: null,
			 axis: {labelFontWeight: 'bold'}};
		var colour = {field: 'verdict', type: 'nominal', title: 'verdict',
			      scale: {domain: VERDICTS, range: VERDICT_COLOURS}};
		return {
			width: 640, height: {step: 20}, config: CONFIG,
			data: {values: rows},
			layer: [
				{data: {values: [{a: data.band[0], b: data.band[1]}]},
				 mark: {type: 'rect', color: '#e9e9ee'},
				 encoding: {x: Object.assign({field: 'a'}, x), x2: {field: 'b'}}},
				{data: {values: [{a: 1}]}, mark: {type: 'rule', color: '#777', strokeDash: [4, 3]},
				 encoding: {x: Object.assign({field: 'a'}, x)}},
				{transform: [{filter: 'isValid(datum.lo) && isValid(datum.hi)'}],
				 mark: {type: 'rule', strokeWidth: 2.5},
				 encoding: {y: y, x: Object.assign({field: 'lo'}, x), x2: {field: 'hi'},
					    color: colour}},
				{transform: [{filter: 'isValid(datum.ratio)'}],
				 mark: {type: 'point', filled: true, size: 80, opacity: 1},
				 encoding: {
					 y: y, x: Object.assign({field: 'ratio'}, x), color: colour,
					 shape: {field: 'mark', type: 'nominal', title: 'marks',
						 scale: {domain: ['same plan', 'plan changed', 'wrong result'],
							 range: ['circle', 'diamond', 'cross']}},
					 tooltip: [{field: 'query'}, {field: 'verdict'},
						   {field: 'ratio', format: '.4f'}, {field: 'lo', title: 'CI low', format: '.4f'},
						   {field: 'hi', title: 'CI high', format: '.4f'},
						   {field: 'p', title: 'adjusted p', format: '.3g'}, {field: 'mark'}]}},
				/* spelled out too: a diamond is easy to miss */
				{transform: [{filter: "isValid(datum.ratio) && datum.mark !== 'same plan'"},
					     {calculate: 'isValid(datum.hi) ? datum.hi : datum.ratio', as: 'at'}],
				 mark: {type: 'text', align: 'left', dx: 7, fontSize: 10, fontWeight: 'bold'},
				 encoding: {y: y, x: Object.assign({field: 'at'}, x), text: {field: 'mark'},
					    color: colour}}
			],
			resolve: {scale: {x: 'shared'}}
		};
	}

	/* Report mode overview: every restart mean relative to the geometric mean of its file's
	 * restart means for that query, so the restart-to-restart spread of all queries shows at once. */
	function spreadSpec(data) {
		var rows = [];
		data.queries.forEach(function (q) {
			q.sides.forEach(function (s, i) {
				if (!s.means.length) return;
				var g = Math.exp(s.means.reduce(function (a, m) { return a + Math.log(m); }, 0) / s.means.length);
				s.means.forEach(function (m, r) {
					rows.push({query: q.id, side: data.sides[i], rel: (m / g - 1) * 100, ms: m, restart: r});
				});
			});
		});
		return {
			/* the step is per file inside a query's band (yOffset) */
			width: 640, height: {step: Math.max(7, Math.round(24 / data.sides.length))}, config: CONFIG,
			data: {values: rows},
			layer: [
				{data: {values: [{rel: 0}]}, mark: {type: 'rule', color: '#777', strokeDash: [4, 3]},
				 encoding: {x: {field: 'rel', type: 'quantitative'}}},
				{mark: {type: 'point', filled: true, size: 45, opacity: 0.75},
				 encoding: {
					 y: {field: 'query', type: 'nominal', sort: data.queries.map(function (q) { return q.id; }),
					     title: null, axis: {labelFontWeight: 'bold'}},
					 yOffset: {field: 'side', type: 'nominal', scale: {domain: data.sides}},
					 x: {field: 'rel', type: 'quantitative',
					     title: 'restart mean vs. geometric mean of the restart means (%)'},
					 color: Object.assign({field: 'side', type: 'nominal', title: 'result'}, {scale: sideScale(data)}),
					 tooltip: [{field: 'query'}, {field: 'side'}, {field: 'restart'},
						   {field: 'ms', title: 'mean (ms)', format: '.4~f'},
						   {field: 'rel', title: 'vs. geo. mean (%)', format: '+.2f'}]}}
			]
		};
	}

	/* Restart means of each side as dots: restart-to-restart spread. */
	function meansSpec(data, q) {
		var rows = [];
		q.sides.forEach(function (s, i) {
			s.means.forEach(function (m, r) { rows.push({side: data.sides[i], ms: m, restart: r}); });
		});
		return {
			width: 340, height: {step: 22}, config: CONFIG, data: {values: rows},
			title: {text: 'restart means', fontSize: 12, fontWeight: 'normal', anchor: 'start'},
			mark: {type: 'point', filled: true, size: 55, opacity: 0.75},
			encoding: {
				y: {field: 'side', type: 'nominal', title: null, sort: data.sides, axis: {labelLimit: 150}},
				x: {field: 'ms', type: 'quantitative', title: 'ms', scale: {zero: false, nice: true}},
				color: {field: 'side', type: 'nominal', legend: null, scale: sideScale(data)},
				tooltip: [{field: 'side'}, {field: 'restart'}, {field: 'ms', title: 'mean (ms)', format: '.4~f'}]
			}
		};
	}

	/* Every execution of every restart in order (warm-up, then measured), one line per restart. */
	function warmupSpec(data, q) {
		var rows = [], warm = 0;
		q.sides.forEach(function (s, i) {
			s.runs.forEach(function (r) {
				rows.push({side: data.sides[i], run: i + ':' + r[0], restart: r[0], n: r[1], ms: r[2],
					   phase: r[3] ? 'measured' : 'warm-up'});
				if (!r[3] && r[1] > warm) warm = r[1];
			});
		});
		var x = {field: 'n', type: 'quantitative', title: 'execution in the restart (dashed: end of warm-up)',
			 axis: {tickMinStep: 1}, scale: {zero: false, nice: false}};
		var y = {field: 'ms', type: 'quantitative', title: 'ms (log)', scale: {type: 'log', nice: false},
			 axis: {tickCount: 5}};
		/* the restart-means chart above names the colours */
		var colour = {field: 'side', type: 'nominal', scale: sideScale(data), legend: null};
		var layers = [];
		if (warm > 0)
			layers.push({data: {values: [{n: warm + 0.5}]},
				     mark: {type: 'rule', color: '#999', strokeDash: [3, 3]},
				     encoding: {x: x}});
		layers.push({mark: {type: 'line', strokeWidth: 1, opacity: 0.6},
			     encoding: {x: x, y: y, color: colour, detail: {field: 'run'}}});
		layers.push({mark: {type: 'point', filled: true, size: 14},
			     encoding: {
				     x: x, y: y, color: colour,
				     tooltip: [{field: 'side'}, {field: 'restart'}, {field: 'n', title: 'execution'},
					       {field: 'phase'}, {field: 'ms', format: '.4~f'}]}});
		/* a log axis cannot show 0 ms (a result file may hold one) */
		rows = rows.filter(function (r) { return r.ms > 0; });
		return {width: 440, height: 130, config: CONFIG, data: {values: rows},
			title: {text: 'warm-up curve', fontSize: 12, fontWeight: 'normal', anchor: 'start'},
			layer: layers};
	}

	function buildSpec(data, el) {
		var kind = el.getAttribute('data-chart');
		var q = data.queries[Number(el.getAttribute('data-q'))];
		switch (kind) {
		case 'forest': return forestSpec(data);
		case 'spread': return spreadSpec(data);
		case 'means': return meansSpec(data, q);
		case 'warmup': return warmupSpec(data, q);
		}
		/* charts of other sections (seq.js) register themselves */
		if (window.dbt3Specs && Object.prototype.hasOwnProperty.call(window.dbt3Specs, kind))
			return window.dbt3Specs[kind](data, el, CONFIG);
		throw new Error('unknown chart kind ' + kind);
	}

	function render(data) {
		return dbt3Charts.render('report', 'div.chart[data-chart]', function (el) {
			return buildSpec(data, el);
		});
	}

	/* Sortable table: click a header; numbers sort by data-v, text by content. */
	function sortable(table) {
		var heads = table.tHead.rows[0].cells;
		Array.prototype.forEach.call(heads, function (th, col) {
			th.setAttribute('tabindex', '0');
			function go() {
				var asc = th.getAttribute('aria-sort') !== 'ascending';
				Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
				th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
				var body = table.tBodies[0];
				var rows = Array.prototype.slice.call(body.rows);
				rows.sort(function (a, b) {
					var x = a.cells[col], y = b.cells[col];
					var u = x.getAttribute('data-v'), v = y.getAttribute('data-v');
					var c;
					if (u !== null && v !== null) {
						u = Number(u); v = Number(v);
						/* NaN (no figure) sorts last either way */
						if (isNaN(u) || isNaN(v)) return isNaN(u) - isNaN(v);
						c = u - v;
					} else {
						c = x.textContent.localeCompare(y.textContent, undefined, {numeric: true});
					}
					return asc ? c : -c;
				});
				rows.forEach(function (r) { body.appendChild(r); });
			}
			th.addEventListener('click', go);
			th.addEventListener('keydown', function (e) { if (e.key === 'Enter') go(); });
		});
	}

	Array.prototype.forEach.call(document.querySelectorAll('table.figures'), sortable);
	render(dbt3Charts.data()).catch(function (e) { console.error('dbt3stab report:', e); });
})();
