// What every behaviour of the chat page shares: the session, the chrome strings, small DOM and
// fetch helpers, a polite announcer and the bus on which pushed messages are handed round.
// The page works without any of these files; every control is a plain form underneath.
(function () {
  "use strict";

  const body = document.body;
  const sessionId = body.dataset.sessionId;
  if (!sessionId) return;

  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));
  // Product chrome in the page's language, rendered by the server as a JSON data block.
  const strings = JSON.parse((document.getElementById("chrome-strings") || {}).textContent || "{}");
  const t = (key, values) =>
    (strings[key] || key).replace(/%\((\w+)\)s/g, (_, name) => String((values || {})[name] ?? ""));

  const announcer = document.createElement("p");
  announcer.className = "visually-hidden";
  announcer.setAttribute("aria-live", "polite");
  body.appendChild(announcer);
  const announce = (text) => {
    announcer.textContent = "";
    window.setTimeout(() => (announcer.textContent = text), 30);
  };

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "id-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }

  async function postJson(url, payload) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(payload),
      credentials: "same-origin",
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw Object.assign(new Error("request failed"), { data, status: response.status });
    return data;
  }

  // What a refused request says to the person: the page's own words for the refusals its controls
  // can meet (`refusal:<code>`), else the server's message, else `fallback`.
  function refusal(error, fallback) {
    const refused = error && error.data && error.data.error;
    if (!refused) return fallback;
    return strings["refusal:" + refused.code] || refused.message || fallback;
  }

  const listeners = [];
  // Until every deferred script of the page has run, what was dispatched is kept: a behaviour in
  // a later script (the embedded page's) still hears every message from the first, in order.
  const navigation = performance.getEntriesByType("navigation")[0];
  let dispatched = navigation && navigation.domContentLoadedEventStart === 0 ? [] : null;
  if (dispatched) document.addEventListener("DOMContentLoaded", () => (dispatched = null), { once: true });

  function deliver(listener, message) {
    try {
      listener(message);
    } catch (error) {
      console.error(error);
    }
  }

  window.TaskSurfacePage = {
    body,
    sessionId,
    paging: body.dataset.paging === "true",
    surfacesOn: body.dataset.taskSurface !== "off", // off: no dock, so no draft store either
    lastSeq: Number(body.dataset.lastSeq || "0"),
    composerText: $("#composer-text"),
    // The dock's slot is always in the page; the dock is in it while a panel is open.
    dockSlot: $("#dock-slot"),
    docked: () => $("#task-surface-dock"),
    $,
    $$,
    t,
    strings,
    announce,
    newId,
    postJson,
    refusal,
    sessionUrl: (path) => "/api/sessions/" + encodeURIComponent(sessionId) + path,
    // Each behaviour takes the pushed messages it cares about, in the order the files load.
    onMessage(listener) {
      listeners.push(listener);
      if (dispatched) dispatched.forEach((message) => deliver(listener, message));
    },
    // One behaviour's failure stays its own: the others still see the message.
    dispatch(message) {
      if (dispatched) dispatched.push(message);
      listeners.forEach((listener) => deliver(listener, message));
    },
  };
})();
