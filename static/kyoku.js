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
