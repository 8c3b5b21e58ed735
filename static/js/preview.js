// A panel the model is still writing shows read-only where the dock goes, growing as it arrives.
// It goes when the real dock is drawn, when its call's result refuses it, or on a reconnect.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  const slot = page && page.$("#preview-slot");
  if (!slot) return;
  const clear = () => (slot.innerHTML = "");
  const { docked } = page;

  // The dock is drawn once its fetch is in: only then does the preview give way to it.
  new MutationObserver(() => docked() && clear()).observe(page.dockSlot, { childList: true });

  page.onMessage((message) => {
    if (message.type === "preview") {
      // With a panel open, the call is refused: nothing to prepare.
      if (!docked() && !page.paging) slot.innerHTML = message.html;
    } else if (message.type === "hello") {
      clear();
    } else if (message.type === "change") {
      const active = message.taskSurface && message.taskSurface.active;
      (message.events || []).forEach((event) => {
        const p = event.payload || {};
        const opened = event.kind === "tool/result" && active && active.callId === p.callId;
        if (event.kind === "agent/error" || (event.kind === "tool/result" && p.name === "show_task_surface" && !opened)) clear();
      });
    }
  });
})();
