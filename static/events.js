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
  var reloadedForTimeUp = false;
  var boardTimeUp = null;  // the big screen's fetch when its clock runs out (set below)
  var tableView = document.querySelector(".ev-table[data-board]");

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
    var labelEl = clockEl.querySelector(".ev-clock-label");
    // the label is a polite live region: written only when the state changes, so a screen reader
    // hears "Time is up" once, not four times a second
    if (label && labelEl.textContent !== label) labelEl.textContent = label;
    clockEl.dataset.state = shown;
    if (shown === "time_up" && state === "running" && boardTimeUp) boardTimeUp();
    if (lastHand && !lastHand.dataset.stored) {
      lastHand.hidden = shown !== "time_up";
      // time has just run out here: the server stores each table's hand in play; a table's page
      // reloads once to say which hand is its last
      if (shown === "time_up" && state === "running" && tableView && !reloadedForTimeUp) {
        reloadedForTimeUp = true;
        setTimeout(function () {
          var typing = document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
          if (!typing) window.location.reload();  // never lose scores being typed
        }, 1500);
      }
    }
  }

  function syncClock(c) {
    if (!clockEl || !c) return;
    remaining = c.remaining; state = c.state; synced = Date.now();
    // the big screen stays open from round to round: its clock names the round it counts
    var named = clockEl.querySelector(".ev-clock-round");
    if (named && board && c.round) named.textContent = roundTitle(c.round, c.stage);
    drawClock();
  }

  if (clockEl) { drawClock(); setInterval(drawClock, 250); }

  // A table's phone: reports, confirmations and disputes go to the API; with no connection they
  // are kept on the phone and sent when it returns (a repeat changes nothing: the same report is
  // the same report, a seat's confirmation counts once).
  var KEPT = "kyoku-event-outbox";
  var note = document.getElementById("table-outbox");
  function kept() { try { return JSON.parse(localStorage.getItem(KEPT) || "[]"); } catch (e) { return []; } }
  function keep(list) { localStorage.setItem(KEPT, JSON.stringify(list)); }
  function csrf() { var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/); return m ? decodeURIComponent(m[1]) : ""; }
  function say(text) { if (note) { note.textContent = text; note.hidden = !text; } }
  function post(item) {
    return fetch(item.url, {method: "POST", credentials: "same-origin", body: JSON.stringify(item.body),
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf(), "Idempotency-Key": item.key}})
      .then(function (r) { return r.json().catch(function () { return {}; }).then(function (d) { return {status: r.status, data: d}; }); });
  }
  // One send at a time: the "online" event and the timer can both fire while a send is under way,
  // and a second copy in flight only makes the server replay the first.
  var sending = false;
  function flush() {
    var list = kept();
    if (sending || !list.length || !navigator.onLine) return;
    sending = true;
    say(tableView ? tableView.dataset.labelSending : "");
    var item = list[0];
    post(item).then(function (r) {
      sending = false;
      if (r.status >= 500) { say(tableView ? tableView.dataset.labelKept : ""); return; }  // try again later
      keep(kept().slice(1));  // answered (stored, or refused with a reason the page will show)
      if (kept().length) { flush(); } else { window.location.reload(); }
    }).catch(function () { sending = false; say(tableView ? tableView.dataset.labelKept : ""); });
  }
  function bodyOf(form) {
    var data = new FormData(form), body = {}, scores = [];
    for (var i = 0; i < 4; i++) { if (data.has("score_" + i)) scores.push(parseInt(data.get("score_" + i), 10)); }
    if (scores.length) body.scores = scores;
    if (data.has("seat")) body.seat = parseInt(data.get("seat"), 10);
    if (data.has("deposits_left")) body.deposits_left = parseInt(data.get("deposits_left") || "0", 10);
    if (data.has("note")) body.note = data.get("note");
    if (data.has("version")) body.version = parseInt(data.get("version"), 10);  // the version this seat agrees with
    return body;
  }
  function newKey() {
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(b, function (x) { return x.toString(16).padStart(2, "0"); }).join("");
  }
  if (tableView) {
    tableView.querySelectorAll("form[data-api]").forEach(function (form) {
      form.addEventListener("submit", function (ev) {
        var body = bodyOf(form);
        if (body.scores && body.scores.some(isNaN)) return;  // let the page's own form say what is missing
        ev.preventDefault();
        var item = {url: form.dataset.api, body: body, key: newKey()};
        post(item).then(function (r) {
          if (r.status >= 500) { keep(kept().concat([item])); say(tableView.dataset.labelKept); return; }
          if (r.status >= 400 && r.data) {
            var errors = r.data.errors || {}, first = Object.keys(errors)[0];
            say(first ? [].concat(errors[first])[0] : (r.data.detail || ""));
            return;
          }
          window.location.reload();
        }).catch(function () { keep(kept().concat([item])); say(tableView.dataset.labelKept); });
      });
    });
    if (kept().length) { say(tableView.dataset.labelKept); flush(); }
    window.addEventListener("online", flush);
    setInterval(flush, 5000);
  }

  var board = document.getElementById("board");
  var table = tableView;
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

  var page = 0, rows = [], stage = null;
  function fill(template, values) {
    return String(template || "").replace(/%\((\w+)\)s/g, function (m, k) { return values[k] === undefined ? m : values[k]; });
  }
  // a round named by its stage, as the pages name it: "Round 3", "Semi-final, round 1", "Final"
  function roundTitle(number, stageName) {
    var qualifying = parseInt(words.rounds || "0", 10), semis = parseInt(words.semi_rounds || "1", 10);
    if (stageName === "final") return words.final || "";
    if (stageName === "semi_final") return semis > 1 ? fill(words.semi_round_n, {n: number - qualifying}) : (words.semi_final || "");
    return fill(words.round_n, {n: number});
  }
  function roundTitleOf(number) {  // from the number alone: qualifying rounds, then the semi-final's, then the final
    var qualifying = parseInt(words.rounds || "0", 10), semis = parseInt(words.semi_rounds || "1", 10);
    if (number <= qualifying) return roundTitle(number, "qualifying");
    if (words.has_semi === "1" && number <= qualifying + semis) return roundTitle(number, "semi_final");
    return roundTitle(number, "final");
  }
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
    // after a cut: the stage is named and its players' points split into carried + stage
    document.querySelectorAll("#board-standings .board-split").forEach(function (th) { th.hidden = !stage; });
    rows.slice(page * n, page * n + n).forEach(function (r) {
      var tr = document.createElement("tr");
      if (r.stage) tr.className = "finalist";
      tr.appendChild(text("td", (r.shared ? "=" : "") + r.rank, "num"));
      var name = text("td", r.name);
      if (stage && r.stage) name.appendChild(text("span", " \u00b7 " + (words["stage_" + r.stage] || r.stage), "ev-stage"));
      if (r.withdrawn) name.appendChild(text("span", " (" + (words.withdrawn || "") + ")", "ev-withdrawn"));
      tr.appendChild(name);
      tr.appendChild(text("td", r.games, "num"));
      if (stage) {
        tr.appendChild(text("td", r.carried === null || r.carried === undefined ? "" : pts(r.carried), "num"));
        tr.appendChild(text("td", r.final_points === null || r.final_points === undefined ? "" : pts(r.final_points), "num"));
      }
      tr.appendChild(text("td", pts(r.points), "num"));
      body.appendChild(tr);
    });
    var label = document.getElementById("board-page");
    if (label) label.textContent = pages > 1 ? (words.page || "") + " " + (page + 1) + "/" + pages : "";
  }

  // What is new since the board last changed, said once in the polite live region: a new result
  // (by round and table), a round started, the event over. Only when the board's version changes,
  // never on a poll that brings nothing new.
  var seen = null;
  function newsOf(before, data) {
    var said = [];
    if (data.event && data.event.status === "finished") {
      if (before.status !== "finished") said.push(words.news_over);
      return said;
    }
    (data.latest || []).forEach(function (r) {
      if (before.results.indexOf(r.round + ":" + r.table) < 0) {
        said.push(fill(words.news_result, {round: roundTitleOf(r.round), table: r.table}));
      }
    });
    var c = data.clock;
    if (c && c.state !== "waiting" && c.state !== "ended" && (c.round !== before.round || before.clock === "waiting")) {
      said.push(fill(words.news_round, {round: roundTitle(c.round, c.stage)}));
    }
    return said;
  }
  function summary(data) {
    return {
      version: String(data.version),
      status: data.event ? data.event.status : "",
      results: (data.latest || []).map(function (r) { return r.round + ":" + r.table; }),
      round: data.clock ? data.clock.round : null,
      clock: data.clock ? data.clock.state : null,
    };
  }
  function announce(data) {
    var news = document.getElementById("board-news");
    var now = summary(data);
    if (seen && news && now.version !== seen.version) {
      var said = newsOf(seen, data);
      if (said.length) news.textContent = said.join(" ");
    }
    seen = now;
  }

  function drawOver(data) {
    var over = data.event && data.event.status === "finished";
    var el = document.getElementById("board-over");
    if (el) el.hidden = !over;
    var clockBox = document.getElementById("board-clock");
    if (clockBox) clockBox.hidden = over;
    var title = document.getElementById("board-title");
    if (title) title.textContent = over ? (words.final_ranking || "") : (words.standings || "");
  }

  function drawStage(data) {
    stage = data.stage || null;
    var line = document.getElementById("board-stage");
    if (!line) return;
    line.hidden = !stage;
    line.textContent = stage ? fill(words.stage_line, {stage: stage.name === "final" ? words.stage_final : words.stage_semi_final, cut: stage.cut}) : "";
  }

  function drawBoard(data) {
    rows = data.standings || [];
    var stale = document.getElementById("board-cut-stale");
    if (stale) { stale.hidden = !(data.cuts || []).some(function (c) { return c.stale; }); }
    drawStage(data);
    drawOver(data);
    drawStandings();
    var tables = document.getElementById("board-tables");
    if (tables) {
      tables.textContent = "";
      (data.tables || []).forEach(function (t) {
        var li = text("li", (words.table || "") + " " + t.table + ": " + (words[t.status] || t.status), "ev-" + t.status);
        if (t.last_hand) { li.appendChild(document.createTextNode(" \u00b7 ")); li.appendChild(text("span", t.last_hand, "ev-last")); }
        tables.appendChild(li);
      });
    }
    var latest = document.getElementById("board-latest");
    if (latest) {
      latest.textContent = "";
      (data.latest || []).forEach(function (r) {
        latest.appendChild(text("li", roundTitleOf(r.round) + " \u00b7 " + (words.table || "") + " " + r.table + ": " +
          r.seats.map(function (s) { return s.name + " " + (s.score === null ? "" : Number(s.score).toLocaleString()); }).join(", ")));
      });
    }
    announce(data);
    board.dataset.version = data.version;
  }

  // the board a stream's message carried (the same JSON the fetch answers): shown unless the
  // screen already shows a later version; the next poll, if any, then asks without an ETag
  function pushed(data) {
    if (Number(data.version) < Number(board.dataset.version || 0)) return;
    etag = null;
    syncClock(data.clock);
    drawBoard(data);
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
  // Transport: the page's live stream (static/live.js) says when to fetch; polling only while the
  // stream is unavailable (refused, buffered by a proxy, asleep), as before the stream existed.
  var timer = null;
  function polling(on) {
    if (on && !timer) timer = setInterval(poll, board ? 1000 : 3000);
    if (!on && timer) { clearInterval(timer); timer = null; }
  }
  var stream = board ? board.dataset.stream : table.dataset.stream;
  if (stream && window.KyokuLive) {
    window.KyokuLive.follow(stream, {polling: polling, refresh: function (m) {
      // a table's own change (a seat's confirmation, a hand) shows on its page, not on the board
      if (!board && m.topic && m.topic.indexOf("table:") === 0) { window.KyokuLive.reloadWhenIdle(1500); return; }
      if (board && m.data && m.data.version !== undefined) { pushed(m.data); return; }
      // a table's phone on its own stream: the board's message carries the round's clock and the
      // table's own changes come on its topic (above), so another table's result reloads nothing
      // here (a visitor on the board's stream, or a clock of another round, reloads as before)
      var c = m.data && m.data.clock;
      if (!board && table.dataset.ownStream && c !== undefined && (c === null || String(c.round) === table.dataset.round)) {
        syncClock(c); version = m.data.version; return;
      }
      poll();
    }});
  } else {
    polling(true);
  }
  if (board) setInterval(function () { page += 1; drawStandings(); }, 10000);
  // The clock ran out here. While the stream is up no screen fetches, and the server stores each
  // table's hand in play when the first screen asks after the time: ask once, at a random moment
  // within 5 s (not a thousand screens at once), unless a newer board has come meanwhile.
  if (board) {
    var askedAt = null;
    boardTimeUp = function () {
      if (timer || askedAt === board.dataset.version) return;  // polling anyway, or asked already
      var at = askedAt = board.dataset.version;
      setTimeout(function () { if (board.dataset.version === at) poll(); }, Math.random() * 5000);
    };
  }
})();
