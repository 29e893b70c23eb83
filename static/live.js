/* Live updates (live/): an EventSource on the page's stream. A message says what changed and its
   version: the page refreshes what it shows from what it already reads (the board's JSON, the
   table's page), so a missed message is never a wrong screen. The board's messages carry the
   board's JSON as "data" (static/events.js shows it without fetching).
   When the stream is unavailable (refused, a proxy that buffers, a phone that slept: no sign of
   life for two heartbeats) the page polls as it always did, and the stream is tried again later.

   KyokuLive.follow(url, {refresh: function (message) {…}, polling: function (on) {…}})
   An element with data-live-reload="<stream url>" (the desk, the inbox) reloads its page on a
   change, once nobody is typing in it. */
(function () {
  "use strict";

  function typing() {
    var el = document.activeElement;
    return !!el && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
  }

  function follow(url, opts) {
    var source = null, last = "", heartbeat = 15, alive = false, watchdog = null, later = null;
    function polling(on) {
      document.documentElement.dataset.live = on ? "polling" : "stream";  // what the page follows now
      if (opts.polling) opts.polling(on);
    }
    function dead() {
      alive = false;
      polling(true);
      if (source) { source.close(); source = null; }
      clearTimeout(later);
      later = setTimeout(open, 20000 + Math.random() * 20000);  // try the stream again later
    }
    function arm() {
      clearTimeout(watchdog);
      watchdog = setTimeout(dead, (2 * heartbeat + 5) * 1000);
    }
    function lively(e) {
      if (e && e.lastEventId) last = e.lastEventId;
      if (!alive) { alive = true; polling(false); }
      arm();
    }
    function open() {
      if (!window.EventSource) { polling(true); return; }
      var u = url + (last ? (url.indexOf("?") < 0 ? "?" : "&") + "last=" + encodeURIComponent(last) : "");
      source = new EventSource(u);
      source.addEventListener("hello", function (e) {
        var said = {};
        try { said = JSON.parse(e.data); } catch (x) { /* keep 15 s */ }
        if (said.once) { dead(); return; }  // a server that does not stream (WSGI): poll
        heartbeat = said.heartbeat || heartbeat;
        lively(e);
        opts.refresh({kind: "hello"});  // whatever changed between the page's load and now
      });
      source.addEventListener("ping", lively);
      source.onmessage = function (e) {
        lively(e);
        var message = null;
        try { message = JSON.parse(e.data); } catch (x) { return; }
        opts.refresh(message);
      };
      source.onerror = function () {
        // refused (403, 429) or not a stream: closed for good; else the browser reconnects by
        // itself with Last-Event-ID and the watchdog decides whether to poll meanwhile
        if (source && source.readyState === 2) dead();
      };
      arm();
    }
    polling(true);  // until the stream says hello
    open();
  }

  // reload once nobody types; on a busy floor at most every ``gap`` ms (the desk: 10 s)
  var loadedAt = Date.now();
  function reloadWhenIdle(gap) {
    gap = gap === undefined ? 10000 : gap;
    var wait = loadedAt + gap - Date.now();
    if (wait > 0 || typing() || document.querySelector("dialog[open]")) {
      setTimeout(function () { reloadWhenIdle(gap); }, Math.max(wait, 1000));
      return;
    }
    window.location.reload();
  }

  window.KyokuLive = {follow: follow, reloadWhenIdle: reloadWhenIdle};

  document.querySelectorAll("[data-live-reload]").forEach(function (el) {
    if (!el.dataset.liveReload) return;  // this server does not stream
    var pending = false;
    follow(el.dataset.liveReload, {refresh: function (m) {
      if (m.kind === "hello" || pending) return;
      pending = true;
      reloadWhenIdle();
    }});
  });
})();
