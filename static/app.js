// The installable app: registers the service worker (/sw.js) on every page, and on my
// notifications page offers to notify this phone (Web Push: the Push API with the server's VAPID
// key; the subscription is sent to /api/me/push-subscriptions/).
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
  button.addEventListener("click", () => {
    Notification.requestPermission().then((permission) => {
      if (permission !== "granted") return Promise.reject(new Error(permission));
      return ready.then((registration) => registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: key(button.dataset.key),
      }));
    }).then((subscription) => fetch(button.dataset.endpoint, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": decodeURIComponent(csrf)},
      body: JSON.stringify(subscription.toJSON()),
    })).then((response) => {
      state.textContent = response.ok ? (button.dataset.on || "") : (button.dataset.off || "");
    }).catch(() => { state.textContent = button.dataset.off || ""; });
  });
})();
