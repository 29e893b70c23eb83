// Site-wide behaviour without inline handlers (the Content-Security-Policy allows no inline script):
// a <select data-autosubmit> submits its form when changed (the language switcher).
document.addEventListener("change", function (event) {
  var target = event.target;
  if (target.matches && target.matches("select[data-autosubmit]") && target.form) target.form.submit();
});

// A form that destroys something carries data-confirm="question": submitting it asks first, and
// a cancel keeps everything as it was. (An inline onsubmit would be blocked by the CSP.)
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}, true);

// A form that came back with errors sums them up at its top (kyoku/error_summary.html, role=alert):
// the focus goes there, so a keyboard or screen reader starts from what to correct; each item links
// to its field.
document.addEventListener("DOMContentLoaded", function () {
  var summary = document.querySelector(".error-summary");
  if (!summary) return;
  var details = summary.closest("details");
  if (details) details.open = true;
  summary.focus();
});
