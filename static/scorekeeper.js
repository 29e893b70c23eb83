// Scorekeeper: build a hand record from the touch controls, preview it through the API
// (nothing stored), then save it once (Idempotency-Key per page load) and reload.
(function () {
  "use strict";
  const root = document.getElementById("scorekeeper");
  const form = document.getElementById("sk-form");
  if (!root) return;
  const L = root.dataset;  // labels rendered (translated) by the template
  const system = L.system;
  const names = JSON.parse(document.getElementById("sk-seat-names").textContent);
  const saveButton = document.getElementById("sk-save");
  const message = document.getElementById("sk-message");
  const list = document.getElementById("sk-payments");
  let type = null;
  let previewed = null;  // JSON of the record last previewed successfully
  let timer = null;

  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function post(url, body, key) {
    const headers = {"Content-Type": "application/json", "X-CSRFToken": csrf()};
    if (key) headers["Idempotency-Key"] = key;
    return fetch(url, {method: "POST", headers, credentials: "same-origin", body: JSON.stringify(body)})
      .then(r => r.json().catch(() => ({})).then(data => ({ok: r.ok, status: r.status, data})));
  }

  function group(role) { return form && form.querySelector(`.sk-group[data-role="${role}"]`); }
  function pressed(role) {
    const g = group(role);
    return g ? [...g.querySelectorAll('.sk-seat[aria-pressed="true"]')].map(b => +b.dataset.seat) : [];
  }
  function multi(role) {
    return role === "tenpai" || role === "riichi" || (role === "winners" && system === "riichi" && type === "ron");
  }

  function showFor() {
    form.querySelectorAll(".sk-group[data-types]").forEach(g => {
      g.hidden = !type || !g.dataset.types.split(" ").includes(type);
      if (g.hidden) g.querySelectorAll("[aria-pressed]").forEach(b => b.setAttribute("aria-pressed", "false"));
    });
    const winners = type && group("winners") && !group("winners").hidden ? pressed("winners") : [];
    form.querySelectorAll(".sk-value").forEach(v => { v.hidden = !winners.includes(+v.dataset.seat); });
  }

  function riichiWinner(seat) {
    const v = form.querySelector(`.sk-value[data-seat="${seat}"]`);
    const yakuman = +v.querySelector("[name=yakuman]").value;
    if (yakuman) return {seat, yakuman};
    const han = +v.querySelector("[name=han]").value;
    const w = {seat, han};
    if (han < 5) w.fu = +v.querySelector("[name=fu]").value;
    return w;
  }

  function beijingWinner(seat) {
    const v = form.querySelector(`.sk-value[data-seat="${seat}"]`);
    const factors = [...v.querySelectorAll('.sk-factor[aria-pressed="true"]')].map(b => b.dataset.factor);
    const kongs = [];
    for (let i = 0; i < +v.querySelector("[name=kong_open]").value; i++) kongs.push({type: "open"});
    for (let i = 0; i < +v.querySelector("[name=kong_concealed]").value; i++) kongs.push({type: "concealed"});
    return {factors, kongs};
  }

  function record() {
    if (!type) return null;
    const winners = pressed("winners");
    const from = pressed("from")[0];
    const result = {type};
    if (system === "riichi") {
      const rec = {riichi: pressed("riichi"), result};
      if (type === "ron") { result.from = from; result.winners = winners.map(riichiWinner); }
      if (type === "tsumo") result.winner = winners.length ? riichiWinner(winners[0]) : undefined;
      if (type === "draw") result.tenpai = pressed("tenpai");
      if (type === "abortive") result.reason = form.querySelector("[name=reason]").value;
      if (type === "chombo") result.seat = pressed("seat")[0];
      return rec;
    }
    if (type !== "draw") {
      result.winner = winners[0];
      if (type === "ron" || type === "discard") result.from = from;
      if (system === "zung-jung" && winners.length) {
        result.value = +form.querySelector(`.sk-value[data-seat="${winners[0]}"] [name=value]`).value;
      }
      if (system === "beijing" && winners.length) Object.assign(result, beijingWinner(winners[0]));
    }
    return {result};
  }

  function seatName(seat) { return seat === null || seat === undefined ? L.labelTable : names[seat]; }

  function showPreview(data) {
    list.replaceChildren(...data.settlement.payments.map(p => {
      const li = document.createElement("li");
      li.textContent = `${seatName(p.from)} → ${seatName(p.to)}: ${p.points.toLocaleString()} (${p.why})`;
      return li;
    }));
    (data.settlement.penalties || []).forEach(p => {
      const li = document.createElement("li");
      li.className = "error";
      li.textContent = `${names[p.seat]}: −${p.points.toLocaleString()} (${p.why})`;
      list.appendChild(li);
    });
    document.querySelectorAll("#sk-scores tbody tr").forEach(tr => {
      const seat = +tr.dataset.seat;
      const d = data.settlement.deltas[seat];
      tr.querySelector(".sk-delta").textContent = d > 0 ? `+${d.toLocaleString()}` : d.toLocaleString();
      tr.querySelector(".sk-after").textContent = data.scores_after[seat].toLocaleString();
    });
  }

  function clearPreview(text) {
    previewed = null;
    saveButton.disabled = true;
    message.textContent = text || "";
    list.replaceChildren();
    document.querySelectorAll("#sk-scores .sk-delta, #sk-scores .sk-after").forEach(td => { td.textContent = ""; });
  }

  function preview() {
    const rec = record();
    if (!rec) { clearPreview(L.labelPick); return; }
    const body = {sequence: +L.sequence, record: rec};
    const sent = JSON.stringify(rec);
    message.textContent = L.labelChecking;
    saveButton.disabled = true;
    post(L.previewUrl, body).then(({ok, data}) => {
      if (JSON.stringify(record()) !== sent) return;  // the form changed meanwhile
      if (!ok) { clearPreview(data.detail || L.labelError); message.className = "error"; return; }
      message.textContent = ""; message.className = "hint";
      showPreview(data);
      previewed = sent;
      saveButton.disabled = false;
    }).catch(() => clearPreview(L.labelError));
  }

  function changed() {
    showFor();
    saveButton.disabled = true;  // the preview on show is stale until the next one arrives
    clearTimeout(timer);
    timer = setTimeout(preview, 150);
  }

  function toggle(button) {
    const g = button.closest(".sk-group, .sk-factors");
    const role = g.dataset.role;
    const on = button.getAttribute("aria-pressed") !== "true";
    if (role === "type") {
      g.querySelectorAll(".sk-btn").forEach(b => b.setAttribute("aria-pressed", "false"));
      type = on ? button.dataset.type : null;
    } else if (role && !multi(role) && on) {
      g.querySelectorAll(".sk-seat").forEach(b => b.setAttribute("aria-pressed", "false"));
    }
    button.setAttribute("aria-pressed", on ? "true" : "false");
    changed();
  }

  function save() {
    const rec = record();
    if (!previewed || JSON.stringify(rec) !== previewed) { preview(); return; }
    saveButton.disabled = true;
    message.textContent = L.labelSaving;
    post(L.saveUrl, {sequence: +L.sequence, record: rec}, L.key).then(({ok, data}) => {
      if (ok) { message.textContent = L.labelSaved; window.location.reload(); return; }
      message.textContent = data.detail || L.labelError;
      message.className = "error";
      saveButton.disabled = false;
    }).catch(() => { message.textContent = L.labelError; saveButton.disabled = false; });
  }

  function finish() {
    const out = document.getElementById("sk-finish-message");
    if (!window.confirm(L.labelConfirmFinish)) return;
    this.disabled = true;
    post(L.finishUrl, {}, L.finishKey).then(({ok, data}) => {
      if (ok) { window.location.reload(); return; }
      out.textContent = data.detail || L.labelError;
      out.className = "error";
      this.disabled = false;
    }).catch(() => { out.textContent = L.labelError; this.disabled = false; });
  }

  if (form) {
    form.addEventListener("click", e => {
      const b = e.target.closest(".sk-btn, .sk-seat");
      if (b) toggle(b);
    });
    form.addEventListener("change", changed);
    form.addEventListener("input", changed);
    saveButton.addEventListener("click", save);
    clearPreview(L.labelPick);
  }
  const finishButton = document.getElementById("sk-finish");
  if (finishButton) finishButton.addEventListener("click", finish);
})();
