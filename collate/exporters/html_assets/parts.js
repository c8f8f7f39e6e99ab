// A book's pages (book.py): the index and a page a part. On each, this script leads a page chosen in
// the jump, or a hit of the book's search (book-search.js), to the part that holds it, keeps the
// filters one across the pages, and starts the print's numbers where the parts before end.
(function () {
  "use strict";
  var body = document.body;
  var stem = body.dataset.book;
  var here = Number(body.dataset.part); // 0: the index
  var input = document.getElementById("q");
  var counter = document.getElementById("q-count");
  var who = document.getElementById("jump-w");

  // A part's file name, and the witnesses switched off: book-search.js's (loaded before this).
  var name = window.collateBook.name;
  var off = window.collateBook.off;

  // --- The filters: one choice for every page of the book -------------------------------------
  var STORE = "collate-book:" + stem;
  function stored() {
    try {
      var found = JSON.parse(localStorage.getItem(STORE) || "{}");
      return found && typeof found === "object" ? found : {};
    } catch (e) {
      return {}; // no storage here (a private window), or not ours: every box as the page has it
    }
  }
  function boxKey(b) {
    return b.dataset.hide ? "h:" + b.dataset.hide : "w:" + b.dataset.wit;
  }
  var state = stored();
  document.querySelectorAll("input[data-hide], input[data-wit]").forEach(function (b) {
    var k = boxKey(b);
    if (k in state && state[k] !== b.checked) {
      b.checked = state[k];
      b.dispatchEvent(new Event("change")); // view.js applies it
    }
    b.addEventListener("change", function () {
      var now = stored();
      now[k] = b.checked;
      try {
        localStorage.setItem(STORE, JSON.stringify(now));
      } catch (e) {
        // No storage (a private window): the choice holds on this page only.
      }
    });
  });

  // --- The print's numbers begin where the parts before end, as far as the filters leave them ---
  var before = JSON.parse(body.dataset.before || "[]");
  function renumber() {
    if (!body.dataset.before) {
      return;
    }
    var gone = off();
    var n = 0;
    before.forEach(function (b) {
      var hidden = b[0].split(" ").some(function (c) { return body.classList.contains("hide-" + c); });
      var wits = b[1].split(" ").filter(Boolean);
      if (!hidden && !(wits.length && wits.every(function (w) { return gone.has(w); }))) {
        n += b[2];
      }
    });
    body.style.counterReset = "jkj " + n + " jkj-e " + n;
  }
  document.addEventListener("collate:changed", renumber);
  renumber();

  // --- The jump: a page of another part is opened there ---------------------------------------
  function pagesOf(siglum) {
    return document.querySelector('select.jump-p[data-for="' + CSS.escape(siglum) + '"]');
  }
  // The part a page is in: marked on the first of its pages in a part (book.py), so the last mark up to it.
  function partOf(option) {
    for (var o = option; o; o = o.previousElementSibling) {
      if (o.dataset.part) {
        return Number(o.dataset.part);
      }
    }
    return 0;
  }
  function away() {
    var select = pagesOf(who.value);
    var option = select && select.selectedOptions[0];
    var n = option ? partOf(option) : 0;
    if (n && n !== here) {
      location.href = name(n, ".html") + "#" + encodeURIComponent("pg~" + option.value);
    }
  }
  if (who) {
    if (!here) { // a part's tools.js shows the chosen witness's pages; the index has no tools.js
      who.addEventListener("change", function () {
        document.querySelectorAll("select.jump-p").forEach(function (s) { s.hidden = s.dataset.for !== who.value; });
      });
    }
    document.querySelectorAll("select.jump-p").forEach(function (s) { s.addEventListener("change", away); });
    document.getElementById("jump-go").addEventListener("click", away);
  }

  // --- Arriving from another page: at a page of the jump, or at a search's hit ----------------
  function arrive() {
    var h;
    try {
      h = decodeURIComponent(location.hash.slice(1));
    } catch (e) {
      return; // an address typed by hand, not one of ours
    }
    var m = /^pg~(.+)$/.exec(h);
    if (m && who && here) {
      var siglum = m[1].slice(0, m[1].lastIndexOf(":"));
      who.value = siglum;
      who.dispatchEvent(new Event("change"));
      var select = pagesOf(siglum);
      if (select) {
        select.value = m[1];
        document.getElementById("jump-go").click();
      }
      return;
    }
    m = /^(b-\d+)(?:~(\d+)~([\s\S]*))?$/.exec(h);
    var block = m && document.getElementById(m[1]);
    if (!block) {
      return;
    }
    var tab = document.querySelector('[data-view="text"]');
    if (tab && tab.getAttribute("aria-selected") !== "true") {
      tab.click();
    }
    var top = document.querySelector(".bar").getBoundingClientRect().bottom;
    window.scrollBy(0, block.getBoundingClientRect().top - top - 8);
    if (m[3] && input) {
      // The page's own search (tools.js) marks every hit; it is stepped on to the one linked to.
      input.value = m[3];
      input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
      stepTo(place(block, Number(m[2])));
    }
  }

  // Where the character ``offset`` of a block's text (as its search data reads it) is on the page.
  function place(block, offset) {
    var walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest(".pb, .ins, .mk, .judges, .pg")) {
        continue;
      }
      if (offset < node.data.length) {
        var r = document.createRange();
        r.setStart(node, offset);
        return r;
      }
      offset -= node.data.length;
    }
    return null;
  }

  // Step the page's search (Enter) until the hit shown is the one at ``target``; at most once round.
  // A step onto a witness's reading would open its locus in the panel: not while passing.
  var passing = false;
  document.addEventListener("collate:show", function (e) {
    if (passing) {
      e.stopImmediatePropagation();
    }
  }, true);
  function stepTo(target) {
    var highlights = window.CSS && CSS.highlights;
    var total = counter ? Number(counter.textContent.split("/")[1] || "0") : 0;
    passing = true;
    try {
      for (var i = 0; target && highlights && i < total; i++) {
        var shown = highlights.get("q-now");
        var range = shown && shown.values().next().value;
        if (range && range.compareBoundaryPoints(Range.START_TO_START, target) >= 0) {
          return;
        }
        input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
      }
    } finally {
      passing = false;
    }
  }
  window.addEventListener("hashchange", arrive);

  arrive();
})();
