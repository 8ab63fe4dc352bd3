// The live round's countdown (templates/quizzes/partials/live_timer.html). The page says the
// seconds left by the server's clock; this counts them down from when the page came, so a phone
// whose clock is wrong still shows the right time. Without JavaScript the text stays as it came.
(function () {
  "use strict";
  function start() {
    var timer = document.getElementById("live-timer");
    if (!timer || timer.dataset.counting) return;
    timer.dataset.counting = "1";
    var ends = performance.now() + Number(timer.dataset.seconds) * 1000;
    function tick() {
      var left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
      var shown = timer.querySelector(".live-seconds");
      if (left > 0 && shown) {
        shown.textContent = String(left);
        window.setTimeout(tick, 250);
        return;
      }
      timer.textContent = timer.dataset.up || "";
      var send = document.getElementById("live-send");
      if (send) send.disabled = true;
    }
    tick();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
