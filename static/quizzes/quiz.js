/* Quiz pages: show the server's 4xx messages from htmx requests (a late answer, an
   unreadable one) in the item's status area, keep the keyboard focus after a swap, and
   count down to the cut-off.
   The server enforces the time limit; the countdown only informs. */
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    if (((status >= 400 && status < 500) || status === 503) && evt.detail.elt && evt.detail.elt.closest("[data-quiz]")) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });

  // Saving can replace the focused button (it becomes "Beantwortet", disabled). Keyboard users
  // then land on the item's status area, which the screen reader also announces (aria-live).
  document.addEventListener("htmx:afterSettle", function (evt) {
    var area = (evt.detail && evt.detail.target) || evt.target;
    if (!area || !area.classList || !area.classList.contains("feedback-area") || !area.closest("[data-quiz]")) {
      return;
    }
    var active = document.activeElement;
    if (!active || active === document.body || !document.body.contains(active) || active.disabled) {
      area.setAttribute("tabindex", "-1");
      area.focus();
    }
  });

  /* What is left, as a reader counts it: "7 Tage 4 Std." for long spans, "1:05:09" within a day,
     "4:09" within an hour. The unit words come from the page (data-day, data-days, data-hours). */
  function span(el, left) {
    var d = Math.floor(left / 86400), h = Math.floor((left % 86400) / 3600);
    var m = Math.floor((left % 3600) / 60), s = left % 60;
    if (d > 0) {
      return d + " " + el.getAttribute(d === 1 ? "data-day" : "data-days") + " " + h + " " + el.getAttribute("data-hours");
    }
    var ms = (h > 0 && m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
    return h > 0 ? h + ":" + ms : ms;
  }

  function tick(el, cutoff) {
    var out = el.querySelector(".timer-left");
    var left = Math.max(0, Math.floor((cutoff - Date.now()) / 1000));
    if (out) {
      out.textContent = "(" + span(el, left) + ")";
    }
    return left > 0;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var el = document.querySelector(".quiz-timer[data-cutoff]");
    if (!el) {
      return;
    }
    var cutoff = Date.parse(el.getAttribute("data-cutoff"));
    if (isNaN(cutoff)) {
      return;
    }
    if (tick(el, cutoff)) {
      var timer = window.setInterval(function () {
        if (!tick(el, cutoff)) {
          window.clearInterval(timer);
        }
      }, 1000);
    }
  });
})();
