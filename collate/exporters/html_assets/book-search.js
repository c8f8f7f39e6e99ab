// The search of a whole book (book.py), on its index and on each part: every part's text and its
// loci's readings, folded as the page's own search folds them (data-fold), each hit a link to its
// place (parts.js steps the part's own search to it). Each part's search data is a script
// (collateSearch[n]), loaded when a search is first made: a page opened from disk may load a
// script, where fetch() of a file is refused.
(function () {
  "use strict";
  var body = document.body;
  var stem = body.dataset.book;
  var here = Number(body.dataset.part); // 0: the index
  var count = Number(body.dataset.parts);
  var input = document.getElementById("q");
  var box = document.getElementById("book-hits");
  var counter = document.getElementById("q-count");
  var SKIP = /[\s\p{P}\p{S}]/u;
  var LIMIT = here ? 20 : 50; // hits listed a part: in a part's list, on the index
  var AROUND = 12; // characters shown either side of a hit
  var fold = new Map();
  var pairs = Array.from((input && input.dataset.fold) || "");
  for (var p = 0; p + 1 < pairs.length; p += 2) {
    fold.set(pairs[p], pairs[p + 1]);
  }
  var data = (window.collateSearch = window.collateSearch || {});
  // What parts.js (which comes after this script on every page of a book) needs of it too.
  window.collateBook = { name: name, off: off };

  function name(n, ext) {
    return encodeURIComponent(n ? stem + ".part-" + String(n).padStart(3, "0") : stem) + ext;
  }

  function keys(text) {
    return Array.from(text).filter(function (ch) { return !SKIP.test(ch); }).map(function (ch) { return fold.get(ch) || ch; });
  }

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

  // The values of the boxes of a kind switched off: ``key`` of input[data-key].
  function unchecked(key) {
    var out = new Set();
    document.querySelectorAll("input[data-" + key + "]").forEach(function (b) {
      if (!b.checked) {
        out.add(b.dataset[key]);
      }
    });
    return out;
  }

  // The witnesses switched off.
  function off() {
    return unchecked("wit");
  }

  // Whether the classes ``names`` include one a filter switched off hides (a layer, a quoted work,
  // a class of readings, 形近).
  function hides(names, hidden) {
    return names.split(" ").some(function (c) { return c && hidden.has(c); });
  }

  var ready = false;
  var waiting = [];
  function load(then) {
    if (ready) {
      return then();
    }
    waiting.push(then);
    if (waiting.length > 1) {
      return;
    }
    var left = 1;
    function done() {
      if (--left === 0) {
        ready = true;
        waiting.splice(0).forEach(function (f) { f(); });
      }
    }
    for (var n = 1; n <= count; n++) {
      if (!data[n]) {
        left++;
        var s = document.createElement("script");
        s.src = name(n, ".js");
        s.onload = s.onerror = done;
        document.head.appendChild(s);
      }
    }
    done();
  }

  // A part's text as keys (punctuation left out), each with its block and offset; its loci's readings.
  function prepared(n) {
    var d = data[n];
    if (!d || d.prep) {
      return d && d.prep;
    }
    var prep = { keys: [], block: [], at: [], hides: [], loci: [] };
    var table = d.hides || [];
    d.blocks.forEach(function (b, k) {
      var i = 0;
      var cp = 0; // the runs count characters (code points), the page's strings UTF-16 units
      var runs = b[2] || []; // [character, index into d.hides, …]
      var r = 0;
      for (var ch of b[1]) {
        while (r + 2 < runs.length && runs[r + 2] <= cp) {
          r += 2;
        }
        if (!SKIP.test(ch)) {
          prep.keys.push(fold.get(ch) || ch);
          prep.block.push(k);
          prep.at.push(i);
          prep.hides.push(runs.length ? table[runs[r + 1]] : "");
        }
        i += ch.length;
        cp++;
      }
    });
    prep.loci = d.loci.map(function (l) {
      return { id: l[0], lemma: keys(l[1]), text: l[1], block: l[3], hides: table[l[4]] || "", readings: l[2].map(function (r) { return [r[0], keys(r[1]), r[1]]; }) };
    });
    return (d.prep = prep);
  }

  // Every hit of ``want`` in part ``n``, in the order of its blocks: in the base's text, or in
  // witnesses' readings of a locus where the base has it not (as the page's own search finds them).
  function hitsIn(n, want, gone, hidden) {
    var prep = prepared(n);
    if (!prep) {
      return null;
    }
    var blocks = data[n].blocks;
    var hits = find(prep.keys, want).filter(function (i) {
      return !hides(prep.hides[i], hidden); // in a layer or a quoted work a filter hides
    }).map(function (i) {
      var k = prep.block[i];
      var last = i + want.length - 1;
      var end = prep.block[last] === k ? prep.at[last] + Array.from(blocks[k][1].slice(prep.at[last]))[0].length : blocks[k][1].length;
      return { block: k, start: prep.at[i], end: end };
    });
    prep.loci.forEach(function (l) {
      if (find(l.lemma, want).length || hides(l.hides, hidden)) {
        return;
      }
      var wits = l.readings.filter(function (r) { return !gone.has(r[0]) && find(r[1], want).length; });
      if (wits.length) {
        hits.push({ block: l.block, start: Infinity, locus: l, wits: wits });
      }
    });
    return hits.sort(function (a, b) { return a.block - b.block || a.start - b.start; });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    if (text) {
      e.textContent = text;
    }
    return e;
  }

  function item(n, hit, query) {
    var a = el("a");
    var blocks = data[n].blocks;
    if (hit.locus) {
      a.href = name(n, ".html") + "#" + encodeURIComponent(hit.locus.id);
      var words = hit.wits.map(function (r) { return r[0] + " 作「" + r[2] + "」"; }).join("，");
      a.append(el("span", "who", "異文"), " ", el("mark", null, words), "（底本「" + (hit.locus.text || "∅") + "」）");
    } else {
      var text = blocks[hit.block][1];
      a.href = name(n, ".html") + "#" + encodeURIComponent(blocks[hit.block][0] + "~" + hit.start + "~" + query);
      a.append(
        (hit.start > AROUND ? "…" : "") + text.slice(Math.max(0, hit.start - AROUND), hit.start),
        el("mark", null, text.slice(hit.start, hit.end)),
        text.slice(hit.end, hit.end + AROUND) + (hit.end + AROUND < text.length ? "…" : "")
      );
    }
    var li = el("li");
    li.append(a);
    return li;
  }

  function show(query) {
    var want = keys(query);
    box.replaceChildren();
    if (!want.length) {
      if (counter && !here) {
        counter.textContent = "";
      } else if (here) {
        box.append(el("p", "sum", "在檢索框中輸入文字，檢索全書各部分（繁簡、異體通檢）。"));
      }
      return;
    }
    var gone = off();
    var hidden = unchecked("hide");
    var list = el("ol", "book-parts");
    var total = 0;
    var found = 0;
    var missing = [];
    for (var n = 1; n <= count; n++) {
      var hits = hitsIn(n, want, gone, hidden);
      if (hits === null) {
        missing.push(n);
        continue;
      }
      if (!hits.length) {
        continue;
      }
      total += hits.length;
      found++;
      var d = data[n];
      var li = el("li", n === here ? "here" : "");
      var head = el("a", "part", "第" + n + "部分 " + d.title);
      head.href = name(n, ".html");
      li.append(head, " ", el("span", "n", hits.length + " 處"), " ", el("span", "pages", d.pages));
      var ol = el("ol", "hits");
      hits.slice(0, LIMIT).forEach(function (h) { ol.append(item(n, h, query)); });
      if (hits.length > LIMIT) {
        ol.append(el("li", "more", "另有 " + (hits.length - LIMIT) + " 處，見該部分之檢索"));
      }
      li.append(ol);
      list.append(li);
    }
    var sum = total ? "全書 " + total + " 處，見於 " + found + " 部分" : "全書無「" + query + "」";
    var top = el("p", "sum", sum);
    if (here) {
      var shut = el("button", "shut", "×");
      shut.type = "button";
      shut.title = "關閉 (Esc)";
      shut.addEventListener("click", function () { box.hidden = true; });
      top.append(shut);
    }
    box.append(top);
    if (missing.length) {
      box.append(el("p", "missing", "缺檢索資料：第 " + missing.join("、") + " 部分（" + name(missing[0], ".js") + " 等）"));
    }
    box.append(list);
    if (counter && !here) {
      counter.textContent = String(total);
    }
  }

  function search() {
    var query = input.value.trim();
    load(function () { show(query); });
  }

  if (input && box) {
    var timer = 0;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      if (!here || !box.hidden) {
        timer = setTimeout(search, 250);
      }
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && !here) {
        e.preventDefault();
        clearTimeout(timer);
        search();
      }
    });
    // A filter changed: the hits listed are those of what the page now shows.
    document.querySelectorAll("input[data-hide], input[data-wit]").forEach(function (b) {
      b.addEventListener("change", function () {
        if (input.value.trim() && !box.hidden && (box.childElementCount || !here)) {
          search();
        }
      });
    });
    var button = document.getElementById("q-book");
    if (button) {
      button.addEventListener("click", function () {
        box.hidden = !box.hidden;
        if (!box.hidden) {
          search();
        }
      });
    }
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && here && !box.hidden) {
        box.hidden = true;
      } else if (e.key === "/" && !here && !e.target.closest("input, select, textarea")) {
        e.preventDefault();
        input.focus();
        input.select();
      }
    });
  }
})();
