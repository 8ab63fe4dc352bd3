// Counts down the exam's remaining time (the server enforces the limit; this only shows it).
(function () {
  "use strict";
  var timer = document.querySelector(".exam-timer[data-seconds-left]");
  if (!timer) { return; }
  var end = Date.now() + 1000 * parseInt(timer.getAttribute("data-seconds-left"), 10);
  var lang = (document.documentElement.lang || "de").slice(0, 2);
  function show() {
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    var m = Math.floor(left / 60), s = left % 60;
    var clock = m + ":" + (s < 10 ? "0" : "") + s;
    timer.textContent = (lang === "en" ? "time left " : "noch ") + clock;
    if (left > 0) { window.setTimeout(show, 1000); }
    else { timer.textContent = lang === "en" ? "time is up" : "Zeit abgelaufen"; }
  }
  show();
})();
