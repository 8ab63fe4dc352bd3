// The rule a permalink points to (#r-3.2.4) stays in view after the header's language or deck
// form: the fragment never reaches the server, so it is added to the form's "next" here.
// Without JavaScript the form still works and lands at the top of the same chapter.
document.addEventListener("submit", function (event) {
  var form = event.target;
  var next = form && form.querySelector ? form.querySelector('input[name="next"]') : null;
  if (next && window.location.hash && next.value.indexOf("#") === -1 && next.value.charAt(0) === "/") {
    next.value = next.value + window.location.hash;
  }
}, true);
