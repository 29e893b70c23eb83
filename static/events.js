/* Tournaments: the round clock (counted down here, corrected from the server on every poll),
   the big screen (conditional polling on the board's version, standings paged for long tables)
   and a table's phone view (the clock; the page refreshes when the table's report changes). */
(function () {
  "use strict";
  var clockEl = document.getElementById("round-clock");
  var lastHand = document.getElementById("last-hand");
  var remaining = clockEl ? parseInt(clockEl.dataset.remaining || "0", 10) : 0;
  var state = clockEl ? clockEl.dataset.state : "";
  var synced = Date.now();

  function fmt(s) {
    s = Math.max(0, Math.round(s));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  }

  function drawClock() {
    if (!clockEl) return;
    var left = remaining;
    if (state === "running") left = remaining - (Date.now() - synced) / 1000;
    var shown = state === "running" && left <= 0 ? "time_up" : state;
    clockEl.querySelector(".ev-clock-time").textContent = fmt(left);
    var label = clockEl.getAttribute("data-label-" + shown);
    if (label) clockEl.querySelector(".ev-clock-label").textContent = label;
    clockEl.dataset.state = shown;
    if (lastHand) lastHand.hidden = shown !== "time_up";
  }

  function syncClock(c) {
    if (!clockEl || !c) return;
    remaining = c.remaining; state = c.state; synced = Date.now();
    drawClock();
  }

  if (clockEl) { drawClock(); setInterval(drawClock, 250); }

  var board = document.getElementById("board");
  var table = document.querySelector(".ev-table[data-board]");
  var url = board ? board.dataset.url : table ? table.dataset.board : null;
  if (!url) return;
  var etag = null, version = board ? board.dataset.version : null, words = {};
  try { words = board ? JSON.parse(board.dataset.words) : {}; } catch (e) { words = {}; }

  function text(tag, value, cls) {
    var el = document.createElement(tag);
    el.textContent = value;
    if (cls) el.className = cls;
    return el;
  }

  function pts(v) {
    var n = Number(v);
    if (isNaN(n)) return v;
    var s = Math.abs(n).toFixed(1);
    return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + s;
  }

  var page = 0, rows = [];
  function perPage() {
    var h = window.innerHeight || 800;
    return Math.max(8, Math.floor((h - 220) / 44));
  }
  function drawStandings() {
    var body = document.querySelector("#board-standings tbody");
    if (!body) return;
    var n = perPage(), pages = Math.max(1, Math.ceil(rows.length / n));
    if (page >= pages) page = 0;
    body.textContent = "";
    rows.slice(page * n, page * n + n).forEach(function (r) {
      var tr = document.createElement("tr");
      tr.appendChild(text("td", (r.shared ? "=" : "") + r.rank, "num"));
      tr.appendChild(text("td", r.name));
      tr.appendChild(text("td", r.games, "num"));
      tr.appendChild(text("td", pts(r.points), "num"));
      body.appendChild(tr);
    });
    var label = document.getElementById("board-page");
    if (label) label.textContent = pages > 1 ? (words.page || "") + " " + (page + 1) + "/" + pages : "";
  }

  function drawBoard(data) {
    rows = data.standings || [];
    drawStandings();
    var tables = document.getElementById("board-tables");
    if (tables) {
      tables.textContent = "";
      (data.tables || []).forEach(function (t) {
        tables.appendChild(text("li", (words.table || "") + " " + t.table + ": " + (words[t.status] || t.status), "ev-" + t.status));
      });
    }
    var latest = document.getElementById("board-latest");
    if (latest) {
      latest.textContent = "";
      (data.latest || []).forEach(function (r) {
        latest.appendChild(text("li", (words.round || "") + " " + r.round + " \u00b7 " + (words.table || "") + " " + r.table + ": " +
          r.seats.map(function (s) { return s.name + " " + (s.score === null ? "" : Number(s.score).toLocaleString()); }).join(", ")));
      });
    }
    board.dataset.version = data.version;
  }

  function poll() {
    var headers = {"Accept": "application/json"};
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, {headers: headers, cache: "no-store"}).then(function (res) {
      if (res.status === 304) return null;
      if (!res.ok) return null;
      etag = res.headers.get("ETag");
      return res.json();
    }).then(function (data) {
      if (!data) return;
      syncClock(data.clock);
      if (board) { drawBoard(data); return; }
      // a table's phone: a change of the event's board may be this table's report; refresh when idle
      if (version !== null && String(data.version) !== String(version)) {
        var typing = document.activeElement && /INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName);
        if (!typing) window.location.reload();
      }
      version = data.version;
    }).catch(function () { /* offline a moment: the clock keeps counting, the next poll catches up */ });
  }
  poll();
  setInterval(poll, board ? 1000 : 3000);
  if (board) setInterval(function () { page += 1; drawStandings(); }, 10000);
})();
