// The HTML view's behaviour: tabs, filters, and the panel that shows a locus.
// Every text shown comes from elements the page already holds; nothing is built from strings.
(function () {
  "use strict";
  var body = document.body;
  var panel = document.getElementById("panel-body");
  var overview = panel.firstElementChild;
  var current = null;

  function marks(id) {
    return document.querySelectorAll('[data-locus="' + CSS.escape(id) + '"]:not(.detail)');
  }

  function visible(el) {
    return el.offsetParent !== null && getComputedStyle(el).pointerEvents !== "none";
  }

  function view(name) {
    document.querySelectorAll("[data-view]").forEach(function (b) {
      b.setAttribute("aria-selected", String(b.dataset.view === name));
    });
    document.querySelectorAll("main > .view").forEach(function (v) {
      v.hidden = v.id !== "view-" + name;
    });
  }

  function currentView() {
    var shown = document.querySelector("main > .view:not([hidden])");
    return shown ? shown.id.slice(5) : "text";
  }

  function reveal(id) {
    var scope = document.getElementById("view-" + currentView());
    var first = Array.prototype.find.call(marks(id), function (m) { return scope.contains(m) && visible(m); });
    if (first) {
      first.scrollIntoView({ block: "center" });
    }
  }

  function show(id, scroll) {
    var detail = document.getElementById("d-" + id);
    if (!detail) {
      return;
    }
    document.querySelectorAll(".sel").forEach(function (m) { m.classList.remove("sel"); });
    marks(id).forEach(function (m) { m.classList.add("sel"); });
    var copy = detail.cloneNode(true);
    copy.removeAttribute("id");
    copy.hidden = false;
    panel.replaceChildren(copy);
    panel.parentElement.scrollTop = 0;
    current = id;
    history.replaceState(null, "", "#" + encodeURIComponent(id));
    if (scroll) {
      reveal(id);
    }
  }

  function close() {
    document.querySelectorAll(".sel").forEach(function (m) { m.classList.remove("sel"); });
    panel.replaceChildren(overview);
    current = null;
    history.replaceState(null, "", location.pathname + location.search);
  }

  // The loci in reading order in the view shown, as far as the filters leave them visible.
  function order() {
    var seen = new Set();
    var ids = [];
    document.querySelectorAll("#view-" + currentView() + " .v[data-locus]").forEach(function (m) {
      var id = m.dataset.locus;
      if (!seen.has(id) && visible(m)) {
        seen.add(id);
        ids.push(id);
      }
    });
    return ids;
  }

  function step(delta) {
    var ids = order();
    if (!ids.length) {
      return;
    }
    var i = current === null ? -1 : ids.indexOf(current);
    var next = i < 0 ? (delta > 0 ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, i + delta));
    show(ids[next], true);
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest("[data-view], [data-step], [data-close], [data-goto], [data-locus]");
    if (!t) {
      return;
    }
    if (t.dataset.view) {
      view(t.dataset.view);
      if (current) {
        reveal(current);
      }
    } else if (t.dataset.step) {
      step(Number(t.dataset.step));
    } else if (t.hasAttribute("data-close")) {
      close();
    } else if (t.dataset.goto) {
      e.preventDefault();
      view(t.dataset.goto);
      reveal(t.dataset.target || current);
    } else if (!t.classList.contains("detail")) {
      e.preventDefault();
      show(t.dataset.locus, t.classList.contains("tick") || t.tagName === "A");
    }
  });

  document.addEventListener("keydown", function (e) {
    if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) {
      return;
    }
    var t = e.target.closest ? e.target.closest("[data-locus]") : null;
    if ((e.key === "Enter" || e.key === " ") && t && !t.classList.contains("detail")) {
      e.preventDefault();
      show(t.dataset.locus, false);
    } else if (e.key === "j" || e.key === "n") {
      step(1);
    } else if (e.key === "k" || e.key === "p") {
      step(-1);
    } else if (e.key === "Escape") {
      close();
    }
  });

  document.querySelectorAll("input[data-hide]").forEach(function (box) {
    box.addEventListener("change", function () {
      body.classList.toggle("hide-" + box.dataset.hide, !box.checked);
      if (current && !Array.prototype.some.call(marks(current), visible)) {
        close();
      }
    });
    body.classList.toggle("hide-" + box.dataset.hide, !box.checked);
  });

  if (location.hash.length > 1) {
    show(decodeURIComponent(location.hash.slice(1)), true);
  }
})();
