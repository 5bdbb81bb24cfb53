"""The report page's template (Jinja2): the tally and overview on top, then one section per paper."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>icml26 report</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1240px;margin:1.5em auto;padding:0 1.2em;color:#1d1d1d;line-height:1.4}
h1{font-size:1.7em;margin:.2em 0 .4em}h2{font-size:1.35em;margin:1.6em 0 .2em;padding-top:.6em;border-top:2px solid #ddd}
h3{font-size:1.05em;margin:1.2em 0 .3em;color:#333}
table{border-collapse:collapse;margin:.4em 0 1.2em;width:100%;table-layout:fixed}
td,th{border:1px solid #d4d4d4;padding:5px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere;font-size:.9em}
th{background:#f1f3f5;font-weight:600}
q{font-style:italic;color:#333}q::before{content:"\\201C"}q::after{content:"\\201D"}
small{color:#555}code{font-size:.92em;overflow-wrap:anywhere}
.v{display:inline-block;padding:1px 7px;border-radius:9px;color:#fff;font-size:.88em;font-weight:600;white-space:normal;max-width:100%;box-sizing:border-box}
{% for verdict, colour in colours.items() %}.v.{{ verdict }}{background:{{ colour }}}{% endfor %}
.v.toy-verified,.v.inconclusive{color:#1d1d1d}
.badge{display:inline-block;margin-left:6px;padding:0 6px;border:1px solid #8a6d00;border-radius:8px;color:#8a6d00;font-size:.8em}
table.headline th:nth-child(1){width:31%}table.headline th:nth-child(2){width:14%}table.headline th:nth-child(3){width:9%}
table.headline th:last-child{width:8%}table.headline.beside th:nth-child(3){width:14%}table.headline.beside th:nth-child(4){width:9%}
table.tests th:nth-child(1){width:29%}table.tests th:nth-child(2){width:15%}table.tests th:last-child{width:14%}
table.history th:nth-child(1){width:9%}table.history th:nth-child(2){width:18%}table.history th:nth-child(4){width:9%}
table.history th:nth-child(6){width:8%}
table.methods th:nth-child(1){width:3%}table.methods th:nth-child(2){width:14%}table.methods th:nth-child(3){width:15%}
details.test summary{cursor:pointer}details.test dl{margin:.3em 0 0;font-size:.95em}
details.test dt{font-weight:600;color:#444}details.test dd{margin:0 0 .25em 1em}
.provenance{color:#444;font-size:.9em;margin:.2em 0}
.banner{background:#fff4d6;border:1px solid #e0c060;padding:6px 10px;border-radius:4px}
figure{margin:.6em 0}figure img{max-width:100%}figcaption{font-size:.85em;color:#555;max-width:60em}
figure.plot{display:inline-block;max-width:48%;vertical-align:top;margin:4px}
details.more>summary{cursor:pointer;font-weight:600;margin:.6em 0}
</style></head><body>
{% if not only %}<h1>icml26: what the papers claim, and what we measured</h1>
<p>For each paper, the sentences of its abstract that claim something (its <em>PaperClaims</em>), each
decided by the tests declared for it before any run. A PaperClaim's verdict is rolled up from its tests by
its quantifier (<code>all</code>, <code>most</code>, <code>any</code> or a <code>headline</code> test).
<span class="v verified">verified</span> means measured at the paper's own scale (or an exact per-instance
guarantee); <span class="v toy-verified">toy-verified</span> holds on a laptop-sized proxy;
<span class="v non-discriminating">non-discriminating</span> holds, but so does a control;
<span class="v refuted">refuted</span> the rule fails; <span class="v inconclusive">inconclusive</span>
undecided; <span class="v re-tabulated">re-tabulated</span> recomputed from the authors' released files only.</p>
<p class="tally">{{ counts }}</p>
{% if skipped %}<p class="banner">Skipped run files: {% for s in skipped %}<code>{{ s }}</code>{% if not loop.last %}; {% endif %}{% endfor %}</p>{% endif %}
{% if overview %}<figure><img class="overview" alt="PaperClaim verdicts per paper" src="data:image/png;base64,{{ overview }}"></figure>{% endif %}
<table class="methods"><tr><th>#</th><th>method</th><th>record</th><th>the abstract's claims</th><th>tests</th><th>checks</th></tr>
{% for m in methods %}<tr><td>{{ m.number }}</td><td>{% if m.run %}<a href="#{{ m.name }}">{{ m.name }}</a>{% else %}{{ m.name }}{% endif %}</td>
<td>{{ m.status }}</td><td>{{ m.paper_claims }}</td><td>{{ m.tests }}</td><td>{{ m.checks }}</td></tr>{% endfor %}</table>{% endif %}
{% for m in methods if m.run %}
<section class="method" id="{{ m.name }}">
<h2>{{ m.name }}: {{ m.run.title }}</h2>
<p class="provenance">{{ m.run.paper }}<br>This record: <b>{{ m.provenance }}</b> &middot; <code>{{ m.path }}</code>
{% if m.beside %}<br>Beside it, the quick record ({{ m.beside.provenance }}) &middot; <code>{{ m.beside.path }}</code>: its verdicts are the column <em>quick run</em>.{% endif %}
{% for n in m.newer %}<br>A newer run, not shown: {{ n }}{% endfor %}{% for o in m.superseded %}<br>{{ superseded_text }} {{ o }}{% endfor %}</p>
{% if m.partial %}<p class="banner">{{ m.status }}: {{ m.partial }}</p>
{% else %}
{% if m.run.profile == "smoke" %}<p class="banner">Plumbing check: a smoke run cannot decide these claims; its verdicts are shown but not counted.</p>{% endif %}
{% if m.headline_html %}
<h3>What the abstract claims, and what we found</h3>
{{ m.headline_html }}
{% if m.forest %}<figure><img class="forest" alt="forest plot of {{ m.name }}'s tests" src="data:image/png;base64,{{ m.forest }}">
<figcaption>{{ forest_legend }}</figcaption></figure>{% endif %}
<h3>Tests of the paper's claims</h3>
{{ m.tests_html }}
<h3>Our checks (not the paper's claims)</h3>
{{ m.checks_html }}
{% if m.history_html %}<section class="history"><h3>History of the tests</h3>
<p><small>Every change to a test after a result was seen, with the old rule or setting and the verdict it had then.</small></p>
{{ m.history_html }}</section>{% endif %}
{% if m.run.background %}<details class="more"><summary>Background: sentences of the abstract we do not test</summary><ul>
{% for b in m.run.background %}<li><q>{{ b.quote }}</q> <small>({{ b.reason }})</small></li>{% endfor %}</ul></details>{% endif %}
{% else %}
<p class="banner">Judged under contract v{{ m.run.contract or 1 }}: shown, not counted.</p>
<h3>The paper's claims</h3>
{{ m.legacy_html }}
<h3>Our checks (not the paper's claims)</h3>
{{ m.legacy_checks_html }}
{% endif %}
{% for n in m.run.notes %}<p><small>{{ n }}</small></p>{% endfor %}
{% if m.images %}<details class="more"><summary>The run's own plots ({{ m.images|length }})</summary>
{% for img in m.images %}<figure class="plot"><img alt="{{ img.name }}" src="data:image/png;base64,{{ img.data }}"><figcaption>{{ img.caption }}</figcaption></figure>{% endfor %}</details>{% endif %}
{% endif %}
</section>
{% endfor %}
<script>
// Self-check read by the browser test: images decoded, toggles that open onto content, titles that fit.
window.addEventListener("load", () => {
  const imgs = [...document.images];
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt);
  const toggles = [...document.querySelectorAll("details")];
  const closed = toggles.filter(d => !d.open);
  closed.forEach(d => { d.open = true; });
  const empty = toggles.filter(d => {
    const body = [...d.children].filter(e => e.tagName !== "SUMMARY");
    return !body.some(e => e.getBoundingClientRect().height > 0);
  }).map(d => d.querySelector("summary").textContent.slice(0, 60));
  const clipped = [...document.querySelectorAll("h1,h2,h3,summary,figcaption,th,td,.title,q")]
    .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.slice(0, 60));
  closed.forEach(d => { d.open = false; });
  const page = document.documentElement;
  document.body.dataset.check = JSON.stringify({
    images: imgs.length, broken, clipped, overflow: page.scrollWidth > page.clientWidth + 1,
    forest: document.querySelectorAll("img.forest").length,
    headline: document.querySelectorAll("table.headline").length,
    tests: document.querySelectorAll("table.tests").length,
    history: document.querySelectorAll("section.history table.history tr").length,
    toggles: toggles.length, empty,
    sections: document.querySelectorAll("section.method").length,
  });
});
</script>
</body></html>
"""
