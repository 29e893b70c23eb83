{% load static %}// Kyoku's service worker (served from /sw.js so that its scope is the whole site).
// - The pages a phone needs at a table (a table's view and its scorekeeper, the big screen) are
//   fetched from the network first and kept, so a phone that lost the network, or an app closed
//   and reopened offline, still opens them; the outboxes (localStorage) send when back online.
// - A page that depends on who is signed in is never kept: the server answers every signed-in
//   request "Cache-Control: private, no-store" (notifications.shared_phone), and only an answer
//   without no-store or private is cached. My pages (/me/) and an admin's scorekeeper are never
//   kept at all. A logout empties these caches (static/app.js).
// - Static files are served from the cache once fetched.
// - Writes (POST, PUT, DELETE) are never touched: the outboxes own their retries.
// - A push shows a notification (its tag collapses a repeat of the same one) and a click opens
//   its page.
const VERSION = "kyoku-v2";  // a new version deletes the older caches (v1 kept private pages)
const PAGES = /^\/(events\/\d+\/board\/|events\/tables\/\d+\/(scorekeeper\/)?$)/;
const PRECACHE = ["{% static 'kyoku.css' %}", "{% static 'kyoku.js' %}", "{% static 'app.js' %}", "{% static 'scorekeeper.js' %}", "{% static 'icons/kyoku-192.png' %}"];

function keepable(response) {
  const control = (response.headers.get("Cache-Control") || "").toLowerCase();
  return response.ok && !response.redirected && response.type === "basic" && !/no-store|private/.test(control);
}

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
      const key = url.origin + url.pathname;  // the page, whatever its query
      if (keepable(response)) { const copy = response.clone(); caches.open(VERSION).then((c) => c.put(key, copy)); }
      else if (/no-store|private/.test((response.headers.get("Cache-Control") || "").toLowerCase())) {
        caches.open(VERSION).then((c) => c.delete(key));  // a signed-in answer: no older copy is served either
      }
      return response;
    }).catch(() => caches.match(url.origin + url.pathname).then((hit) => hit || Response.error())));
  }
});

// The page asks for every cache to go (after a logout, static/app.js).
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "kyoku-clear") return;
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.map((k) => caches.delete(k)))));
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
