// The file view: #L120 and #L120-L140 highlight and show those lines.
(function () {
  "use strict";
  function show() {
    document.querySelectorAll("tr.hl").forEach(function (r) { r.classList.remove("hl"); });
    var m = /^#L(\d+)(?:-L?(\d+))?$/.exec(location.hash);
    if (!m) return;
    var from = +m[1], to = m[2] ? +m[2] : from;
    if (to < from) { var t = from; from = to; to = t; }
    for (var n = from; n <= to && n - from < 5000; n++) {
      var row = document.getElementById("L" + n);
      if (row) row.classList.add("hl");
    }
    var first = document.getElementById("L" + from);
    if (first) first.scrollIntoView({ block: "center" });
  }
  window.addEventListener("hashchange", show);
  show();
  // Shift-click a line number to select a range.
  var anchor = null;
  document.querySelectorAll("td.ln a").forEach(function (a) {
    a.addEventListener("click", function (e) {
      var n = +a.textContent;
      if (e.shiftKey && anchor) {
        e.preventDefault();
        location.hash = "#L" + Math.min(anchor, n) + "-L" + Math.max(anchor, n);
      } else {
        anchor = n;
      }
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement.tagName !== "INPUT") {
      e.preventDefault();
      var box = document.querySelector(".mini input");
      if (box) box.focus();
    }
  });
})();
