// Scorekeeper: build a hand record from the touch controls, preview it through the API
// (nothing stored), then save it.
//
// Every new hand goes through an outbox kept in localStorage before it is sent: a hand saved
// without a connection (or whose answer was lost) stays on the device, is shown as waiting,
// and is sent again with the same Idempotency-Key when the connection returns, so the server
// stores it exactly once. A conflict (that hand number now holds another record) or an expired
// session stops the queue and is shown; nothing is merged or dropped silently.
(function () {
  "use strict";
  const root = document.getElementById("scorekeeper");
  if (!root) return;
  const form = document.getElementById("sk-form");
  const L = root.dataset;  // labels rendered (translated) by the template
  const system = L.system;
  const correcting = L.correct ? +L.correct : null;
  const names = JSON.parse(document.getElementById("sk-seat-names").textContent);
  const stored = JSON.parse(document.getElementById("sk-record").textContent);
  const saveButton = document.getElementById("sk-save");
  const message = document.getElementById("sk-message");
  const list = document.getElementById("sk-payments");
  const OUTBOX = `kyoku.scorekeeper.${L.game}.outbox`;
  // whose hands these are: a table's scorekeeper's belong to the table and survive a logout on
  // the phone; an admin's belong to the account and go with its logout (static/app.js)
  const OWNER = window.location.pathname.startsWith("/events/tables/") ? "table" : "account";
  let type = null;
  let previewed = null;  // JSON of the record last previewed successfully
  let timer = null;
  let saving = false;
  let sequence = +L.sequence;  // the hand being entered: after those waiting on the device
  let syncing = false;

  // ------------------------------------------------------------ small helpers

  function fill(label, n) { return label.replace("%(n)s", n); }

  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));  // also on plain http (venue LAN)
    return [...b].map(x => x.toString(16).padStart(2, "0")).join("");
  }

  // A network failure rejects; any answer (even 4xx/5xx) resolves with {ok, status, data}.
  function send(method, url, body, key) {
    const headers = {"Content-Type": "application/json", "X-CSRFToken": csrf()};
    if (key) headers["Idempotency-Key"] = key;
    return fetch(url, {method, headers, credentials: "same-origin", body: JSON.stringify(body),
                       redirect: "manual"})
      .then(r => r.json().catch(() => ({})).then(data => ({ok: r.ok, status: r.status, data})));
  }

  // The first human message of an API error (without the record's field path).
  function errorText(data) {
    let e = data && data.errors;
    while (e && typeof e === "object") {
      const first = Array.isArray(e) ? e[0] : e[Object.keys(e)[0]];
      if (typeof first === "string") return first;
      e = first;
    }
    return (data && data.detail) || L.labelError;
  }

  // as the pages print numbers (kyoku_labels score): thousands separated, a real minus sign
  function fmt(n) { const t = Math.abs(n).toLocaleString("en-US"); return n < 0 ? `\u2212${t}` : t; }

  // ------------------------------------------------------------ the form → a record

  function group(role) { return form && form.querySelector(`.sk-group[data-role="${role}"]`); }
  function pressed(role) {
    const g = group(role);
    return g ? [...g.querySelectorAll('.sk-seat[aria-pressed="true"]')].map(b => +b.dataset.seat) : [];
  }
  function press(role, seats) {
    const g = group(role);
    if (g) seats.forEach(s => { const b = g.querySelector(`.sk-seat[data-seat="${s}"]`); if (b) b.setAttribute("aria-pressed", "true"); });
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
    form.querySelectorAll(".sk-value").forEach(v => {
      v.hidden = !winners.includes(+v.dataset.seat);
      const han = v.querySelector("[name=han]");
      if (han) {  // fu only matters below 5 han, and not for a yakuman
        const yakuman = +v.querySelector("[name=yakuman]").value;
        v.querySelector(".sk-fu").hidden = yakuman > 0 || +han.value >= 5;
        han.closest("label").hidden = yakuman > 0;
      }
    });
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

  // The stored record of the hand being corrected, shown on the controls.
  function load(rec) {
    const r = rec.result || {};
    const button = form.querySelector(`.sk-btn[data-type="${r.type}"]`);
    if (!button) return;
    button.setAttribute("aria-pressed", "true");
    type = r.type;
    showFor();
    const winners = r.winners || (r.winner !== undefined ? [r.winner] : []);
    const seats = winners.map(w => (typeof w === "object" ? w.seat : w));
    press("winners", seats);
    if (r.from !== undefined) press("from", [r.from]);
    press("riichi", rec.riichi || []);
    press("tenpai", r.tenpai || []);
    if (r.seat !== undefined) press("seat", [r.seat]);
    if (r.reason) form.querySelector("[name=reason]").value = r.reason;
    showFor();
    winners.forEach((w, i) => {
      const v = form.querySelector(`.sk-value[data-seat="${seats[i]}"]`);
      if (!v || typeof w !== "object") {
        if (v && system === "zung-jung" && r.value) v.querySelector("[name=value]").value = r.value;
        if (v && system === "beijing") {
          (r.factors || []).forEach(f => { const b = v.querySelector(`.sk-factor[data-factor="${f}"]`); if (b) b.setAttribute("aria-pressed", "true"); });
          const kongs = r.kongs || [];
          v.querySelector("[name=kong_open]").value = kongs.filter(k => k.type === "open").length;
          v.querySelector("[name=kong_concealed]").value = kongs.filter(k => k.type === "concealed").length;
        }
        return;
      }
      if (w.yakuman) v.querySelector("[name=yakuman]").value = w.yakuman;
      if (w.han) v.querySelector("[name=han]").value = w.han;
      if (w.fu) v.querySelector("[name=fu]").value = w.fu;
    });
    showFor();
  }

  // ------------------------------------------------------------ preview

  function seatName(seat) { return seat === null || seat === undefined ? L.labelTable : names[seat]; }

  function showPreview(data) {
    const shown = data.display || {};
    list.replaceChildren(...(shown.payments || []).map(p => {
      const li = document.createElement("li");
      li.textContent = `${p.from} → ${p.to}: ${fmt(p.points)} (${p.why})`;
      return li;
    }));
    (shown.penalties || []).forEach(p => {
      const li = document.createElement("li");
      li.className = "error";
      li.textContent = `${p.seat}: −${fmt(p.points)} (${p.why})`;
      list.appendChild(li);
    });
    document.querySelectorAll("#sk-scores tbody tr").forEach(tr => {
      const seat = +tr.dataset.seat;
      const d = data.settlement.deltas[seat];
      tr.querySelector(".sk-delta").textContent = d > 0 ? `+${fmt(d)}` : fmt(d);
      tr.querySelector(".sk-after").textContent = fmt(data.scores_after[seat]);
    });
  }

  function clearPreview(text, isError) {
    previewed = null;
    message.textContent = text || "";
    message.className = isError ? "error" : "hint";
    list.replaceChildren();
    document.querySelectorAll("#sk-scores .sk-delta, #sk-scores .sk-after").forEach(td => { td.textContent = ""; });
  }

  function waiting() { return outbox().filter(h => h.status !== "conflict").length; }

  function canSaveUnchecked() {
    // Offline, or behind hands still on the device: the server cannot settle this hand yet.
    return !correcting && (!navigator.onLine || waiting() > 0);
  }

  function preview() {
    const rec = record();
    saveButton.disabled = true;
    if (!rec) { clearPreview(L.labelPick); return; }
    if (canSaveUnchecked()) {
      clearPreview(navigator.onLine ? L.labelPendingPreview : L.labelOffline);
      saveButton.disabled = false;
      return;
    }
    const sent = JSON.stringify(rec);
    message.textContent = L.labelChecking;
    send("POST", L.previewUrl, {sequence, record: rec}).then(({ok, data}) => {
      if (JSON.stringify(record()) !== sent) return;  // the form changed meanwhile
      if (!ok) { clearPreview(errorText(data), true); return; }
      message.textContent = ""; message.className = "hint";
      showPreview(data);
      previewed = sent;
      saveButton.disabled = false;
    }).catch(() => {
      if (correcting) { clearPreview(L.labelCorrectOffline, true); return; }
      clearPreview(L.labelOffline);
      saveButton.disabled = false;
    });
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

  // ------------------------------------------------------------ the outbox

  function outbox() {
    let hands = [];
    try { hands = JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; }
    return hands.map(h => (h.owner ? h : Object.assign(h, {owner: OWNER})));  // kept before owners were
  }
  function outboxWrite(hands) {
    if (hands.length) localStorage.setItem(OUTBOX, JSON.stringify(hands));
    else localStorage.removeItem(OUTBOX);
    render();
  }
  function outboxUpdate(key, changes) {
    outboxWrite(outbox().map(h => (h.key === key ? Object.assign(h, changes) : h)));
  }

  function summary(rec) {
    const button = form && form.querySelector(`.sk-btn[data-type="${rec.result.type}"]`);
    const kind = button ? button.textContent : rec.result.type;
    const r = rec.result;
    const who = (r.winners || (r.winner !== undefined ? [r.winner] : [])).map(w => names[typeof w === "object" ? w.seat : w]);
    return who.length ? `${kind}: ${who.join(", ")}` : kind;
  }

  // The outbox said to a screen reader (a status region always in the page, polite): written only
  // when its words change, so a retry every 15 s that changes nothing is not read out again.
  const said = document.getElementById("sk-outbox-status");
  function say(words, waitingNow) {
    if (!said) return;
    if (said.textContent !== words) said.textContent = words;
    if (waitingNow) said.dataset.had = "1"; else delete said.dataset.had;
  }

  function render() {
    const hands = outbox();
    const box = document.getElementById("sk-pending");
    const ul = document.getElementById("sk-pending-list");
    box.hidden = hands.length === 0;
    const lines = [];
    ul.replaceChildren(...hands.map(h => {
      const li = document.createElement("li");
      li.className = h.status;
      li.dataset.sequence = h.sequence;
      const state = {waiting: L.labelWaiting, sending: L.labelSending, conflict: L.labelConflict,
                     login: L.labelLogin}[h.status] || "";
      li.textContent = `${fill(L.labelHand, h.sequence)} · ${h.summary} — ${state}${h.detail ? ` (${h.detail})` : ""}`;
      lines.push(li.textContent);
      if (h.status === "login") {
        const a = document.createElement("a");
        a.href = L.loginUrl; a.textContent = L.labelLoginLink; a.className = "button";
        li.append(" ", a);
      }
      if (h.status === "conflict") {
        const b = document.createElement("button");
        b.type = "button"; b.className = "sk-discard"; b.textContent = L.labelDiscard;
        b.addEventListener("click", () => {
          if (window.confirm(L.labelConfirmDiscard)) outboxWrite(outbox().filter(x => x.key !== h.key));
        });
        const r = document.createElement("button");
        r.type = "button"; r.className = "sk-secondary"; r.textContent = L.labelReload;
        r.addEventListener("click", () => window.location.reload());
        li.append(" ", b, " ", r);
      }
      return li;
    }));
    say(lines.length ? lines.join(". ") : (said && said.dataset.had ? L.labelSaved : ""), lines.length > 0);
    // Finishing the game or undoing "the last hand" would act on the wrong hand while some wait.
    document.querySelectorAll("#sk-finish, #sk-undo button").forEach(b => { b.disabled = waiting() > 0; });
    if (!correcting && form) {  // the hand being entered comes after those waiting
      const next = +L.next + waiting();
      sequence = next;  // data-sequence stays the server's: it changes only on reload
      document.getElementById("sk-hand-title").textContent = fill(L.labelHand, next);
      document.getElementById("sk-hand-state").hidden = waiting() > 0;
      if (saveButton) saveButton.textContent = fill(L.labelSaveHand, next);
    }
  }

  // Send the waiting hands in order; stop at the first that cannot go (offline, conflict, login).
  function sync() {
    if (syncing) return Promise.resolve();
    const next = outbox().find(h => h.status !== "conflict");
    if (!next) return Promise.resolve();
    syncing = true;
    outboxUpdate(next.key, {status: "sending"});
    return send("POST", L.saveUrl, {sequence: next.sequence, record: next.record}, next.key).then(({ok, status, data}) => {
      syncing = false;
      if (ok && data.hand && data.hand.sequence === next.sequence) {
        outboxWrite(outbox().filter(h => h.key !== next.key));
        if (outbox().length === 0) { window.location.reload(); return; }
        return sync();
      }
      if (status === 401 || status === 403 || status === 0 || (status >= 300 && status < 400)) {
        outboxUpdate(next.key, {status: "login", detail: ""});  // kept until the user logs in again
        return;
      }
      if (status >= 500) { outboxUpdate(next.key, {status: "waiting"}); return; }
      // The hands queued after it were entered on top of it: they are not sent either.
      const detail = ok ? "" : errorText(data);
      outboxWrite(outbox().map(h => (h.key === next.key || (h.status !== "conflict" && h.sequence > next.sequence)
        ? Object.assign(h, {status: "conflict", detail: h.key === next.key ? detail : ""}) : h)));
    }).catch(() => {
      syncing = false;
      outboxUpdate(next.key, {status: "waiting"});
    });
  }

  // ------------------------------------------------------------ save, correct, finish

  function save() {
    if (saving) return;
    const rec = record();
    if (!rec) return;
    if (correcting) { correct(rec); return; }
    if (!canSaveUnchecked() && previewed && JSON.stringify(rec) !== previewed) { preview(); return; }
    saving = true;
    saveButton.disabled = true;
    const hand = {key: newKey(), sequence, record: rec, summary: summary(rec), status: "waiting", owner: OWNER};
    outboxWrite([...outbox(), hand]);  // on the device before anything is sent
    message.textContent = navigator.onLine ? L.labelSaving : L.labelKept;
    sync().then(() => {
      saving = false;
      const left = outbox().find(h => h.key === hand.key);
      if (left) resetForm(left.status === "waiting" ? L.labelKept : "");
    });
  }

  function resetForm(text) {
    type = null;
    form.querySelectorAll("[aria-pressed]").forEach(b => b.setAttribute("aria-pressed", "false"));
    showFor();
    clearPreview(text || L.labelPick);
    saveButton.disabled = true;
  }

  function correct(rec) {
    saving = true;
    saveButton.disabled = true;
    message.textContent = L.labelSaving;
    const url = `${L.saveUrl}${correcting}/`;
    send("PUT", url, {record: rec}, L.key).then(({ok, data}) => {
      if (ok) { window.location.href = L.pageUrl; return; }
      saving = false;
      clearPreview(errorText(data), true);
      saveButton.disabled = false;
    }).catch(() => { saving = false; clearPreview(L.labelCorrectOffline, true); saveButton.disabled = false; });
  }

  function finish() {
    const out = document.getElementById("sk-finish-message");
    if (!window.confirm(L.labelConfirmFinish)) return;
    this.disabled = true;
    send("POST", L.finishUrl, {}, L.finishKey).then(({ok, data}) => {
      if (ok) { window.location.reload(); return; }
      out.textContent = errorText(data);
      out.className = "error";
      this.disabled = false;
    }).catch(() => { out.textContent = L.labelError; this.disabled = false; });
  }

  if (form) {
    // the hand is saved by the Save button's request, never by a plain form submission (Enter)
    form.addEventListener("submit", e => e.preventDefault());
    form.addEventListener("click", e => {
      const b = e.target.closest(".sk-btn, .sk-seat");
      if (b) toggle(b);
    });
    form.addEventListener("change", changed);
    form.addEventListener("input", changed);
    saveButton.addEventListener("click", save);
    clearPreview(L.labelPick);
    if (stored && correcting) { load(stored); changed(); }
  }
  const finishButton = document.getElementById("sk-finish");
  if (finishButton) finishButton.addEventListener("click", finish);
  // A hand waiting from an earlier visit (or before a login) is retried now and whenever the
  // connection comes back; a slow retry covers networks that never fire "online".
  render();
  if (outbox().some(h => h.status === "login")) outbox().forEach(h => { if (h.status === "login") outboxUpdate(h.key, {status: "waiting"}); });
  window.addEventListener("online", () => { sync(); preview(); });
  window.addEventListener("offline", () => { if (form && type) preview(); });
  setInterval(() => { if (navigator.onLine) sync(); }, 15000);
  sync();
})();
