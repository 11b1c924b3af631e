// The site's insights, first-party and without cookies: the page viewed, searches (with how many
// results they found), links followed, and the "Was this page helpful?" box. Events go to the
// site's own `~insights` as a beacon, which the server writes later: nothing waits on them.
(function() {
  var b = document.body, url = b.getAttribute("data-insights");
  if (!url) return;
  var views = b.hasAttribute("data-insights-views");
  // The address without its query, but for campaign tags: a share link's key stays out.
  function here() {
    var u = new URL(location.href), kept = new URLSearchParams();
    u.searchParams.forEach(function(v, k) {
      if (k.indexOf("utm_") === 0) kept.append(k, v);
    });
    u.search = kept.toString();
    u.hash = "";
    return u.href;
  }
  function base(type) {
    return {
      type: type,
      url: here(),
      page: b.getAttribute("data-page") || undefined,
      space: b.getAttribute("data-space") || undefined,
      siteSpace: b.getAttribute("data-site-space") || undefined,
      siteSection: b.getAttribute("data-site-section") || undefined
    };
  }
  function send(ev) {
    var body = JSON.stringify({ events: [ev] });
    if (navigator.sendBeacon && navigator.sendBeacon(url, new Blob([body], { type: "application/json" }))) return;
    if (window.fetch) fetch(url, { method: "POST", body: body, headers: { "content-type": "application/json" }, keepalive: true }).catch(function() {});
  }

  var sp = document.querySelector("[data-search-query]");
  if (views) {
    // The search page is no page of the site: its query is counted below, not a view (a view
    // without a page is how a 404 is counted).
    if (!document.querySelector(".search-page")) {
      var view = base("page_view");
      if (document.referrer) view.referrer = document.referrer;
      send(view);
    }

    // A search counts once its reader stops typing; the search page counts its own query.
    var timer = 0;
    document.addEventListener("quire:search", function(e) {
      clearTimeout(timer);
      timer = setTimeout(function() {
        var ev = base("search_type_query");
        ev.query = e.detail.query;
        ev.resultsCount = e.detail.count;
        send(ev);
      }, 1000);
    });
    if (sp) {
      var ev = base("search_type_query");
      ev.query = sp.getAttribute("data-search-query");
      ev.resultsCount = Number(sp.getAttribute("data-search-count")) || 0;
      send(ev);
    }

    document.addEventListener("click", function(e) {
      var a = e.target.closest && e.target.closest("a[href]");
      if (!a || a.getAttribute("href").charAt(0) === "#") return;
      var where = a.closest(".announcement") ? "announcement" : a.closest(".site-header") ? "header" : a.closest(".site-footer") ? "footer" : a.closest(".sidebar") ? "sidebar" : "content";
      var ev = base("link_click");
      ev.link = { target: { kind: "url", url: a.href }, position: where };
      send(ev);
    });
  }

  var box = document.querySelector("[data-feedback]");
  if (!box) return;
  box.hidden = false;
  var rating = null, form = box.querySelector("form"), status = box.querySelector("[role=status]");
  box.querySelectorAll("[data-rating]").forEach(function(btn) {
    btn.addEventListener("click", function() {
      rating = btn.getAttribute("data-rating");
      box.querySelectorAll("[data-rating]").forEach(function(o) {
        o.setAttribute("aria-pressed", o === btn ? "true" : "false");
      });
      var ev = base("page_post_feedback");
      ev.feedback = { rating: rating };
      send(ev);
      form.hidden = false;
      status.textContent = "Thank you. Tell us more below if you like.";
    });
  });
  form.addEventListener("submit", function(e) {
    e.preventDefault();
    var text = form.querySelector("textarea").value.trim();
    if (!text || !rating) return;
    var ev = base("page_post_feedback_comment");
    ev.feedback = { rating: rating, comment: text.slice(0, 512) };
    send(ev);
    form.hidden = true;
    status.textContent = "Thank you for your feedback.";
  });
})();
