// Quarry's search page: answers as you type, results grouped by file, the query in the URL.
// Everything shown is built as DOM text nodes: nothing from the index is parsed as HTML.
(function () {
  "use strict";
  var box = document.getElementById("q");
  var results = document.getElementById("results");
  var summary = document.getElementById("summary");
  var statusLine = document.getElementById("status");
  var help = document.getElementById("help");
  var helpToggle = document.getElementById("help-toggle");
  var filters = Array.prototype.slice.call(document.querySelectorAll(".filters select"));
  var DEBOUNCE_MS = 30;
  // As you type, a page of 20 answers fast; "more" asks for MORE.
  var PAGE = 20, MORE = 200, limit = PAGE;
  var timer = null, inflight = null, seq = 0, typedAt = 0, lastQuery = null;
  // Latencies from the last keystroke to results on the page, in ms (read by the browser test).
  window.quarryLatencies = [];

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // The words to mark: a query's plain words, two characters or more.
  function words(q) {
    var out = [];
    q.split(/\s+/).forEach(function (f) {
      if (f.indexOf(":") >= 0) return;
      f.split(/[^\p{L}\p{N}_]+/u).forEach(function (w) { if (w.length >= 2) out.push(w.toLowerCase()); });
    });
    return out;
  }

  // marked appends text to parent with each occurrence of a word in a <mark>.
  function marked(parent, text, ws) {
    text = text || "";
    var lower = text.toLowerCase(), i = 0;
    if (!ws.length || lower.length !== text.length) { parent.appendChild(document.createTextNode(text)); return parent; }
    while (i < text.length) {
      var at = -1, best = "";
      ws.forEach(function (w) {
        var j = lower.indexOf(w, i);
        if (j >= 0 && (at < 0 || j < at || (j === at && w.length > best.length))) { at = j; best = w; }
      });
      if (at < 0) { parent.appendChild(document.createTextNode(text.slice(i))); break; }
      if (at > i) parent.appendChild(document.createTextNode(text.slice(i, at)));
      parent.appendChild(el("mark", "", text.slice(at, at + best.length)));
      i = at + best.length;
    }
    return parent;
  }

  function fileURL(hit, q) {
    var p = new URLSearchParams({ path: hit.path });
    if (hit.workspace) p.set("workspace", hit.workspace);
    if (q) p.set("q", q);
    return "/file?" + p.toString() + (hit.line ? "#L" + hit.line : "");
  }

  function render(res, q, took) {
    results.textContent = "";
    var ws = words(q);
    var groups = [], byPath = {};
    (res.results || []).forEach(function (h, rank) {
      h.rank = rank;
      var key = (h.workspace || "") + "\u0000" + h.path;
      if (!byPath[key]) { byPath[key] = { path: h.path, workspace: h.workspace, language: h.language, hits: [] }; groups.push(byPath[key]); }
      byPath[key].hits.push(h);
    });
    groups.forEach(function (g) {
      // the groups keep the ranking's order; the rows within one follow the file's lines
      g.hits.sort(function (a, b) { return (a.hit === "file" ? 0 : a.line) - (b.hit === "file" ? 0 : b.line); });
      var sec = el("section", "group");
      var h3 = el("h3");
      var a = el("a", "path", g.path);
      a.href = fileURL({ path: g.path, workspace: g.workspace }, q);
      h3.appendChild(a);
      if (g.language) h3.appendChild(el("span", "lang", g.language));
      sec.appendChild(h3);
      g.hits.forEach(function (h) {
        var row = el("a", "hit");
        row.href = fileURL(h, q);
        row.dataset.rank = h.rank;
        row.dataset.hit = h.hit;
        row.appendChild(el("span", "ln", h.hit === "file" ? "" : h.line));
        if (h.hit === "definition") {
          row.appendChild(el("span", "kind", h.kind));
          row.appendChild(marked(el("span", "name"), h.name, ws));
          if (h.signature && h.signature !== h.name) row.appendChild(marked(el("span", "sig"), h.signature, ws));
        } else if (h.hit === "content") {
          row.appendChild(marked(el("span", "text"), h.text, ws));
        } else {
          row.appendChild(marked(el("span", "text"), h.path, ws));
        }
        sec.appendChild(row);
      });
      results.appendChild(sec);
    });
    var n = (res.results || []).length;
    var s = n + (n === 1 ? " result" : " results") + " in " + groups.length + (groups.length === 1 ? " file" : " files");
    if (res.truncated) s += " (more: " + (res.truncated_reason || "limit") + ")";
    if (res.relaxed) s += " · no result has every word: showing those with any";
    if (res.notice) s += " · " + res.notice;
    s += " · " + Math.round(took) + " ms";
    summary.textContent = n ? s : "No results for " + q;
    if (res.truncated && res.truncated_reason === "limit" && limit < MORE) {
      var more = el("button", "more", "Show up to " + MORE);
      more.type = "button";
      more.addEventListener("click", function () { limit = MORE; lastQuery = null; typedAt = performance.now(); search(false); });
      summary.appendChild(document.createTextNode(" "));
      summary.appendChild(more);
    }
    // the best result is selected (Enter opens it), wherever its file's line order puts it
    select(Math.max(0, hits().findIndex(function (r) { return r.dataset.rank === "0"; })));
  }

  function showError(env) {
    results.textContent = "";
    var e = (env && env.error) || { code: "INTERNAL", message: "no answer" };
    var p = el("p", "error");
    p.appendChild(el("strong", "", e.code + ": "));
    p.appendChild(document.createTextNode(e.message));
    results.appendChild(p);
    summary.textContent = "";
  }

  // The query with a field set to value ("" removes it): the filters edit the query.
  function withField(q, field, value) {
    var re = new RegExp("(^|\\s)-?" + field + ":\\S+", "g");
    q = q.replace(re, " ").replace(/\s+/g, " ").trim();
    return value ? (q + " " + field + ":" + value).trim() : q;
  }

  function syncFilters(q) {
    filters.forEach(function (sel) {
      var m = new RegExp("(?:^|\\s)" + sel.dataset.field + ":(\\S+)").exec(q);
      sel.value = m ? m[1] : "";
      if (m && sel.value !== m[1]) sel.value = "";
    });
  }

  function search(push) {
    var q = box.value.trim();
    syncFilters(q);
    if (q === lastQuery) return;
    lastQuery = q;
    var url = q ? "/?q=" + encodeURIComponent(q) : "/";
    if (push) history.pushState({ q: q }, "", url); else history.replaceState({ q: q }, "", url);
    document.title = q ? q + " · Quarry" : "Quarry";
    if (inflight) inflight.abort();
    if (!q) { results.textContent = ""; summary.textContent = ""; return; }
    var mine = ++seq, ctl = new AbortController(), start = typedAt || performance.now();
    inflight = ctl;
    fetch("/api/search", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: q, limit: limit }), signal: ctl.signal })
      .then(function (r) { return r.json(); })
      .then(function (res) {
        if (mine !== seq) return;
        var took = performance.now() - start;
        if (res.ok === false) showError(res); else render(res, q, took);
        window.quarryLatencies.push(took);
        document.body.dataset.answered = String(mine);
      })
      .catch(function (err) { if (err.name !== "AbortError") showError({ error: { code: "INTERNAL", message: String(err) } }); });
  }

  box.addEventListener("input", function () {
    typedAt = performance.now();
    limit = PAGE;
    clearTimeout(timer);
    timer = setTimeout(function () { search(false); }, DEBOUNCE_MS);
  });
  box.addEventListener("change", function () { lastQuery = null; search(true); });

  // Keyboard: / focuses the box, arrows move through the results, Enter opens one.
  var selected = -1;
  function hits() { return Array.prototype.slice.call(results.querySelectorAll(".hit")); }
  function select(i) {
    var hs = hits();
    if (!hs.length) { selected = -1; return; }
    selected = Math.max(0, Math.min(i, hs.length - 1));
    hs.forEach(function (h, j) { h.classList.toggle("selected", j === selected); });
    if (document.activeElement !== box) hs[selected].scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== box) { e.preventDefault(); box.focus(); box.select(); return; }
    if (e.key === "ArrowDown") { e.preventDefault(); select(selected + 1); }
    else if (e.key === "ArrowUp") { e.preventDefault(); select(selected - 1); }
    else if (e.key === "Enter") {
      var hs = hits();
      if (selected >= 0 && hs[selected]) { e.preventDefault(); location.href = hs[selected].href; }
    }
  });

  filters.forEach(function (sel) {
    sel.addEventListener("change", function () {
      box.value = withField(box.value, sel.dataset.field, sel.value);
      lastQuery = null;
      typedAt = performance.now();
      search(true);
    });
  });

  window.addEventListener("popstate", function () {
    box.value = new URLSearchParams(location.search).get("q") || "";
    lastQuery = null;
    search(false);
  });

  // The help panel, generated from the query language's registry (GET /api/query).
  helpToggle.addEventListener("click", function () {
    var open = help.hidden;
    help.hidden = !open;
    helpToggle.setAttribute("aria-expanded", String(open));
    if (open && !help.dataset.loaded) {
      fetch("/api/query").then(function (r) { return r.json(); }).then(function (lang) {
        help.dataset.loaded = "1";
        help.textContent = "";
        help.appendChild(el("h2", "", "Fields"));
        var t = el("table");
        var head = el("tr");
        ["field", "aliases", "type", "example", "what"].forEach(function (c) { head.appendChild(el("th", "", c)); });
        t.appendChild(head);
        (lang.fields || []).forEach(function (f) {
          var tr = el("tr");
          [f.name, (f.aliases || []).join(", "), f.type, f.example, f.doc || f.description].forEach(function (c) { tr.appendChild(el("td", "", c || "")); });
          t.appendChild(tr);
        });
        help.appendChild(t);
        help.appendChild(el("h2", "", "Operators"));
        var ops = el("table");
        (lang.operators || []).forEach(function (o) {
          var tr = el("tr");
          [o.syntax, o.example, o.doc].forEach(function (c) { tr.appendChild(el("td", "", c || "")); });
          ops.appendChild(tr);
        });
        help.appendChild(ops);
      });
    }
  });

  // The filters' choices, from the capabilities (languages, kinds) and the workspaces.
  fetch("/api/capabilities").then(function (r) { return r.json(); }).then(function (c) {
    (c.languages || []).forEach(function (l) { document.getElementById("f-lang").appendChild(new Option(l, l)); });
    (c.kinds || c.symbol_kinds || []).forEach(function (k) { document.getElementById("f-kind").appendChild(new Option(k, k)); });
    syncFilters(box.value);
  });
  fetch("/api/workspace", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"operation":"list"}' })
    .then(function (r) { return r.json(); }).then(function (w) {
      (w.workspaces || []).forEach(function (x) { if (x.primary) return; document.getElementById("f-workspace").appendChild(new Option(x.name || x.id, x.id)); });
      syncFilters(box.value);
    });

  // The status line: the index's freshness and counts, or why there are no answers.
  function status() {
    fetch("/api/health").then(function (r) { return r.json(); }).then(function (h) {
      if (h.ok === false) {
        statusLine.className = "status bad";
        statusLine.textContent = h.error.code === "NOT_INDEXED"
          ? "This workspace is not indexed yet: run quarry index in it (or wait: an index run may be under way)."
          : h.error.code + ": " + h.error.message;
        return;
      }
      if (h.status === "not_indexed") {
        statusLine.className = "status bad";
        statusLine.textContent = "This workspace is not indexed yet: the first search indexes it (or run quarry index in it).";
        return;
      }
      var c = (h.store && h.store.counts) || {};
      var ch = h.changed_since_index || {};
      var changed = (ch.modified || 0) + (ch.added || 0) + (ch.deleted || 0);
      var when = h.workspace && h.workspace.last_indexed ? new Date(h.workspace.last_indexed).toLocaleString() : "never";
      statusLine.className = "status" + (h.status === "healthy" ? "" : " bad");
      statusLine.textContent = (h.workspace ? h.workspace.name : "") + " · " + h.status + " · " + (c.files || 0) + " files, " + (c.symbols || 0) +
        " definitions · indexed " + when + (changed ? " · " + changed + " files changed since" : " · up to date") + (h.watch ? " · watching" : "") +
        ((h.problems || []).length ? " · " + h.problems[0].what + ": " + h.problems[0].action : "");
    }).catch(function () { statusLine.className = "status bad"; statusLine.textContent = "The server does not answer."; });
  }
  status();
  setInterval(status, 30000);

  // The query in the URL, unless something was typed before this script ran.
  var fromURL = new URLSearchParams(location.search).get("q") || "";
  if (fromURL && !box.value) box.value = fromURL;
  if (box.value) { lastQuery = null; typedAt = performance.now(); search(false); }
  box.focus();
  document.body.dataset.ready = "1";
})();
