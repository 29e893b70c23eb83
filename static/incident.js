/* Incident timeline builder (vanilla JS, no libraries).
 *
 * Rows of seat / act / time (ms) / settled_t / visible / kind / by are serialised into the
 * form's hidden "events" field (the ruling contract's event list) on every change. Quick buttons
 * append the usual acts for the chosen seat, one time step after the last row. "Preview" posts
 * the record to /api/rulings/preview and shows the proposed ruling and its explanation in the
 * page's language before anything is saved.
 */
(function () {
  "use strict";

  var form = document.getElementById("incident-form");
  if (!form) return;
  var tbody = document.querySelector("#timeline tbody");
  var hidden = form.querySelector("input[name=events]");
  var preview = document.getElementById("preview");
  var rules = JSON.parse(document.getElementById("incident-rules").textContent);
  var T = JSON.parse(document.getElementById("incident-i18n").textContent);

  var ACTS = ["announce", "touch_wall", "draw", "discard", "call", "expose", "ron", "tsumo",
              "claim_deal_incomplete", "false_win_found", "harm"];
  var KINDS = {call: ["chi", "pon", "kan"], claim_deal_incomplete: ["short", "long"],
               harm: ["missed_call", "correction_prevented"]};

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "className") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }

  // display names of codes (acts, kinds, offences, phases) from kyoku/labels.py, in the page's language
  function name(v, kind) {
    var table = (T.labels && T.labels[kind || "code"]) || {};
    return Object.prototype.hasOwnProperty.call(table, v) ? table[v] : String(v);
  }

  function options(select, values, selected) {
    select.innerHTML = "";
    values.forEach(function (v) {
      var o = el("option", {value: v, text: name(v)});
      if (String(v) === String(selected)) o.selected = true;
      select.appendChild(o);
    });
  }

  // Seats are named as the ruling names them: this hand's wind (from the chosen dealer) and the
  // player, from referee/seats.py (T.seat_labels[dealer][seat], T.winds[dealer][seat]).
  var dealerSelect = form.querySelector("[name=dealer]");
  function dealer() { return Number((dealerSelect && dealerSelect.value) || 0); }
  function seatName(seat) {
    var labels = (T.seat_labels || {})[dealer()] || {};
    return Object.prototype.hasOwnProperty.call(labels, seat) ? labels[seat] : String(seat);
  }
  function relabelSeats() {
    document.querySelectorAll("select.ev-seat option, #quick-seat option").forEach(function (o) {
      o.textContent = seatName(o.value);
    });
    document.querySelectorAll("#seats tr[data-seat]").forEach(function (tr) {
      var winds = (T.winds || {})[dealer()] || [];
      tr.querySelector(".wind").textContent = winds[Number(tr.dataset.seat)] || "";
    });
  }
  if (dealerSelect) dealerSelect.addEventListener("change", function () { relabelSeats(); preview.innerHTML = ""; });

  function intOrNull(input) {
    var v = input.value.trim();
    if (v === "") return null;
    var n = Number(v);
    return Number.isInteger(n) ? n : v; // the engine names the field if it is not an integer
  }

  function refreshKinds(tr) {
    var act = tr.querySelector(".ev-act").value;
    var kind = tr.querySelector(".ev-kind");
    var current = kind.value;
    var list = KINDS[act] || [];
    options(kind, [""].concat(list), list.indexOf(current) >= 0 ? current : (list[0] || ""));
    kind.disabled = list.length === 0;
    tr.querySelector(".ev-settled").disabled = act !== "discard";
    tr.querySelector(".ev-visible").disabled = act !== "discard";
    tr.querySelector(".ev-by").disabled = act !== "harm";
  }

  // Each control of a row is named by its column's header and the row's number ("Time (ms) 3"),
  // in the page's language, for a screen reader (the headers are in the template, translated).
  var heads = Array.prototype.map.call(document.querySelectorAll("#timeline thead th"), function (th) {
    return th.textContent.trim();
  });
  function renumber() {
    Array.prototype.forEach.call(tbody.rows, function (tr, i) {
      tr.querySelector(".ev-index").textContent = i;
      Array.prototype.forEach.call(tr.cells, function (td, column) {
        var control = td.querySelector("select, input, button");
        if (control && heads[column]) control.setAttribute("aria-label", heads[column] + " " + i);
        else if (control && control.classList.contains("remove")) control.setAttribute("aria-label", control.textContent.replace("✕", "").trim() + " " + i);
      });
    });
  }

  function serialise() {
    var events = Array.prototype.map.call(tbody.rows, function (tr) {
      var act = tr.querySelector(".ev-act").value;
      var ev = {t: intOrNull(tr.querySelector(".ev-t")), seat: Number(tr.querySelector(".ev-seat").value), act: act};
      if (ev.t === null) ev.t = 0;
      if (act === "discard") {
        var st = intOrNull(tr.querySelector(".ev-settled"));
        if (st !== null) ev.settled_t = st;
        if (!tr.querySelector(".ev-visible").checked) ev.visible = false;
      }
      var kind = tr.querySelector(".ev-kind").value;
      if (KINDS[act] && kind) ev.kind = kind;
      if (act === "harm") {
        var by = intOrNull(tr.querySelector(".ev-by"));
        if (by !== null) ev.by = by;
      }
      return ev;
    });
    hidden.value = JSON.stringify(events);
    return events;
  }

  function addRow(ev) {
    ev = ev || {};
    var seat = el("select", {className: "ev-seat", "aria-label": T.seat});
    options(seat, [0, 1, 2, 3], ev.seat === undefined ? 0 : ev.seat);
    Array.prototype.forEach.call(seat.options, function (o) { o.textContent = seatName(o.value); });
    var act = el("select", {className: "ev-act", "aria-label": "act"});
    options(act, ACTS, ev.act || "discard");
    var t = el("input", {className: "ev-t", type: "number", step: "100", style: "width:6rem", "aria-label": "t"});
    t.value = ev.t === undefined ? 0 : ev.t;
    var settled = el("input", {className: "ev-settled", type: "number", step: "100", style: "width:6rem",
                               "aria-label": "settled_t"});
    if (ev.settled_t !== undefined) settled.value = ev.settled_t;
    var visible = el("input", {className: "ev-visible", type: "checkbox", "aria-label": "visible"});
    visible.checked = ev.visible !== false;
    var kind = el("select", {className: "ev-kind", "aria-label": "kind"});
    var by = el("input", {className: "ev-by", type: "number", min: "0", style: "width:4rem", "aria-label": "by"});
    if (ev.by !== undefined) by.value = ev.by;
    var remove = el("button", {type: "button", className: "link remove", text: "✕ " + T.remove});
    var tr = el("tr", {}, [
      el("td", {className: "ev-index"}), el("td", {}, [seat]), el("td", {}, [act]), el("td", {}, [t]),
      el("td", {}, [settled]), el("td", {}, [visible]), el("td", {}, [kind]), el("td", {}, [by]),
      el("td", {}, [remove])]);
    tbody.appendChild(tr);
    refreshKinds(tr);
    if (ev.kind) kind.value = ev.kind;
    act.addEventListener("change", function () { refreshKinds(tr); serialise(); });
    remove.addEventListener("click", function () {
      // the focus stays in the table: on the next row's Remove, else the previous row's, else "Add a row"
      var next = tr.nextElementSibling || tr.previousElementSibling;
      tr.remove(); renumber(); serialise();
      (next ? next.querySelector("button.remove") : document.getElementById("add-row")).focus();
    });
    renumber();
    serialise();
    return tr;
  }

  function lastT() {
    var rows = tbody.rows;
    if (!rows.length) return null;
    var v = intOrNull(rows[rows.length - 1].querySelector(".ev-t"));
    return typeof v === "number" ? v : 0;
  }

  document.querySelectorAll("#quick button.quick").forEach(function (button) {
    button.addEventListener("click", function () {
      var step = Number(document.getElementById("quick-step").value) || 0;
      var prev = lastT();
      var ev = {seat: Number(document.getElementById("quick-seat").value), act: button.dataset.act,
                t: prev === null ? 0 : prev + step};
      if (button.dataset.kind) ev.kind = button.dataset.kind;
      if (ev.act === "harm") ev.by = Math.max(tbody.rows.length - 1, 0);
      addRow(ev);
    });
  });
  document.getElementById("add-row").addEventListener("click", function () {
    var prev = lastT();
    var tr = addRow({t: prev === null ? 0 : prev + (Number(document.getElementById("quick-step").value) || 0)});
    tr.querySelector("select").focus();  // the new row's first control: its seat
  });
  tbody.addEventListener("input", serialise);
  tbody.addEventListener("change", serialise);
  form.addEventListener("submit", serialise);

  // Rows already in the hidden field (a form sent back with errors) are rebuilt.
  try {
    (JSON.parse(hidden.value || "[]") || []).forEach(function (ev) { addRow(ev); });
  } catch (e) { /* leave the builder empty */ }

  function csrf() {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function dl(pairs) {
    var list = el("dl", {className: "ruling"});
    pairs.forEach(function (p) {
      list.appendChild(el("dt", {text: p[0]}));
      list.appendChild(el("dd", {className: p[2] || "", text: p[1]}));
    });
    return list;
  }

  function show(ruling) {
    preview.innerHTML = "";
    preview.className = "card";
    preview.appendChild(el("h3", {text: T.proposed}));
    var corr = (ruling.corrections || []).map(function (c) {
      return seatName(c.seat) + ": " + (c.allowed ? T.allowed : T.refused) + " [" + c.clauses.join(", ") + "]";
    }).join("; ");
    var pens = (ruling.penalties || []).map(function (p) {
      return seatName(p.seat) + ": " + name(p.offence, "offence") + " [" + p.clauses.join(", ") + "]";
    }).join("; ");
    var pairs = [
      [T.procedure, ruling.procedure_at_end ? name(ruling.procedure_at_end, "phase") : "—", "procedure"],
      [T.play_started, ruling.play_started_t === null ? T.still_deal : ruling.play_started_t + " ms (" + name(ruling.play_start, "play_start") + ")"],
      [T.winners, (ruling.winners || []).map(seatName).join(", ") || "—", "winners"]
    ];
    if (corr) pairs.push([T.corrections, corr, "corrections"]);
    if ((ruling.invalid_declarations || []).length) {
      // each as the timeline row it is: number, seat (wind and player), act, time
      var events = serialise();
      pairs.push([T.invalid, ruling.invalid_declarations.map(function (i) {
        var ev = events[i] || {};
        var act = ev.act === "call" ? ev.kind : ev.act;
        return "#" + i + " " + seatName(ev.seat) + " " + name(act) + " (" + ev.t + " ms)";
      }).join("; "), "invalid"]);
    }
    pairs.push([T.offences, pens || T.none, "offences"]);
    pairs.push([T.clauses, (ruling.clauses_applied || []).join(", "), "clauses"]);
    preview.appendChild(dl(pairs));
    preview.appendChild(el("h4", {text: T.explanation}));
    // explanation_text: the server's words in the page's language, seats named by wind and player
    var lines = ruling.explanation_text || ruling["explanation_" + T.lang] || ruling.explanation;
    var data = ruling.explanation_data || [];
    var ol = el("ol", {className: "explanation"});
    (lines || []).forEach(function (text, i) {
      // each line already cites its clauses in its own language; keep them as data too
      ol.appendChild(el("li", {text: text, "data-clauses": ((data[i] && data[i].clauses) || []).join(",")}));
    });
    preview.appendChild(ol);
  }

  function showError(message) {
    preview.innerHTML = "";
    preview.className = "card error";
    preview.appendChild(el("p", {className: "error", id: "preview-error", text: T.error + ": " + message}));
  }

  document.getElementById("preview-button").addEventListener("click", function () {
    var record = {rules: rules, dealer: dealer(), events: serialise()};
    fetch("/api/rulings/preview?game=" + encodeURIComponent(form.dataset.game || ""), {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json"},
      body: JSON.stringify(record)
    }).then(function (response) {
      return response.json().then(function (body) { return {ok: response.ok, body: body}; });
    }).then(function (r) {
      if (r.ok && !r.body.error) show(r.body);
      else showError(r.body.error || r.body.detail || T.failed);
    }).catch(function (e) { showError(T.failed + " (" + e + ")"); });
  });
}());
