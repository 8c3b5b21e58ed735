// The framed page's side of embedding: tells the embedding site what happens (ready,
// session-created, surface-opened, submitted, dismissed) and takes a few requests from it.
// It talks only to the origin the server vouched for (listed in frame-ancestors) and ignores
// every message from anyone else.
(function () {
  "use strict";

  const root = document.documentElement;
  const origin = root.dataset.embedOrigin;
  if (!origin || window.parent === window) return;
  const sessionId = document.body.dataset.sessionId || null;
  const page = window.TaskSurfacePage;

  function tell(type, detail) {
    window.parent.postMessage(Object.assign({ source: "tasksurface", type, sessionId }, detail || {}), origin);
    root.dataset.embedTold = type; // the last thing told, for whoever looks at the frame's page
  }

  tell("ready", { page: sessionId ? "session" : "index" });
  if (sessionId && root.dataset.embedCreated === sessionId) tell("session-created");

  if (page) {
    let known = null;
    let started = false;
    page.onMessage((message) => {
      if (message.type !== "hello" && message.type !== "change") return;
      const active = message.taskSurface && message.taskSurface.active;
      const surfaceId = active ? active.surfaceId : null;
      // The hello is what the page already shows; only what happens after it is news.
      if (started && surfaceId && surfaceId !== known) tell("surface-opened", { surfaceId, callId: active.callId });
      if (message.taskSurface) known = surfaceId;
      if (started) (message.events || []).forEach(report);
      started = true;
    });
  }

  function report(event) {
    const payload = event.payload || {};
    const answer = payload.source && payload.source.taskSurface;
    if (event.kind === "user/message" && answer) {
      const detail = { surfaceId: answer.surfaceId, messageId: payload.messageId, values: answer.values };
      if (answer.action) detail.action = answer.action;
      tell("submitted", detail);
    } else if (event.kind === "task-surface/dismissed") {
      tell("dismissed", { surfaceId: payload.surfaceId });
    }
  }

  function setTheme(theme) {
    if (!["auto", "light", "dark"].includes(theme)) return;
    root.dataset.embedTheme = theme;
    if (theme === "auto") delete root.dataset.theme;
    else root.dataset.theme = theme;
  }

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || event.origin !== origin) return;
    const data = event.data;
    if (!data || typeof data !== "object" || data.source !== "tasksurface-host") return;
    if (data.type === "theme") setTheme(data.theme);
    if (data.type === "sign-out") {
      // Same-origin, so the cross-site guard lets it through; then the chat starts afresh.
      fetch("/embed/sign-out", { method: "POST", credentials: "same-origin" }).then(() => location.assign("/"));
    }
    const composer = document.getElementById("composer-text");
    if (data.type === "prefill" && composer && typeof data.text === "string" && !composer.value) {
      composer.value = data.text.slice(0, 4000); // never sent by itself: the person sends it
      composer.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });
})();
