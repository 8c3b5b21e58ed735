// The composer sends without reloading (Enter sends, Shift+Enter breaks the line), and the
// queue below the dock follows the pushes: remove an item, pause or resume the agent.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, t } = page;
  const composer = $("#composer");
  const composerText = page.composerText;
  const connection = $("#connection");

  composer.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = composerText.value;
    if (!text.trim()) return;
    try {
      await page.postJson(page.sessionUrl("/messages"), { text });
      composerText.value = "";
    } catch (error) {
      if (connection) {
        connection.textContent = page.refusal(error, t("Not sent."));
      }
    }
  });
  composerText.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      composer.requestSubmit();
    }
  });

  $("#queue-slot").addEventListener("submit", async (event) => {
    const target = event.target;
    const item = target.closest(".queue-item");
    event.preventDefault();
    try {
      if (item) {
        await page.postJson(page.sessionUrl("/queue/" + encodeURIComponent(item.dataset.itemId)), {
          action: "remove",
        });
      } else {
        const paused = $("input[name=paused]", target).value === "true";
        await page.postJson(page.sessionUrl("/agent"), { paused });
      }
    } catch (_) {
      /* the push shows the queue as it really is */
    }
  });

  page.onMessage((message) => {
    if ((message.type === "hello" || message.type === "change") && message.queue) {
      $("#queue-slot").innerHTML = message.queue.html;
    }
  });
})();
