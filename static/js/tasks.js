// The task tray follows the pushes: each task's row is updated in place (status, detail,
// progress, the tail of its output), so a reason being typed is never lost; new tasks are
// inserted from their server-rendered row. Status changes are announced politely, elapsed
// time ticks every second, and Stop posts without reloading. Without this file the tray is the
// same server-rendered list, and Stop is a plain form.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, $$, t } = page;
  const slot = $("#task-slot");
  if (!slot) return;
  const TERMINAL = ["completed", "failed", "cancelled"];
  const TAIL_LINES = 8; // as the server renders it
  const clock = new Map(); // task id → [elapsed seconds when pushed, time of the push]

  const tray = () => $("#task-tray", slot);
  const fromHtml = (html) => {
    const holder = document.createElement("template");
    holder.innerHTML = html.trim();
    return holder.content.firstElementChild;
  };

  function elapsedText(seconds) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    if (h) return t("%(h)s h %(m)s min", { h, m });
    if (m) return t("%(m)s min %(s)s s", { m, s });
    return t("%(s)s s", { s });
  }

  function update(row, task) {
    const label = task.label;
    if (row.dataset.status !== task.status) {
      row.dataset.status = task.status;
      row.className = row.className.replace(/\bstatus-\S+/, "status-" + task.status);
      page.announce(t("Background task “%(label)s”: %(status)s", { label, status: task.statusText }));
    }
    $(".task-status", row).textContent = task.statusText;
    const detail = $(".task-detail", row);
    detail.textContent = task.detail || "";
    detail.hidden = !task.detail;
    const done = TERMINAL.includes(task.status);
    let progress = $(".task-progress", row);
    if (task.progress && !done) {
      if (!progress) {
        progress = fromHtml(task.html).querySelector(".task-progress");
        if (progress) detail.after(progress);
      }
      if (progress) {
        progress.value = task.progress.fraction;
        progress.textContent = Math.round(task.progress.fraction * 100) + "%";
      }
    } else if (progress) {
      progress.remove();
    }
    const lines = task.tail.trim() ? task.tail.replace(/\n$/, "").split("\n").slice(-TAIL_LINES) : [];
    $(".task-tail", row).textContent = lines.length ? lines.join("\n") : t("(no output yet)");
    $(".task-last-line", row).textContent = lines.length ? lines[lines.length - 1] : t("(no output yet)");
    const stop = $(".task-stop", row);
    if (done && stop) {
      const hadFocus = stop.contains(document.activeElement);
      stop.remove();
      if (hadFocus) $(".task-output > summary", row).focus();
    }
  }

  function apply(message) {
    const trayEl = tray();
    if (!message || !trayEl) return;
    const list = $(".task-list", trayEl);
    const firstShown = trayEl.hidden && message.tasks.length > 0;
    message.tasks.forEach((task, index) => {
      clock.set(task.id, [task.elapsed, Date.now()]);
      let row = document.getElementById("task-" + task.id);
      if (!row) {
        row = fromHtml(task.html);
        const before = list.children[index] || null;
        list.insertBefore(row, before);
        page.announce(t("Background task started: %(label)s", { label: task.label }));
      } else {
        update(row, task);
      }
    });
    trayEl.hidden = message.tasks.length === 0;
    if (firstShown) trayEl.open = true;
    $(".task-tray-count", trayEl).textContent = message.summary;
  }

  function tick() {
    $$(".task-item", slot).forEach((row) => {
      if (TERMINAL.includes(row.dataset.status)) return;
      const known = clock.get(row.dataset.taskId) || [Number(row.dataset.elapsed || "0"), loadedAt];
      const seconds = known[0] + Math.floor((Date.now() - known[1]) / 1000);
      $(".task-elapsed", row).textContent = elapsedText(seconds);
    });
  }
  const loadedAt = Date.now();
  window.setInterval(tick, 1000);

  slot.addEventListener("submit", async (event) => {
    const form = event.target.closest(".task-stop");
    if (!form) return;
    event.preventDefault();
    const row = form.closest(".task-item");
    const button = $("button", form);
    button.disabled = true;
    try {
      const reason = form.elements.reason.value.trim();
      await page.postJson(page.sessionUrl("/tasks/" + encodeURIComponent(row.dataset.taskId) + "/stop"), reason ? { reason } : {});
      // The push that follows shows the task stopping, then stopped.
    } catch (error) {
      button.disabled = false;
      const connection = $("#connection");
      if (connection) connection.textContent = page.refusal(error, t("Not sent."));
    }
  });

  page.onMessage((message) => {
    if (message.type === "tasks") apply(message);
    else if (message.type === "hello" && message.tasks) apply(message.tasks);
  });
})();
