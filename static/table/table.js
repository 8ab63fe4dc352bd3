/* The table at /ueben/spiel/: the hand as a toolbar (←/→, Pos1/Ende move, Enter plays: each
   card is still a submit button) and "Neues Spiel" asking in a <dialog>. Without JavaScript the
   forms work as they are (the server asks before it discards a running game). */
(function () {
  "use strict";

  function cards(bar) {
    return Array.prototype.filter.call(bar.querySelectorAll("button"), function (b) { return !b.disabled; });
  }

  // one tab stop for the hand (roving tabindex): the focused or the first playable card
  function rove(bar, current) {
    var all = cards(bar);
    if (!all.length) return;
    var on = all.indexOf(current) >= 0 ? current : all[0];
    all.forEach(function (b) { b.tabIndex = b === on ? 0 : -1; });
  }

  function prepare(root) {
    root.querySelectorAll('[role="toolbar"].table-hand').forEach(function (bar) {
      rove(bar, bar.contains(document.activeElement) ? document.activeElement : null);
    });
  }

  document.addEventListener("keydown", function (event) {
    var bar = event.target.closest && event.target.closest('[role="toolbar"].table-hand');
    if (!bar) return;
    var all = cards(bar);
    var at = all.indexOf(event.target);
    var to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[event.key];
    if (to === undefined || at < 0) return;
    event.preventDefault();
    var next = all[(to + all.length) % all.length];
    rove(bar, next);
    next.focus();
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var id = form.getAttribute && form.getAttribute("data-ask");
    var dialog = id && document.getElementById(id);
    if (!dialog || typeof dialog.showModal !== "function") return; // the server asks instead
    event.preventDefault();
    var level = form.querySelector('[name="level"]');
    var carried = dialog.querySelector('input[name="level"]');
    if (level && carried) carried.value = level.value;
    dialog.showModal(); // takes the focus ("Nein, weiterspielen"); Escape cancels
  });

  document.addEventListener("DOMContentLoaded", function () { prepare(document); });
  document.addEventListener("htmx:afterSettle", function (event) { prepare(event.target); });
})();
