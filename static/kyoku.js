// Site-wide behaviour without inline handlers (the Content-Security-Policy allows no inline script):
// a <select data-autosubmit> submits its form when changed (the language switcher).
document.addEventListener("change", function (event) {
  var target = event.target;
  if (target.matches && target.matches("select[data-autosubmit]") && target.form) target.form.submit();
});
