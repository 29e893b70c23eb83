// The installable app: registers the service worker (/sw.js) on every page, and on my
// notifications page offers to notify this phone (Web Push: the Push API with the server's VAPID
// key; the subscription is sent to /api/me/push-subscriptions/).
//
// After a logout (the server's one-shot cookie kyoku_signed_out, notifications.shared_phone) the
// page clears what the account left on this phone: the service worker's caches, this browser's
// push subscription and the account's own outbox (an admin's scorekeeper hands). A table's
// unsent reports and hands (kyoku-event-outbox, the hands of a table's scorekeeper) belong to
// the table and stay, to be sent when the phone is back online.
(function () {
  const SIGNED_OUT = "kyoku_signed_out";
  if (!document.cookie.split(/;\s*/).some((c) => c === SIGNED_OUT + "=1")) return;
  document.cookie = SIGNED_OUT + "=; Max-Age=0; Path=/; SameSite=Lax";
  const work = [];
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const name = localStorage.key(i);
      if (!/^kyoku\.scorekeeper\..+\.outbox$/.test(name || "")) continue;
      let hands = [];
      try { hands = JSON.parse(localStorage.getItem(name) || "[]"); } catch (e) { hands = []; }
      const kept = hands.filter((h) => h && h.owner !== "account");
      if (kept.length) localStorage.setItem(name, JSON.stringify(kept)); else localStorage.removeItem(name);
    }
    sessionStorage.clear();
  } catch (e) { /* storage unavailable: nothing kept there */ }
  if ("caches" in window) {
    work.push(caches.keys().then((keys) => Promise.all(keys.map((k) => caches.delete(k)))));
  }
  if ("serviceWorker" in navigator) {
    work.push(navigator.serviceWorker.getRegistration("/").then((r) => {
      if (!r) return null;
      if (r.active) r.active.postMessage({type: "kyoku-clear"});
      return r.pushManager ? r.pushManager.getSubscription().then((s) => s && s.unsubscribe()) : null;
    }));
  }
  window.kyokuSignedOut = Promise.all(work).catch(() => null).then(() => { window.kyokuSignedOutDone = true; return true; });
})();

(function () {
  if (!("serviceWorker" in navigator)) return;
  const ready = navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(() => navigator.serviceWorker.ready);
  const button = document.getElementById("push-enable");
  if (!button || !("PushManager" in window) || !button.dataset.key) return;
  const state = document.getElementById("push-state");
  const csrf = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  function key(base64) {
    const padded = (base64 + "=".repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }
  ready.then((registration) => registration.pushManager.getSubscription()).then((existing) => {
    button.hidden = false;
    if (existing) state.textContent = button.dataset.on || "";
  });
  function subscribe() {
    return ready.then((registration) => registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: key(button.dataset.key),
    }));
  }
  function register(subscription) {
    return fetch(button.dataset.endpoint, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": decodeURIComponent(csrf)},
      body: JSON.stringify(subscription.toJSON()),
    });
  }
  button.addEventListener("click", () => {
    Notification.requestPermission().then((permission) => {
      if (permission !== "granted") return Promise.reject(new Error(permission));
      return subscribe();
    }).then((subscription) => register(subscription).then((response) => {
      // 409: this browser's endpoint is another account's (someone used this phone before): a
      // fresh subscription is a new endpoint, and the old one stops reaching this phone
      if (response.status !== 409) return response;
      return subscription.unsubscribe().then(subscribe).then(register);
    })).then((response) => {
      state.textContent = response.ok ? (button.dataset.on || "") : (button.dataset.off || "");
    }).catch(() => { state.textContent = button.dataset.off || ""; });
  });
})();
