{% load static %}// Kyoku's service worker (served from /sw.js so that its scope is the whole site).
// - The phone pages (a table's view, the scorekeeper, my page, my notifications, the big screen)
//   are fetched from the network first and kept, so a phone that lost the network, or an app
//   closed and reopened offline, still opens them; the scorekeeper's hands then wait in its
//   outbox (localStorage, static/scorekeeper.js) and are sent when the page is back online.
// - Static files are served from the cache once fetched.
// - Writes (POST, PUT, DELETE) are never touched: the outboxes own their retries.
// - A push shows a notification (its tag collapses a repeat of the same one) and a click opens
//   its page.
const VERSION = "kyoku-v1";
const PAGES = /^\/(events\/\d+\/board\/|events\/tables\/\d+\/|scoring\/games\/\d+\/scorekeeper\/|me\/)/;
const PRECACHE = ["{% static 'kyoku.css' %}", "{% static 'kyoku.js' %}", "{% static 'app.js' %}", "{% static 'scorekeeper.js' %}", "{% static 'icons/kyoku-192.png' %}"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok) { const copy = response.clone(); caches.open(VERSION).then((c) => c.put(request, copy)); }
      return response;
    })));
    return;
  }
  if (request.mode === "navigate" && PAGES.test(url.pathname)) {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) { const copy = response.clone(); caches.open(VERSION).then((c) => c.put(request, copy)); }
      return response;
    }).catch(() => caches.match(request).then((hit) => hit || Response.error())));
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data ? event.data.text() : ""}; }
  event.waitUntil(self.registration.showNotification(data.title || "Kyoku", {
    body: data.body || "",
    tag: data.tag || undefined,
    data: {url: data.url || "/me/notifications/"},
    icon: "{% static 'icons/kyoku-192.png' %}",
    badge: "{% static 'icons/kyoku-192.png' %}",
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then((windows) => {
    for (const w of windows) { if (w.url === target && "focus" in w) return w.focus(); }
    return self.clients.openWindow(target);
  }));
});
