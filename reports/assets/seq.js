/* SPDX-License-Identifier: MIT */
/* dbt3stab HTML report, sequential section: the Vega-Lite spec of one query's running estimate
 * (ratio new/old after each pair) with its repeated confidence interval against the decision
 * band. Registers window.dbt3Specs.seq(data, el, config); report.js, concatenated after this
 * file (reports/CMakeLists.txt), builds the spec for each div.chart[data-chart="seq"] (data-seq:
 * an index into data.seq.queries). */
(function () {
	'use strict';
	var PHASES = ['before the decision', 'deciding look', 'after the decision'];
	var PHASE_COLOURS = ['#4c78a8', '#d62728', '#b4b4bc'];

	function phaseOf(q, pair) {
		if (q.at == null || pair < q.at) return PHASES[0];
		return pair === q.at ? PHASES[1] : PHASES[2];
	}

	/* y range: the estimates, 1 and the band, and the interval ends near them; an interval
	 * much wider (the first looks of O'Brien-Fleming spending) is clipped. */
	function yDomain(s, rows) {
		var base = [1, s.band[0], s.band[1]];
		rows.forEach(function (r) { if (r.ratio != null) base.push(r.ratio); });
		var lo = Math.min.apply(null, base), hi = Math.max.apply(null, base);
		var reachLo = lo / 1.25, reachHi = hi * 1.25;
		rows.forEach(function (r) {
			if (r.lo != null && r.lo >= reachLo) lo = Math.min(lo, r.lo);
			if (r.hi != null && r.hi <= reachHi) hi = Math.max(hi, r.hi);
		});
		var pad = Math.pow(hi / lo, 0.08);
		return [lo / pad, hi * pad];
	}

	function seqSpec(data, el, config) {
		var s = data.seq, q = s.queries[Number(el.getAttribute('data-seq'))];
		var rows = q.looks.map(function (l) {
			return {pair: l[0], ratio: l[1], lo: l[2], hi: l[3], t: l[4], tb: l[5],
				phase: phaseOf(q, l[0])};
		});
		var last = Math.max(q.pairs, s.first_look, Math.min(s.max_pairs, 30));
		var x = {field: 'pair', type: 'quantitative', title: 'pairs of restarts',
			 scale: {domain: [0.5, last + 0.5], nice: false},
			 axis: {tickMinStep: 1, format: 'd'}};
		var y = {type: 'quantitative', title: 'ratio new / old (log)',
			 scale: {type: 'log', domain: yDomain(s, rows), nice: false},
			 axis: {format: '.3~f', tickCount: 5}};
		var colour = {field: 'phase', type: 'nominal', legend: null,
			      scale: {domain: PHASES, range: PHASE_COLOURS}};
		var layers = [
			{data: {values: [{a: s.band[0], b: s.band[1]}]},
			 mark: {type: 'rect', color: '#e9e9ee'},
			 encoding: {y: Object.assign({field: 'a'}, y), y2: {field: 'b'}}},
			{data: {values: [{a: 1}]}, mark: {type: 'rule', color: '#777', strokeDash: [4, 3]},
			 encoding: {y: Object.assign({field: 'a'}, y)}},
			{transform: [{filter: 'isValid(datum.lo) && isValid(datum.hi)'}],
			 mark: {type: 'rule', strokeWidth: 2, clip: true},
			 encoding: {x: x, y: Object.assign({field: 'lo'}, y), y2: {field: 'hi'},
				    color: colour}},
			{transform: [{filter: 'isValid(datum.ratio)'}],
			 mark: {type: 'line', color: '#9a9aa2', strokeWidth: 1, clip: true},
			 encoding: {x: x, y: Object.assign({field: 'ratio'}, y)}},
			{transform: [{filter: 'isValid(datum.ratio)'}],
			 mark: {type: 'point', filled: true, size: 45, opacity: 1, clip: true},
			 encoding: {
				 x: x, y: Object.assign({field: 'ratio'}, y), color: colour,
				 tooltip: [{field: 'pair'}, {field: 'ratio', format: '.4f'},
					   {field: 'lo', title: 'RCI low', format: '.4f'},
					   {field: 'hi', title: 'RCI high', format: '.4f'},
					   {field: 't', format: '.3f'}, {field: 'tb', title: 'critical t', format: '.4g'},
					   {field: 'phase'}]}}
		];
		if (q.at != null)
			layers.push({data: {values: [{pair: q.at}]},
				     mark: {type: 'rule', color: PHASE_COLOURS[1], strokeDash: [3, 3]},
				     encoding: {x: x}});
		return {width: 250, height: 130, config: config, data: {values: rows}, layer: layers};
	}

	window.dbt3Specs = window.dbt3Specs || {};
	window.dbt3Specs.seq = seqSpec;
})();
