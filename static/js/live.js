// Live updates: one websocket per tab, reconnecting with backoff from the last seq it has seen.
// Every pushed message goes to the page's bus; a reset reloads the page from the log. A server
// process that stops closes with 1012 and the page comes back at once, to whichever process answers.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const connection = page.$("#connection");
  let retry = 0;
  const RESTART = 1012;

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
      delete page.body.dataset.connection;
    });
    socket.addEventListener("message", (event) => {
      try {
        page.dispatch(JSON.parse(event.data));
      } catch (error) {
        console.error(error);
      }
    });
    socket.addEventListener("close", (event) => {
      page.body.dataset.live = "false";
      // 1012: this server process is being replaced; another one (or its successor) answers at once,
      // so come back soon (with jitter, so a whole server's pages do not return in one burst).
      const restarting = event.code === RESTART;
      page.body.dataset.connection = restarting ? "restarting" : "lost";
      if (connection) {
        connection.textContent = restarting ? page.t("The server is restarting. Reconnecting…") : page.t("Reconnecting…");
      }
      retry = restarting ? 0 : Math.min(retry + 1, 6);
      const delay = restarting ? 200 + Math.random() * 800 : 250 * 2 ** retry;
      window.setTimeout(connect, delay);
    });
  }

  connect();
  // After the rest of the bundle has drawn what it draws (a microtask runs once this script ends):
  // the transcript starts at its newest message.
  queueMicrotask(() => window.scrollTo({ top: document.body.scrollHeight }));
})();
