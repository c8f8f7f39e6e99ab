// The reader's tools: search (folded, as the collation compares) and the jump to a witness's page.
// Search looks in the view shown: in 讀本 the base's text and every witness's readings of the
// loci; in 對照 every witness's column. Characters are compared by the keys the page carries
// (data-fold: character, key, character, key …), punctuation is skipped, never compared.
(function () {
  "use strict";
  var input = document.getElementById("q");
  var count = document.getElementById("q-count");
  var narrow = window.matchMedia("(max-width: 700px)");
  var fold = new Map();
  var SKIP = /[\s\p{P}\p{S}]/u;
  var hits = [];
  var at = -1;
  var index = null; // rebuilt when what is visible changes
  var timer = 0;
  var searched = null; // the keys last searched for
  var pairs = Array.from(input.dataset.fold || "");
  for (var p = 0; p + 1 < pairs.length; p += 2) {
    fold.set(pairs[p], pairs[p + 1]);
  }

  function key(ch) {
    return fold.get(ch) || ch;
  }

  function keys(text) {
    return Array.from(text).filter(function (ch) { return !SKIP.test(ch); }).map(key);
  }

  function viewShown() {
    var shown = document.querySelector("main > .view:not([hidden])");
    return shown ? shown.id.slice(5) : "text";
  }

  function off() {
    var out = new Set();
    document.querySelectorAll("input[data-wit]").forEach(function (box) {
      if (!box.checked) {
        out.add(box.dataset.wit);
      }
    });
    return out;
  }

  // Every place where ``want`` (keys) begins in ``have`` (keys).
  function find(have, want) {
    var found = [];
    outer: for (var i = 0; i + want.length <= have.length; i++) {
      for (var j = 0; j < want.length; j++) {
        if (have[i + j] !== want[j]) {
          continue outer;
        }
      }
      found.push(i);
    }
    return found;
  }

  // 讀本: the base's characters as keys, each with its text node and offset.
  function textIndex() {
    // Page labels, carets, printed markers and links to loci are not the base's text.
    var out = { keys: [], nodes: [], offsets: [], cells: [] };
    return indexText(document.getElementById("view-text"), ".pb, .ins, .mk, .judges", out, null);
  }

  function ownText(cell) {
    return Array.prototype.filter.call(cell.childNodes, function (n) { return n.nodeType === 3; })
      .map(function (n) { return n.data; }).join("");
  }

  // 讀本: each locus's readings, by witness, from the panel's sections.
  function readingIndex() {
    return Array.prototype.map.call(document.querySelectorAll("#details > .detail"), function (section) {
      var entry = { id: section.dataset.locus, lemma: [], readings: [] };
      section.querySelectorAll("table.wits tr[data-w]").forEach(function (row) {
        var cell = row.querySelector("td.rd");
        if (!cell) {
          return;
        }
        if (row.classList.contains("base")) {
          entry.lemma = keys(ownText(cell));
        } else if (!row.classList.contains("agree")) {
          entry.readings.push([row.dataset.w, keys(ownText(cell))]);
        }
      });
      return entry;
    });
  }

  // The characters of the text nodes under ``root`` as keys, each with its node and offset (and
  // ``cell``, if given); text in elements matching ``skip`` or hidden by a filter left out.
  function indexText(root, skip, out, cell) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var parent = node.parentElement;
      if (parent.closest(skip) || parent.offsetParent === null) {
        continue;
      }
      var i = 0;
      for (var ch of node.data) {
        if (!SKIP.test(ch)) {
          out.keys.push(key(ch));
          out.nodes.push(node);
          out.offsets.push(i);
          out.cells.push(cell);
        }
        i += ch.length;
      }
    }
    return out;
  }

  // The range of keys [i, last] of an index.
  function rangeOfKeys(t, i, last) {
    var r = document.createRange();
    r.setStart(t.nodes[i], t.offsets[i]);
    r.setEnd(t.nodes[last], t.offsets[last] + Array.from(t.nodes[last].data.slice(t.offsets[last]))[0].length);
    return r;
  }

  // 對照: every witness's column of each layer, passage by passage.
  function synopsisIndex() {
    var rows = [];
    document.querySelectorAll("#view-syn > section").forEach(function (layer) {
      var mine = new Map();
      layer.querySelectorAll("td[data-w]").forEach(function (cell) {
        var w = cell.dataset.w;
        if (!mine.has(w)) {
          mine.set(w, { w: w, keys: [], nodes: [], offsets: [], cells: [] });
        }
        indexText(cell, ".ne, .gap, .lem", mine.get(w), cell); // shading, gaps, a sparse reading's lemma
      });
      rows = rows.concat(Array.from(mine.values()));
    });
    return rows;
  }

  function clear() {
    if (window.CSS && CSS.highlights) {
      CSS.highlights.delete("q-hits");
      CSS.highlights.delete("q-now");
    }
    document.querySelectorAll(".q-hit, .q-now").forEach(function (e) { e.classList.remove("q-hit", "q-now"); });
    hits = [];
    at = -1;
  }

  function rangeOf(el) {
    var r = document.createRange();
    r.selectNodeContents(el);
    return r;
  }

  function searchText(want, skip) {
    index = index || { text: textIndex(), readings: readingIndex() };
    var t = index.text;
    var found = find(t.keys, want).map(function (i) {
      return { range: rangeOfKeys(t, i, i + want.length - 1) };
    });
    index.readings.forEach(function (entry) {
      if (find(entry.lemma, want).length) {
        return; // the base has it there: found in the text already
      }
      var who = entry.readings.filter(function (r) { return !skip.has(r[0]) && find(r[1], want).length; });
      if (!who.length) {
        return;
      }
      var mark = Array.prototype.find.call(
        document.querySelectorAll('#view-text .v[data-locus="' + CSS.escape(entry.id) + '"]'),
        function (m) { return m.offsetParent !== null && !m.classList.contains("w-off"); });
      if (mark) {
        found.push({ range: rangeOf(mark), el: [mark], locus: entry.id, wits: who.map(function (r) { return r[0]; }) });
      }
    });
    return found;
  }

  function searchSynopsis(want, skip) {
    index = index || { rows: synopsisIndex() };
    var found = [];
    index.rows.forEach(function (row) {
      if (skip.has(row.w)) {
        return;
      }
      find(row.keys, want).forEach(function (i) {
        var last = i + want.length - 1;
        if (row.cells[i] === row.cells[last]) { // within one passage, not across two
          found.push({ range: rangeOfKeys(row, i, last), wits: [row.w] });
        }
      });
    });
    return found;
  }

  function run(keepPlace) {
    clear();
    var want = keys(input.value);
    searched = want.join("\n");
    if (!want.length) {
      count.textContent = "";
      return;
    }
    var skip = off();
    hits = viewShown() === "syn" ? searchSynopsis(want, skip) : searchText(want, skip);
    hits.sort(function (a, b) { return a.range.compareBoundaryPoints(Range.START_TO_START, b.range); });
    hits.forEach(function (h) { (h.el || []).forEach(function (e) { e.classList.add("q-hit"); }); });
    if (window.CSS && CSS.highlights) {
      CSS.highlights.set("q-hits", new Highlight(...hits.filter(function (h) { return !h.el; }).map(function (h) { return h.range; })));
    }
    if (!hits.length) {
      count.textContent = "0";
      return;
    }
    // Start from the first hit in sight or below it, not from the top of the book.
    var top = document.querySelector(".bar").getBoundingClientRect().bottom;
    var first = keepPlace ? hits.findIndex(function (h) { return h.range.getBoundingClientRect().bottom >= top; }) : 0;
    go(Math.max(0, first), false);
  }

  function sight() {
    var top = document.querySelector(".bar").getBoundingClientRect().bottom;
    var sheet = narrow.matches && document.body.classList.contains("sheet-open");
    var bottom = sheet ? document.getElementById("panel").getBoundingClientRect().top : window.innerHeight;
    return [top, Math.max(top + 40, bottom)];
  }

  function go(i, open) {
    if (!hits.length) {
      return;
    }
    document.querySelectorAll(".q-now").forEach(function (e) { e.classList.remove("q-now"); });
    at = (i + hits.length) % hits.length;
    var hit = hits[at];
    count.textContent = at + 1 + "/" + hits.length;
    count.title = hit.wits ? "見於 " + hit.wits.join("、") : "見於底本";
    if (hit.el) {
      hit.el.forEach(function (e) { e.classList.add("q-now"); });
    } else if (window.CSS && CSS.highlights) {
      CSS.highlights.set("q-now", new Highlight(hit.range));
    }
    if (open && hit.locus) {
      // Found in a witness's reading: the panel shows whose.
      document.dispatchEvent(new CustomEvent("collate:show", { detail: hit.locus }));
    }
    var area = sight();
    var r = hit.range.getBoundingClientRect();
    if (r.top < area[0] + 4 || r.bottom > area[1] - 4) {
      window.scrollBy(0, r.top - (area[0] + (area[1] - area[0]) / 3));
    }
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { run(true); }, 200);
  });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter") {
      e.preventDefault();
      clearTimeout(timer);
      if (at < 0 || keys(input.value).join("\n") !== searched) {
        run(true);
      } else {
        go(at + (e.shiftKey ? -1 : 1), true);
      }
    } else if (e.key === "Escape") {
      input.value = "";
      clear();
      count.textContent = "";
      input.blur();
    }
  });
  input.addEventListener("search", function () {
    if (!input.value) {
      clear();
      count.textContent = "";
    }
  });
  document.querySelectorAll("[data-hit]").forEach(function (b) {
    b.addEventListener("click", function () {
      clearTimeout(timer);
      if (at < 0 || keys(input.value).join("\n") !== searched) {
        run(true);
      } else {
        go(at + Number(b.dataset.hit), true);
      }
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && !e.target.closest("input, select, textarea")) {
      e.preventDefault();
      input.focus();
      input.select();
    }
  });
  document.addEventListener("collate:changed", function () {
    index = null;
    if (input.value) {
      run(true);
    }
  });

  // --- Jump to a page of a witness ------------------------------------------------------------
  var who = document.getElementById("jump-w");
  if (!who) {
    return;
  }
  function pagesOf(siglum) {
    return document.querySelector('select.jump-p[data-for="' + CSS.escape(siglum) + '"]');
  }
  function jump() {
    var key = pagesOf(who.value).value;
    document.dispatchEvent(new CustomEvent("collate:view", { detail: "text" }));
    var target = document.querySelector('#view-text [data-page="' + CSS.escape(key) + '"]');
    if (!target) {
      return;
    }
    document.querySelectorAll(".here").forEach(function (e) { e.classList.remove("here"); });
    target.classList.add("here");
    var shown = target;
    while (shown.parentElement && shown.offsetParent === null) {
      shown = shown.parentElement; // in a layer a filter hides: its paragraph
    }
    var area = sight();
    window.scrollBy(0, shown.getBoundingClientRect().top - area[0] - 48);
  }
  who.addEventListener("change", function () {
    document.querySelectorAll("select.jump-p").forEach(function (s) { s.hidden = s.dataset.for !== who.value; });
  });
  document.querySelectorAll("select.jump-p").forEach(function (s) { s.addEventListener("change", jump); });
  document.getElementById("jump-go").addEventListener("click", jump);
})();
