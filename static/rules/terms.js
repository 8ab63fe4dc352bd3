/* Glossary tooltips. A term link names its definition with aria-describedby; the definition
   sits once per page in a hidden block (see skatschule/rules/render.py, term_definitions).
   This script shows it next to the term on hover and keyboard focus; Escape closes it.
   The tooltip lives at the end of <body>, outside the text, so selecting and copying a
   paragraph gives the rule's words only. Without JavaScript the link leads to the glossary. */
(function () {
  "use strict";
  var tip = null;
  var owner = null;

  function termOf(node) {
    return node && node.closest ? node.closest("a.term[aria-describedby]") : null;
  }

  function hide() {
    if (tip) { tip.hidden = true; }
    owner = null;
  }

  function show(term) {
    var def = document.getElementById(term.getAttribute("aria-describedby"));
    if (!def) { return; }
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "term-tip";
      tip.setAttribute("aria-hidden", "true"); /* screen readers get it as the description */
      document.body.appendChild(tip);
    }
    tip.textContent = def.textContent;
    tip.hidden = false;
    var view = document.documentElement.clientWidth;
    var box = term.getBoundingClientRect();
    tip.style.maxWidth = Math.min(352, view - 16) + "px";
    var left = Math.max(8, Math.min(box.left, view - tip.offsetWidth - 8));
    tip.style.left = (left + window.scrollX) + "px";
    tip.style.top = (box.bottom + window.scrollY + 6) + "px";
    owner = term;
  }

  document.addEventListener("mouseover", function (event) {
    var term = termOf(event.target);
    if (term) { if (term !== owner) { show(term); } }
    else if (owner && document.activeElement !== owner) { hide(); }
  });
  document.addEventListener("focusin", function (event) {
    var term = termOf(event.target);
    if (term) { show(term); } else { hide(); }
  });
  document.addEventListener("focusout", function (event) {
    if (termOf(event.target) === owner) { hide(); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && owner) { hide(); }
  });
})();
