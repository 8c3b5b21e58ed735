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
    const d = page.docked();
    if (d && !d.dataset.pendingPhase) {
      items.push({ id: "surface:" + d.dataset.surfaceId, title: ($("#dock-title", d) || {}).textContent || "" });
    }
    const q = $("#question-takeover");
    if (q) items.push({ id: "question:" + q.dataset.callId, title: ($("#question-text", q) || {}).textContent || "" });
    return items;
  }

  function announce(item) {
    const notice = new Notification(t("%(name)s is waiting for you", { name: page.body.dataset.agentName }), {
      body: item.title.trim().slice(0, 140),
      tag: item.id,
    });
    notice.onclick = () => window.focus();
  }

  // Runs on every change to the dock, a submission's click included, so it reads only the page:
  // the stored choice and the permission (synchronous calls to the browser) are asked only when
  // a panel or question is news.
  function update() {
    const items = waiting();
    const title = items.length ? "(" + items.length + ") " + baseTitle : baseTitle;
    if (document.title !== title) document.title = title;
    const news = items.filter((item) => !announced.has(item.id));
    news.forEach((item) => announced.add(item.id));
    if (news.length && document.hidden && wanted()) news.forEach(announce);
  }

  function showChoice() {
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
      showChoice();
    });
    // The choice may have changed in another tab, or the permission in the browser's settings.
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) showChoice();
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
  showChoice();
})();
