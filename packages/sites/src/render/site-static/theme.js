// The early script, in the page's head: applies the theme the reader chose with the toggle
// (stored in localStorage) before the first paint, on a site whose theme can be toggled.
(function() {
  var d = document.documentElement;
  try {
    var t = localStorage.getItem("quire-theme");
    if (d.hasAttribute("data-toggeable") && (t === "light" || t === "dark")) d.setAttribute("data-theme", t);
  } catch {
    // Storage refused (private mode, blocked cookies): the site's default theme stays.
  }
})();
