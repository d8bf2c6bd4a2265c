/* SPDX-License-Identifier: MIT */
/* What the dbt3stab pages share, inlined in front of report.js and of history.js
 * (reports/CMakeLists.txt): the Vega-Lite config, the page data (script#dbt3-data) and the
 * drawing of the charts. Each chart element gets the Vega-Lite spec its page builds for it,
 * compiled by Vega-Lite and drawn by Vega as SVG. A chart that fails shows its error in place,
 * logs it with console.error and sets data-render-failed on <html>; when every chart is done,
 * <html data-rendered="N"> holds their count (the browser tests wait for it) and
 * data-render-ms the milliseconds it took. */
var dbt3Charts = (function () {
	'use strict';
	var CONFIG = {
		font: 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif',
		view: {stroke: null},
		axis: {labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal', gridColor: '#ececf0'},
		legend: {labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal'}
	};

	function fail(page, el, e) {
		var p = document.createElement('p');
		p.className = 'chart-error';
		p.textContent = 'chart failed: ' + (e && e.message ? e.message : String(e));
		el.appendChild(p);
		document.documentElement.setAttribute('data-render-failed', '1');
		console.error('dbt3stab ' + page + ': chart failed:', e);
	}

	/* Draws every element that matches selector with the spec specOf(el) returns (or throws);
	 * page names the page in console messages. A promise, settled when all are done. */
	function render(page, selector, specOf) {
		var t0 = performance.now();
		var charts = Array.prototype.slice.call(document.querySelectorAll(selector));
		var jobs = charts.map(function (el) {
			try {
				var spec = vegaLite.compile(specOf(el)).spec;
				var view = new vega.View(vega.parse(spec), {renderer: 'svg', container: el, hover: true});
				return view.runAsync().catch(function (e) { fail(page, el, e); });
			} catch (e) {
				fail(page, el, e);
				return Promise.resolve();
			}
		});
		return Promise.all(jobs).then(function () {
			document.documentElement.setAttribute('data-rendered', String(charts.length));
			document.documentElement.setAttribute('data-render-ms', String(Math.round(performance.now() - t0)));
		});
	}

	/* The data the page embeds. */
	function data() {
		return JSON.parse(document.getElementById('dbt3-data').textContent);
	}

	return {CONFIG: CONFIG, render: render, data: data};
})();
