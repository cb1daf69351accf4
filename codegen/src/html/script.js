(function () {
  "use strict";
  var input = document.getElementById("search");
  var methods = Array.prototype.slice.call(document.querySelectorAll("section.method"));
  var navLinks = Array.prototype.slice.call(document.querySelectorAll("a.nav-method"));
  var groups = Array.prototype.slice.call(document.querySelectorAll(".nav-group"));
  var interfaces = Array.prototype.slice.call(document.querySelectorAll("section.interface"));
  var noMatch = document.getElementById("no-match");
  var count = document.getElementById("search-count");
  var navById = {};
  navLinks.forEach(function (a) { navById[a.getAttribute("data-method")] = a; });

  // Filter methods by name and summary: every word typed must occur.
  function filter() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var searching = words.length > 0;
    document.body.classList.toggle("searching", searching);
    var shown = 0;
    methods.forEach(function (m) {
      var hay = m.getAttribute("data-search");
      var hit = words.every(function (w) { return hay.indexOf(w) !== -1; });
      m.hidden = !hit;
      var link = navById[m.id];
      if (link) link.parentNode.hidden = !hit;
      if (hit) shown++;
    });
    groups.forEach(function (g) {
      g.hidden = searching && !g.querySelector("li:not([hidden])");
    });
    interfaces.forEach(function (s) {
      s.hidden = searching && !s.querySelector("section.method:not([hidden])");
    });
    noMatch.hidden = shown > 0;
    count.hidden = !searching || shown === 0;
    count.textContent = shown + " of " + methods.length + (methods.length === 1 ? " method" : " methods");
  }
  input.addEventListener("input", filter);
  input.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { input.value = ""; filter(); }
    if (e.key === "Enter") {
      var first = methods.filter(function (m) { return !m.hidden; })[0];
      if (first) { location.hash = first.id; }
    }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== input) {
      e.preventDefault();
      input.focus();
    }
  });

  // Shareable links: #info.getNodeID. Ids hold dots, so look them up by id, never by selector.
  function target() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { id = location.hash.slice(1); }
    return id ? document.getElementById(id) : null;
  }
  function reveal() {
    var el = target();
    if (!el) return;
    if (el.closest("[hidden]")) { input.value = ""; filter(); }
    var d = el.closest("details");
    if (d) d.open = true;
    el.scrollIntoView({ block: "start" });
    mark(el.id);
    document.body.classList.remove("nav-open");
  }
  window.addEventListener("hashchange", reveal);
  if (location.hash) {
    if (document.readyState === "complete") reveal();
    else window.addEventListener("load", reveal);
  }

  // Highlight the method in view in the sidebar.
  var current = null;
  function mark(id) {
    var link = navById[id];
    if (!link || link === current) return;
    if (current) current.classList.remove("current");
    current = link;
    link.classList.add("current");
    var nav = document.getElementById("nav");
    var r = link.getBoundingClientRect(), n = nav.getBoundingClientRect();
    if (r.top < n.top || r.bottom > n.bottom) {
      nav.scrollTop += r.top - n.top - n.height / 3;
    }
  }
  if ("IntersectionObserver" in window) {
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) mark(e.target.id); });
    }, { rootMargin: "0px 0px -70% 0px" });
    methods.forEach(function (m) { io.observe(m); });
  }

  // Narrow screens: the method list opens from the menu button.
  var toggle = document.getElementById("menu-toggle");
  toggle.addEventListener("click", function () {
    var open = document.body.classList.toggle("nav-open");
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  });
  navLinks.forEach(function (a) {
    a.addEventListener("click", function () { document.body.classList.remove("nav-open"); });
  });
})();
