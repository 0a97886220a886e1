// "Notify me by push" on the account page (templates/account.html): this
// browser subscribes to web push with the server's VAPID public key
// (GET /api/v1/push/key) and hands its subscription to the server
// (POST /api/v1/account/push), which then pushes when the player is away from
// a match (docs/web.md). The browser's permission is asked only when the
// button is pressed, never on opening the page. "Stop" drops the
// subscription, here and on the server.

import { call } from "./api.js";

const on = document.getElementById("push-on");
const off = document.getElementById("push-off");
const said = document.getElementById("push-said");

function say(words) {
  said.textContent = words;
}

// The key as PushManager.subscribe takes it: the bytes of its URL-safe base64.
function bytesOf(base64url) {
  const plain = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const text = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

function showing(subscribed) {
  on.hidden = subscribed;
  off.hidden = !subscribed;
}

async function turnOn() {
  on.disabled = true;
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      say("Notifications are blocked for this site: allow them in the browser's site settings, then press again.");
      return;
    }
    const worker = await registration();
    const { public_key: key } = await call("GET", "/push/key");
    let subscription = await worker.pushManager.getSubscription();
    if (subscription === null) {
      subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(key) });
    }
    await call("POST", "/account/push", { body: subscription.toJSON() });
    showing(true);
    say("Push notifications are on for this browser: you are told when it is your turn and you are away.");
  } catch (error) {
    say(`Push notifications could not be turned on: ${error.message || error}`);
  } finally {
    on.disabled = false;
  }
}

async function turnOff() {
  off.disabled = true;
  try {
    const worker = await registration();
    const subscription = await worker.pushManager.getSubscription();
    if (subscription !== null) {
      try {
        await call("DELETE", "/account/push", { body: { endpoint: subscription.endpoint } });
      } catch (error) {
        if (error.status !== 404) throw error; // 404: the server had dropped it already
      }
      await subscription.unsubscribe();
    }
    showing(false);
    say("Push notifications are off for this browser.");
  } catch (error) {
    say(`Push notifications could not be turned off: ${error.message || error}`);
  } finally {
    off.disabled = false;
  }
}

async function start() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot receive push notifications.");
    return;
  }
  // Already subscribed here (and allowed): offer to stop. Nothing is asked of the browser yet.
  const worker = await navigator.serviceWorker.getRegistration("/");
  const subscription = worker ? await worker.pushManager.getSubscription() : null;
  showing(subscription !== null && Notification.permission === "granted");
  on.addEventListener("click", turnOn);
  off.addEventListener("click", turnOff);
}

if (on && off && said) start();
