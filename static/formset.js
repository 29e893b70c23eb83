// Django formsets as editable tables: "Add a row" clones the <template> row with the next index
// and raises TOTAL_FORMS. No inline handlers (CSP).
(function () {
  document.querySelectorAll("[data-formset-prefix]").forEach(function (box) {
    var prefix = box.getAttribute("data-formset-prefix");
    var total = box.querySelector("input[name='" + prefix + "-TOTAL_FORMS']");
    var max = box.querySelector("input[name='" + prefix + "-MAX_NUM_FORMS']");
    var tpl = box.querySelector("template.formset-empty");
    var rows = box.querySelector(".formset-rows");
    var add = box.querySelector(".formset-add");
    if (!total || !tpl || !rows || !add) return;
    add.addEventListener("click", function () {
      var n = parseInt(total.value, 10);
      if (max && n >= parseInt(max.value, 10)) return;
      var html = tpl.innerHTML.replace(/__prefix__/g, String(n));
      var holder = document.createElement("tbody");
      holder.innerHTML = html;
      var row = holder.firstElementChild;
      rows.appendChild(row);
      total.value = String(n + 1);
      var first = row.querySelector("input, select");
      if (first) first.focus();
    });
  });
})();
