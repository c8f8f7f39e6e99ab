// The HTML view's behaviour: tabs, filters, witness switches, the side-by-side 經/注疏 view,
// and the panel that shows a locus (a side column on a wide screen, a sheet at the bottom of
// a narrow one). Every text shown comes from elements the page already holds.
// The tools (tools.js) ask for a locus or a view with the events "collate:show" and
// "collate:view"; this script tells them "collate:changed" when what is visible changes.
(function () {
  "use strict";
  var body = document.body;
  var panel = document.getElementById("panel-body");
  var aside = document.getElementById("panel");
  var overview = panel.firstElementChild;
  var handle = aside.querySelector("[data-sheet]");
  var narrow = window.matchMedia("(max-width: 700px)");
  var off = new Set(); // witnesses switched off
  var current = null;

  function marks(id) {
    return document.querySelectorAll('[data-locus="' + CSS.escape(id) + '"]:not(.detail)');
  }

  function visible(el) {
    return el.offsetParent !== null && getComputedStyle(el).pointerEvents !== "none";
  }

  function changed() {
    document.dispatchEvent(new CustomEvent("collate:changed"));
  }

  function view(name) {
    document.querySelectorAll("[data-view]").forEach(function (b) {
      b.setAttribute("aria-selected", String(b.dataset.view === name));
    });
    document.querySelectorAll("main > .view").forEach(function (v) {
      v.hidden = v.id !== "view-" + name;
    });
    changed();
  }

  function currentView() {
    var shown = document.querySelector("main > .view:not([hidden])");
    return shown ? shown.id.slice(5) : "text";
  }

  // The part of the window the text can be seen in: under the bar, above the sheet.
  function sight() {
    var top = document.querySelector(".bar").getBoundingClientRect().bottom;
    var bottom = narrow.matches ? aside.getBoundingClientRect().top : window.innerHeight;
    return [top, Math.max(top + 40, bottom)];
  }

  // Bring an element into sight: on a narrow screen into the upper third of what the sheet
  // leaves free, so that the locus stays next to its panel; otherwise to the middle.
  function bring(el, always) {
    var area = sight();
    var r = el.getBoundingClientRect();
    if (always || r.top < area[0] + 4 || r.bottom > area[1] - 4) {
      var goal = narrow.matches ? area[0] + (area[1] - area[0]) / 3 : (area[0] + area[1]) / 2;
      window.scrollBy(0, r.top + r.height / 2 - goal);
    }
  }

  function reveal(id, always) {
    var scope = document.getElementById("view-" + currentView());
    var first = Array.prototype.find.call(marks(id), function (m) { return scope.contains(m) && visible(m); });
    if (first) {
      bring(first, always);
    }
  }

  function sheet(open) {
    body.classList.toggle("sheet-open", open);
    handle.setAttribute("aria-expanded", String(open));
  }

  function switchWitnesses(root) {
    root.querySelectorAll("[data-wits]").forEach(function (m) {
      var ws = m.dataset.wits.split(" ").filter(Boolean);
      m.classList.toggle("w-off", ws.length > 0 && ws.every(function (w) { return off.has(w); }));
    });
    root.querySelectorAll("[data-w]").forEach(function (e) {
      e.classList.toggle("w-off", off.has(e.dataset.w));
    });
  }

  // how: "push" (a visited locus: Back returns to the one before), or "none" (come from the address).
  function show(id, scroll, how) {
    var detail = document.getElementById("d-" + id);
    if (!detail) {
      return;
    }
    document.querySelectorAll(".sel").forEach(function (m) { m.classList.remove("sel"); });
    marks(id).forEach(function (m) { m.classList.add("sel"); });
    var copy = detail.cloneNode(true);
    copy.removeAttribute("id");
    copy.hidden = false;
    // What every panel has alike is written once (a book has thousands): the heading's buttons,
    // and after the witnesses' table the links to the locus in the two views.
    var shared = document.getElementById("detail-nav");
    if (shared) {
      var parts = shared.content.cloneNode(true);
      var head = copy.querySelector("h2");
      var wits = copy.querySelector("table.wits");
      if (head) {
        head.appendChild(parts.querySelector(".nav"));
      }
      if (wits) {
        wits.after(parts.querySelector(".jump"));
      }
    }
    switchWitnesses(copy);
    panel.replaceChildren(copy);
    aside.scrollTop = 0;
    current = id;
    body.classList.add("has-locus");
    sheet(true);
    var hash = "#" + encodeURIComponent(id);
    if (how !== "none" && location.hash !== hash) {
      history.pushState({ locus: id }, "", hash);
    }
    // On a narrow screen the sheet may now cover the line clicked: keep it in sight.
    if (scroll || narrow.matches) {
      reveal(id, scroll && !narrow.matches);
    }
  }

  function close(how) {
    document.querySelectorAll(".sel").forEach(function (m) { m.classList.remove("sel"); });
    panel.replaceChildren(overview);
    current = null;
    body.classList.remove("has-locus");
    sheet(false);
    if (how !== "none" && location.hash) {
      history.pushState(null, "", location.pathname + location.search);
    }
  }

  // The address names the locus shown: follow it when it changes (a link, Back, Forward).
  function route() {
    var id = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : "";
    if (id && document.getElementById("d-" + id)) {
      if (id !== current) {
        show(id, true, "none");
      }
    } else if (!id && current !== null) {
      close("none");
    }
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

  // Switching the layout moves everything: keep the passage read (or the locus shown) in place.
  function parallel(button) {
    var on = button.getAttribute("aria-pressed") !== "true";
    var area = sight();
    var probe = document.elementFromPoint(window.innerWidth / 3, area[0] + 24);
    var keep = probe && probe.closest("#view-text .para, #view-text .commentary, #view-text .note");
    var before = keep ? keep.getBoundingClientRect().top : 0;
    body.classList.toggle("parallel", on);
    button.setAttribute("aria-pressed", String(on));
    if (current) {
      reveal(current, false);
    } else if (keep) {
      window.scrollBy(0, keep.getBoundingClientRect().top - before);
    }
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest("[data-view], [data-step], [data-close], [data-goto], [data-sheet], #parallel, [data-locus]");
    if (!t) {
      return;
    }
    if (t.dataset.view) {
      view(t.dataset.view);
      if (current) {
        reveal(current, true);
      }
    } else if (t.dataset.step) {
      step(Number(t.dataset.step));
    } else if (t.hasAttribute("data-close")) {
      close();
    } else if (t.hasAttribute("data-sheet")) {
      sheet(!body.classList.contains("sheet-open"));
    } else if (t.id === "parallel") {
      parallel(t);
    } else if (t.dataset.goto) {
      e.preventDefault();
      view(t.dataset.goto);
      reveal(t.dataset.target || current, true);
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
      changed();
    });
    body.classList.toggle("hide-" + box.dataset.hide, !box.checked);
  });

  // A witness switched off: its readings leave the text, the synopsis and the panel.
  function witnesses() {
    off.clear();
    document.querySelectorAll("input[data-wit]").forEach(function (box) {
      if (!box.checked) {
        off.add(box.dataset.wit);
      }
    });
    // In the synopsis, the witness's column (its head and cells carry data-w) goes with it.
    switchWitnesses(document.querySelector("main"));
    switchWitnesses(aside);
    if (current && !Array.prototype.some.call(marks(current), visible)) {
      close();
    }
    changed();
  }
  document.querySelectorAll("input[data-wit]").forEach(function (box) {
    box.addEventListener("change", witnesses);
  });
  witnesses();

  // 直排: the page prints in vertical lines (the stylesheet's print rules read the root's class).
  document.querySelectorAll("input[data-print]").forEach(function (box) {
    function apply() {
      document.documentElement.classList.toggle("print-" + box.dataset.print, box.checked);
    }
    box.addEventListener("change", apply);
    apply();
  });

  document.addEventListener("collate:show", function (e) { show(e.detail, false); });
  document.addEventListener("collate:view", function (e) {
    if (currentView() !== e.detail) {
      view(e.detail);
    }
  });
  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", route);
  route();
})();
