// Non-blocking panel actions: a button sends one correlated message with the values as they stand,
// queued or (when asked) before other waiting messages; the panel stays open. A waiting action can
// be withdrawn from its own row. Request ids are kept across retries of the same click.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, t } = page;
  const dock = page.docked;
  const actionsUrl = (surfaceId, actionId) =>
    page.sessionUrl(
      "/task-surfaces/" + encodeURIComponent(surfaceId) + "/actions/" + encodeURIComponent(actionId),
    );

  async function refreshReceipts() {
    const d = dock();
    const list = d && $(".action-receipts", d);
    if (!list) return;
    try {
      const response = await fetch("/sessions/" + encodeURIComponent(page.sessionId) + "/dock/receipts", {
        credentials: "same-origin",
      });
      const current = dock();
      if (!response.ok || !current || current.dataset.surfaceId !== d.dataset.surfaceId) return;
      const holder = document.createElement("template");
      holder.innerHTML = (await response.text()).trim();
      const fresh = holder.content.firstElementChild;
      const target = $(".action-receipts", current);
      if (fresh && target) target.replaceWith(fresh);
    } catch (_) {
      /* the next push asks again */
    }
  }

  async function send(button) {
    const d = dock();
    if (!d || d.dataset.pendingPhase || button.disabled) return;
    const steer = $("input[name=_steer]", d);
    const payload = {
      requestId: button.dataset.requestId,
      values: page.dock.readValues(),
      placement: steer && steer.checked ? "steering" : "queued",
    };
    button.disabled = true;
    try {
      const result = await page.postJson(actionsUrl(d.dataset.surfaceId, button.dataset.panelAction), payload);
      if (result.accepted) {
        button.dataset.requestId = page.newId(); // the next click is a new request
        page.announce(t("Sent to the agent: %(label)s", { label: button.textContent.trim() }));
        refreshReceipts();
      } else {
        page.dock.showRejection(result);
      }
    } catch (error) {
      // Transport trouble: the same requestId on the next click, so a retry is never a second message.
      page.dock.showRejection({ reason: t("connection problem") });
    } finally {
      button.disabled = false;
    }
  }

  async function withdraw(button) {
    const d = dock();
    if (!d) return;
    button.disabled = true;
    try {
      const result = await page.postJson(
        actionsUrl(d.dataset.surfaceId, button.dataset.actionId) + "/withdraw",
        { requestId: button.dataset.withdraw },
      );
      page.announce(result.withdrawn ? t("Withdrawn.") : t("Too late: the agent has it already."));
    } catch (_) {
      /* the receipts below show what is true */
    }
    refreshReceipts();
  }

  page.panelActions = { send, withdraw, refresh: refreshReceipts };

  page.onMessage((message) => {
    if (message.type === "change" && (message.queue || (message.events || []).length)) refreshReceipts();
  });
})();
