// While the agent waits for the person (an open panel without a pending answer, or a question), the
// tab's title carries the count, and, if they asked for it, a browser notification says so once
// per panel or question while the tab is in the background.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, t } = page;
  const baseTitle = document.title;
  const KEY = "ts-notify";
  const announced = new Set();
  const toggle = $("#notify-toggle");

  const wanted = () => {
    try {
      return localStorage.getItem(KEY) === "on" && "Notification" in window && Notification.permission === "granted";
    } catch (_) {
      return false;
    }
  };

  function waiting() {
    const items = [];
    const d = $("#task-surface-dock");
    if (d && !d.dataset.pendingPhase) {
      items.push({ id: "surface:" + d.dataset.surfaceId, title: ($("#dock-title", d) || {}).textContent || "" });
    }
    const q = $("#question-takeover");
    if (q) items.push({ id: "question:" + q.dataset.callId, title: ($("#question-text", q) || {}).textContent || "" });
    return items;
  }

  function update() {
    const items = waiting();
    document.title = items.length ? "(" + items.length + ") " + baseTitle : baseTitle;
    items.forEach((item) => {
      if (announced.has(item.id)) return;
      announced.add(item.id);
      if (document.hidden && wanted()) {
        const notice = new Notification(t("%(name)s is waiting for you", { name: page.body.dataset.agentName }), {
          body: item.title.trim().slice(0, 140),
          tag: item.id,
        });
        notice.onclick = () => window.focus();
      }
    });
    if (toggle) toggle.setAttribute("aria-pressed", String(wanted()));
  }

  if (toggle && "Notification" in window) {
    toggle.hidden = false;
    toggle.addEventListener("click", async () => {
      try {
        if (wanted()) localStorage.setItem(KEY, "off");
        else if ((await Notification.requestPermission()) === "granted") localStorage.setItem(KEY, "on");
      } catch (_) {
        /* storage or notifications unavailable: the title count still works */
      }
      update();
    });
  }

  waiting().forEach((item) => announced.add(item.id)); // what was there at load is not news
  new MutationObserver(update).observe($("#input-dock"), {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["data-pending-phase"],
  });
  update();
})();
