// The service worker, served at /sw.js so its scope is the whole site
// (app/web/service_worker.py). It does one thing: a push from the server
// (app/push) becomes a notification, and a click on it opens the page the
// push named, focusing a tab already on it. It caches nothing and handles
// no fetch: the pages work as they did without it.

const SITE = "Magery Online";

// Only a path on this site: a push never opens another origin.
function pageOf(url) {
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/";
}

function notice(data) {
  let said;
  try {
    said = data ? data.json() : {};
  } catch {
    said = { body: data ? data.text() : "" }; // not JSON: shown as plain words
  }
  return {
    title: typeof said.title === "string" && said.title ? said.title : SITE,
    options: {
      body: typeof said.body === "string" ? said.body : "",
      tag: typeof said.tag === "string" ? said.tag : undefined, // a newer one on the same match replaces it
      icon: "/static/favicon.svg",
      data: { url: pageOf(said.url) },
    },
  };
}

self.addEventListener("push", (event) => {
  const { title, options } = notice(event.data);
  event.waitUntil(self.registration.showNotification(title, options));
});

async function open(url) {
  const wanted = new URL(url, self.location.origin);
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) {
    if (new URL(client.url).pathname === wanted.pathname && "focus" in client) return client.focus();
  }
  return self.clients.openWindow(wanted.href);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(open(pageOf(event.notification.data && event.notification.data.url)));
});

// A new version takes over at once: it holds no state an old page relies on.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
