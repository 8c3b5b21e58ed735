// Live updates: one websocket per tab, reconnecting with backoff from the last seq it has seen.
// Every pushed message goes to the page's bus; a reset reloads the page from the log.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const connection = page.$("#connection");
  let retry = 0;

  page.onMessage((message) => {
    if (message.type === "reset" && !page.paging) window.location.reload();
  });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url =
      scheme + "//" + location.host + "/ws/sessions/" + encodeURIComponent(page.sessionId) + "?after=" + page.lastSeq;
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      retry = 0;
      if (connection) connection.textContent = "";
      page.body.dataset.live = "true";
    });
    socket.addEventListener("message", (event) => {
      try {
        page.dispatch(JSON.parse(event.data));
      } catch (error) {
        console.error(error);
      }
    });
    socket.addEventListener("close", () => {
      page.body.dataset.live = "false";
      if (connection) connection.textContent = page.t("Reconnecting…");
      retry = Math.min(retry + 1, 6);
      window.setTimeout(connect, 250 * 2 ** retry);
    });
  }

  window.scrollTo({ top: document.body.scrollHeight });
  connect();
})();
