/* Big tables scroll inside their own region (issue 48): every scroll wrapper (.table-scroll,
   .scroll, .ratings-scroll, .table-wrap) becomes a named region (role=region, aria-label from the
   table's caption, its own label or the heading before it), and takes the keyboard's focus
   (tabindex=0) while it is narrower than its table, so it scrolls with the arrow keys too. */
(function () {
  "use strict";
  var SELECTOR = ".table-scroll, .scroll, .ratings-scroll, .table-wrap";

  function headingBefore(el) {
    for (var node = el; node && node !== document.body; node = node.parentElement) {
      for (var prev = node.previousElementSibling; prev; prev = prev.previousElementSibling) {
        if (/^H[1-6]$/.test(prev.tagName)) return prev;
        var inner = prev.querySelectorAll && prev.querySelectorAll("h1, h2, h3, h4, h5, h6");
        if (inner && inner.length) return inner[inner.length - 1];
      }
    }
    return null;
  }

  function nameOf(box) {
    var table = box.querySelector("table");
    if (table) {
      if (table.getAttribute("aria-label")) return table.getAttribute("aria-label");
      if (table.caption && table.caption.textContent.trim()) return table.caption.textContent.trim();
    }
    var heading = headingBefore(box);
    if (heading) return heading.textContent.replace(/\s+/g, " ").trim();
    return document.title.split(" · ")[0];
  }

  // a wrapper around another wrapper is left alone: the inner one scrolls and is the region
  function inner(box) {
    return !box.querySelector(SELECTOR);
  }

  var used = {};
  function name(box) {
    if (!inner(box)) return;
    if (!box.hasAttribute("role")) box.setAttribute("role", "region");
    if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
      // two regions under one heading are told apart by their number
      var label = nameOf(box);
      used[label] = (used[label] || 0) + 1;
      box.setAttribute("aria-label", used[label] > 1 ? label + " (" + used[label] + ")" : label);
    }
  }

  function focusable(box) {
    if (!inner(box)) return;
    var scrolls = box.scrollWidth > box.clientWidth + 1;
    if (scrolls && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      box.setAttribute("data-scroll-focus", "");
    } else if (!scrolls && box.hasAttribute("data-scroll-focus")) {
      box.removeAttribute("tabindex");
      box.removeAttribute("data-scroll-focus");
    }
  }

  function all(fn) {
    var boxes = document.querySelectorAll(SELECTOR);
    for (var i = 0; i < boxes.length; i++) fn(boxes[i]);
  }

  function update() {
    all(name);
    all(focusable);
  }

  var pending = null;
  function later() {
    if (pending) return;
    pending = window.requestAnimationFrame(function () {
      pending = null;
      update();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
  window.addEventListener("load", update);
  window.addEventListener("resize", later);
  // rows added by a page's own script (a formset's row, a board's refresh)
  if (window.MutationObserver) new MutationObserver(later).observe(document.body, { childList: true, subtree: true });
})();
