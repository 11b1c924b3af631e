// The search of an exported site (SiteExports.ts): the site's own search box, answered from the
// index beside the pages (~export/search-index.js, `window.quireSearchIndex`) with no server. It
// ranks as the server's memory index does (content's SearchIndex.ts): every word of the query in
// a section (the page title's words count in each), page-title words above headings above body,
// the last word as the start of a word while typing, `or` between alternatives, `-word` excluded.
(function() {
  var me = document.currentScript;
  var root = (me && me.getAttribute("data-root")) || "";
  var index = window.quireSearchIndex;
  if (!index) return;
  var weights = { title: 1, heading: 0.4, body: 0.2 };
  // PostgreSQL's English stop words (what the server's search is in production): never searched for.
  var stop = setOf("i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now".split(" "));
  function words(text) {
    return String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];
  }
  function setOf(list) {
    var s = Object.create(null);
    for (var i = 0; i < list.length; i++) s[list[i]] = true;
    return s;
  }
  // Word sets, made once per section on the first search.
  var rows = null;
  function prepare() {
    rows = [];
    index.pages.forEach(function(page, p) {
      var title = setOf(words(page.title));
      page.sections.forEach(function(section, position) {
        rows.push({ p: p, position: position, section: section, title: title, heading: setOf(words(section[1])), body: setOf(words(section[2])) });
      });
    });
  }
  function searched(word) {
    return !stop[word];
  }
  function parse(query) {
    var alternatives = [], required = [], excluded = [];
    query.split(/\s+/).forEach(function(token) {
      if (token.toLowerCase() === "or") {
        if (required.length) alternatives.push({ required: required, excluded: excluded });
        required = [];
        excluded = [];
      } else if (token.charAt(0) === "-") excluded.push.apply(excluded, words(token).filter(searched));
      else required.push.apply(required, words(token).filter(searched));
    });
    if (required.length) alternatives.push({ required: required, excluded: excluded });
    return alternatives;
  }
  // As the reader types: the last word is the start of a word (content's splitPrefix).
  function alternativesOf(query) {
    var m = /(^|\s)(\S+)\s*$/.exec(query);
    if (!m) return parse(query);
    var token = m[2];
    if (token.toLowerCase() === "or" || token.charAt(0) === "-" || token.indexOf("\"") !== -1) return parse(query);
    var word = token.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
    if (!word) return parse(query);
    if (stop[word]) return parse(query.slice(0, m.index));
    var alternatives = parse(query.slice(0, m.index));
    if (!alternatives.length) return [{ required: [], excluded: [], prefix: word }];
    return alternatives.map(function(a) {
      return { required: a.required, excluded: a.excluded, prefix: word };
    });
  }
  function startsIn(set, prefix) {
    for (var w in set) if (w.lastIndexOf(prefix, 0) === 0) return true;
    return false;
  }
  function score(row, alternatives) {
    var best = 0;
    alternatives.forEach(function(a) {
      function has(w) {
        return row.title[w] || row.heading[w] || row.body[w];
      }
      if (!a.required.every(has) || a.excluded.some(has)) return;
      var total = 0;
      a.required.forEach(function(w) {
        total += row.title[w] ? weights.title : row.heading[w] ? weights.heading : weights.body;
      });
      if (a.prefix !== undefined) {
        var weight = startsIn(row.title, a.prefix) ? weights.title : startsIn(row.heading, a.prefix) ? weights.heading : startsIn(row.body, a.prefix) ? weights.body : 0;
        if (!weight) return;
        total += weight;
      }
      best = Math.max(best, total / (a.required.length + (a.prefix === undefined ? 0 : 1)));
    });
    return best;
  }
  // At most 20 pages, each with its best section, as `~search` answers.
  function search(query) {
    if (!rows) prepare();
    var alternatives = alternativesOf(query.slice(0, 200));
    var best = Object.create(null);
    rows.forEach(function(row) {
      var s = score(row, alternatives);
      if (s <= 0) return;
      var kept = best[row.p];
      if (!kept || s > kept.score || s === kept.score && row.position < kept.row.position) best[row.p] = { row: row, score: s };
    });
    return Object.keys(best).map(function(p) {
      return best[p];
    }).sort(function(a, b) {
      return b.score - a.score || a.row.p - b.row.p;
    }).slice(0, 20).map(function(hit) {
      var page = index.pages[hit.row.p];
      var section = hit.row.section;
      var body = String(section[2]).replace(/\s+/g, " ").trim();
      return {
        title: page.title,
        score: hit.score,
        url: root + page.url + (section[0] ? "#" + encodeURIComponent(section[0]) : ""),
        section: page.section || "",
        snippet: body.length > 200 ? body.slice(0, 197) + "\u2026" : body
      };
    });
  }
  // The ranking alone, for a console or a test: `quireSearch("words")`.
  window.quireSearch = search;
  var form = document.querySelector("[data-export-search]");
  if (!form) return;
  var input = form.querySelector("input[name=q]");
  var box = form.querySelector(".search-results");
  var key = form.querySelector(".search-key");
  if (key) key.hidden = false;
  var timer = 0, active = -1;
  function close() {
    box.hidden = true;
    active = -1;
    input.setAttribute("aria-expanded", "false");
  }
  function links() {
    return box.querySelectorAll("a");
  }
  function mark(i) {
    var l = links();
    if (!l.length) return;
    active = (i + l.length) % l.length;
    for (var k = 0; k < l.length; k++) l[k].classList.toggle("active", k === active);
    l[active].scrollIntoView({ block: "nearest" });
  }
  function span(className, text) {
    var s = document.createElement("span");
    s.className = className;
    s.textContent = text;
    return s;
  }
  function run() {
    var q = input.value.trim();
    if (!q) {
      close();
      return;
    }
    var items = search(q);
    box.textContent = "";
    if (!items.length) {
      var p = document.createElement("p");
      p.className = "search-empty";
      p.textContent = "No results for \u201C" + q + "\u201D";
      box.appendChild(p);
    }
    items.forEach(function(it) {
      var a = document.createElement("a");
      a.href = it.url;
      a.className = "search-result";
      a.setAttribute("role", "option");
      a.appendChild(span("search-result-title", it.title));
      if (it.section) a.appendChild(span("search-result-section", it.section));
      if (it.snippet) a.appendChild(span("search-result-snippet", it.snippet));
      box.appendChild(a);
    });
    box.hidden = false;
    active = -1;
    input.setAttribute("aria-expanded", "true");
  }
  form.addEventListener("submit", function(ev) {
    ev.preventDefault();
    run();
  });
  input.addEventListener("input", function() {
    clearTimeout(timer);
    timer = setTimeout(run, 100);
  });
  input.addEventListener("keydown", function(ev) {
    if (ev.key === "Escape") {
      close();
      input.blur();
    } else if (ev.key === "ArrowDown" && !box.hidden) {
      ev.preventDefault();
      mark(active + 1);
    } else if (ev.key === "ArrowUp" && !box.hidden) {
      ev.preventDefault();
      mark(active - 1);
    } else if (ev.key === "Enter" && active >= 0) {
      ev.preventDefault();
      links()[active].click();
    }
  });
  input.addEventListener("focus", function() {
    if (box.childNodes.length && input.value.trim()) box.hidden = false;
  });
  document.addEventListener("click", function(ev) {
    if (!form.contains(ev.target)) close();
  });
  document.addEventListener("keydown", function(ev) {
    var t = ev.target;
    if ((ev.key === "/" || ev.key === "k" && (ev.metaKey || ev.ctrlKey)) && !(t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) {
      ev.preventDefault();
      input.focus();
      input.select();
    }
  });
})();
