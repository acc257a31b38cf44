// scarbook serve: keep this page in step with the campaign file. Every second, ask the server for the
// file's sha256; when it differs from the one this page was built from, reload (another phone or the
// command line wrote). Plain JavaScript, nothing fetched from outside this server.
(function () {
  "use strict";
  var built = document.body.getAttribute("data-sha256");
  var live = document.getElementById("live");
  var leaving = false;  // a form was sent: its answer is the new page (a reload now would cancel it)
  if (!built) { return; }
  document.addEventListener("submit", function () { leaving = true; });
  function typing() {  // a note or a name being typed: a reload would throw it away
    var fields = document.querySelectorAll("textarea, input[type=text]");
    for (var i = 0; i < fields.length; i++) { if (fields[i].value.trim()) { return true; } }
    return false;
  }
  window.addEventListener("pagehide", function () { leaving = true; });
  function check() {
    if (leaving) { return; }
    fetch("/api/fingerprint", {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (live) { live.className = data ? "live on" : "live off"; }
        if (!leaving && data && data.sha256 && data.sha256 !== built) {
          if (typing()) {  // keep what is typed; the page says it is out of date (a write from it is refused)
            if (live) {
              live.className = "live changed";
              live.textContent = "changed: reload";
              live.onclick = function () { window.location.reload(); };
            }
            return;
          }
          built = data.sha256;
          window.location.reload();
        }
      })
      .catch(function () { if (live) { live.className = "live off"; } });
  }
  window.setInterval(check, 1000);
  check();
}());
