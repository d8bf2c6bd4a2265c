/* SPDX-License-Identifier: MIT */
/* dbt3stab history report: the overview's filters (only what changed, one series) and the small
 * multiples of the series picked: one compact chart per query from the embedded data
 * (script#dbt3-data): restart means as dots, the stable segments' levels with their CIs, the
 * change points as dashed rules. Only the picked series is drawn; another is drawn when picked
 * (a cell's link picks its series). Inlined by reports/rpt_html_history.c after charts.js. Text
 * from the store reaches the page only through Vega (SVG text) or textContent. */
(function () {
	'use strict';
	var CONFIG = dbt3Charts.CONFIG;
	/* One entry per metric a query carries in the data; the work counters will add theirs. */
	var METRICS = {time: {title: 'ms', format: '.2f', what: 'restart mean'}};

	function smallSpec(series, q, metric) {
		var m = q[metric], def = METRICS[metric], res = series.results;
		var dots = [], levels = [], cps = [];
		m.pts.forEach(function (p) {
			for (var k = 1; k < p.length; k++)
				dots.push({t: res[p[0]][0], v: p[k], build: res[p[0]][1], restart: k});
		});
		m.levels.forEach(function (l) {
			if (l[2] === null) return;
			levels.push({t: res[l[0]][0], t2: res[l[1]][0], v: l[2],
				     lo: l[3] === null ? l[2] : l[3], hi: l[4] === null ? l[2] : l[4]});
		});
		m.cps.forEach(function (c) {
			cps.push({t: res[c[0]][0], build: res[c[0]][1], ratio: c[1],
				  kind: c[1] > 1 ? 'slower' : 'faster'});
		});
		var x = {field: 't', type: 'temporal', title: null,
			 axis: {format: '%m-%d', tickCount: 4, labelFontSize: 9, grid: false}};
		var y = {field: 'v', type: 'quantitative', title: def.title, scale: {zero: false},
			 axis: {tickCount: 3, labelFontSize: 9}};
		var layers = [
			{data: {values: levels}, mark: {type: 'rect', opacity: 0.18, color: '#4c78a8'},
			 encoding: {x: x, x2: {field: 't2'}, y: {field: 'lo', type: 'quantitative',
				 scale: {zero: false}}, y2: {field: 'hi'}}},
			{data: {values: dots}, mark: {type: 'circle', size: 10, opacity: 0.5, color: '#4c78a8'},
			 encoding: {x: x, y: y, tooltip: [
				 {field: 'build', title: 'build'},
				 {field: 't', type: 'temporal', title: 'started', format: '%Y-%m-%d %H:%M'},
				 {field: 'restart', title: 'restart'},
				 {field: 'v', format: def.format, title: def.what}]}},
			{data: {values: levels}, mark: {type: 'rule', strokeWidth: 2, color: '#1d1d1f'},
			 encoding: {x: x, x2: {field: 't2'}, y: {field: 'v', type: 'quantitative'}}}
		];
		if (cps.length)
			layers.push({data: {values: cps}, mark: {type: 'rule', strokeDash: [3, 2], strokeWidth: 1.5},
				     encoding: {x: x, color: {field: 'kind', type: 'nominal', legend: null,
					     scale: {domain: ['slower', 'faster'], range: ['#d62728', '#2ca02c']}},
					     tooltip: [{field: 'build', title: 'first build after'},
						       {field: 't', type: 'temporal', title: 'started',
							format: '%Y-%m-%d %H:%M'},
						       {field: 'ratio', format: '.3f', title: 'ratio after/before'}]}});
		return {width: 215, height: 90, config: CONFIG, layer: layers};
	}

	var data = dbt3Charts.data(), byKey = {};
	data.series.forEach(function (s) {
		s.queries.forEach(function (q) {
			Object.keys(METRICS).forEach(function (metric) {
				if (q[metric]) byKey[s.id + '/' + q.id + '/' + metric] = {s: s, q: q, metric: metric};
			});
		});
	});

	function sections() {
		return Array.prototype.slice.call(document.querySelectorAll('section.series[data-series]'));
	}

	/* Shows the charts of series id (drawn the first time) and hides the others'. */
	function pick(id) {
		var sec = null;
		sections().forEach(function (s) {
			var on = s.getAttribute('data-series') === id;
			s.hidden = !on;
			if (on) sec = s;
		});
		if (!sec || sec.hasAttribute('data-drawn')) return;
		sec.setAttribute('data-drawn', '1');
		sec.setAttribute('data-drawing', '1');
		dbt3Charts.render('history', '#' + sec.id + ' div.chart[data-key]', function (el) {
			var k = byKey[el.getAttribute('data-key')];
			if (!k) throw new Error('no data for ' + el.getAttribute('data-key'));
			return smallSpec(k.s, k.q, k.metric);
		}).then(function () { sec.removeAttribute('data-drawing'); });
	}

	/* The series a location hash names (#s-ID or #q-ID-QUERY), or null. */
	function seriesOfHash(hash) {
		var m = /^#[sq]-([0-9a-f]{16})/.exec(hash || '');
		return m ? m[1] : null;
	}

	var table = document.querySelector('table.overview');
	var form = document.querySelector('form.filters');
	var only = document.getElementById('only-changed');
	var select = document.getElementById('pick-series');
	if (!table || !sections().length) {
		document.documentElement.setAttribute('data-rendered', '0');
		return;
	}
	form.hidden = false;
	only.addEventListener('change', function () {
		table.classList.toggle('only-changed', only.checked);
	});
	select.addEventListener('change', function () {
		var id = select.value;
		Array.prototype.forEach.call(table.querySelectorAll('[data-series]'), function (el) {
			el.hidden = id !== '' && el.getAttribute('data-series') !== id;
		});
		if (id) pick(id);
	});
	/* a cell's link: its series' charts first, then the browser scrolls to the chart */
	table.addEventListener('click', function (e) {
		var a = e.target.closest ? e.target.closest('a[href^="#"]') : null;
		var id = a ? seriesOfHash(a.getAttribute('href')) : null;
		if (id) pick(id);
	});
	window.addEventListener('hashchange', function () {
		var id = seriesOfHash(location.hash);
		if (id) pick(id);
	});
	var first = seriesOfHash(location.hash) || sections()[0].getAttribute('data-series');
	pick(first);
})();
