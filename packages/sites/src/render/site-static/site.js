// The late script, at the end of the page's body: the theme toggle, the sidebar scrolled to the
// current page, menus that close, Copy buttons on code, the table of contents following the
// reader, and search as you type. The page works without it.
(function() {
  var d = document.documentElement;

  // The theme toggle: shown once this script runs, its choice kept for the next pages.
  var tg = document.querySelector("[data-theme-toggle]");
  if (tg) {
    tg.hidden = false;
    tg.addEventListener("click", function() {
      var current = d.getAttribute("data-theme") || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
      var next = current === "dark" ? "light" : "dark";
      d.setAttribute("data-theme", next);
      try {
        localStorage.setItem("quire-theme", next);
      } catch {
        // Not stored: the choice holds for this page only.
      }
    });
  }

  // The current page in view in a long sidebar.
  var cur = document.querySelector(".tree [aria-current=page]"), side = document.querySelector(".sidebar");
  if (cur && side && side.scrollHeight > side.clientHeight) {
    var top = cur.getBoundingClientRect().top - side.getBoundingClientRect().top;
    if (top > side.clientHeight * 0.7) side.scrollTop = top - side.clientHeight / 3;
  }

  // Menus close on a click elsewhere and on Escape.
  document.addEventListener("click", function(ev) {
    document.querySelectorAll("details.menu[open]").forEach(function(m) {
      if (!m.contains(ev.target)) m.removeAttribute("open");
    });
  });
  document.addEventListener("keydown", function(ev) {
    if (ev.key === "Escape") document.querySelectorAll("details.menu[open]").forEach(function(m) {
      m.removeAttribute("open");
    });
  });

  // A Copy button on code blocks.
  document.querySelectorAll(".markdown pre").forEach(function(pre) {
    if (!navigator.clipboard) return;
    var w = document.createElement("div");
    w.className = "code-frame";
    pre.parentNode.insertBefore(w, pre);
    w.appendChild(pre);
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy-code";
    b.textContent = "Copy";
    b.addEventListener("click", function() {
      navigator.clipboard.writeText(pre.innerText).then(function() {
        b.textContent = "Copied";
        setTimeout(function() {
          b.textContent = "Copy";
        }, 1500);
      });
    });
    w.appendChild(b);
  });

  // The table of contents marks the first heading in view.
  var toc = document.querySelectorAll(".toc a[href^='#']");
  if (toc.length && window.IntersectionObserver) {
    var byId = {};
    toc.forEach(function(a) {
      byId[decodeURIComponent(a.getAttribute("href").slice(1))] = a;
    });
    var seen = {};
    var io = new IntersectionObserver(function(es) {
      es.forEach(function(en) {
        seen[en.target.id] = en.isIntersecting;
      });
      var first = null;
      for (var i = 0; i < toc.length; i++) {
        var id = decodeURIComponent(toc[i].getAttribute("href").slice(1));
        if (seen[id]) {
          first = toc[i];
          break;
        }
      }
      if (first) toc.forEach(function(a) {
        a.classList.toggle("active", a === first);
      });
    }, { rootMargin: "-100px 0px -55% 0px" });
    Object.keys(byId).forEach(function(id) {
      var h = document.getElementById(id);
      if (h) io.observe(h);
    });
  }

  // Search as you type: results from the search URL as JSON, built with textContent; arrows, Enter
  // and Escape in the box, "/" or Ctrl/Cmd+K to reach it.
  var form = document.querySelector("[data-search]");
  if (!form || !window.fetch) return;
  var input = form.querySelector("input[name=q]");
  var key = form.querySelector(".search-key");
  if (key) key.hidden = false;
  var box = form.querySelector(".search-results");
  var timer = 0, seq = 0, active = -1;
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
  function show(items, q) {
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
      var t = document.createElement("span");
      t.className = "search-result-title";
      t.textContent = it.title;
      a.appendChild(t);
      if (it.section) {
        var s = document.createElement("span");
        s.className = "search-result-section";
        s.textContent = it.section;
        a.appendChild(s);
      }
      if (it.snippet) {
        var n = document.createElement("span");
        n.className = "search-result-snippet";
        n.textContent = it.snippet;
        a.appendChild(n);
      }
      box.appendChild(a);
    });
    box.hidden = false;
    active = -1;
    // The insights script counts searches and how many results they found.
    document.dispatchEvent(new CustomEvent("quire:search", { detail: { query: q, count: items.length } }));
    input.setAttribute("aria-expanded", "true");
  }
  function run() {
    var q = input.value.trim();
    var my = ++seq;
    if (!q) {
      close();
      return;
    }
    var u = new URL(form.getAttribute("action"), location.href);
    u.searchParams.set("q", q);
    fetch(u, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(function(r) {
      return r.ok ? r.json() : { items: [] };
    }).then(function(j) {
      if (my === seq) show(Array.isArray(j && j.items) ? j.items : [], q);
    }).catch(function() {
      // Offline or refused: the results shown stay, and Enter still submits the form.
    });
  }
  // Ask: where the site offers it, a button beside the box sends the question and shows the
  // answer with links to the pages it cites, in a live region read out when it arrives.
  var askUrl = form.getAttribute("data-ask");
  if (askUrl) {
    var ask = document.createElement("button");
    ask.type = "button";
    ask.className = "search-ask";
    ask.textContent = "Ask";
    var reply = document.createElement("div");
    reply.className = "search-answer";
    reply.setAttribute("role", "status");
    reply.setAttribute("aria-live", "polite");
    reply.hidden = true;
    form.appendChild(ask);
    form.appendChild(reply);
    ask.addEventListener("click", function() {
      var q = input.value.trim();
      if (!q) {
        input.focus();
        return;
      }
      close();
      reply.hidden = false;
      reply.textContent = "Looking for an answer\u2026";
      var u = new URL(askUrl, location.href);
      u.searchParams.set("q", q);
      fetch(u, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(function(r) {
        return r.json();
      }).then(function(j) {
        reply.textContent = "";
        var p = document.createElement("p");
        p.textContent = j.error ? j.error.message : j.answer;
        reply.appendChild(p);
        if (j.sources && j.sources.length) {
          var list = document.createElement("ol");
          list.className = "search-answer-sources";
          j.sources.forEach(function(s) {
            var li = document.createElement("li");
            li.value = s.n;
            var a = document.createElement("a");
            a.href = s.url;
            a.textContent = s.title;
            li.appendChild(a);
            list.appendChild(li);
          });
          reply.appendChild(list);
        }
      }).catch(function() {
        reply.textContent = "The answer could not be fetched. Try again.";
      });
    });
  }
  input.addEventListener("input", function() {
    clearTimeout(timer);
    timer = setTimeout(run, 150);
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
