// The chat page's socket, opened while the page is still arriving: the handshake overlaps parsing
// and the first layout instead of waiting for the page script. Nothing is read from it here;
// messages that come before live.js takes it over are kept, in order, and handed over with it.
(function () {
  "use strict";

  const script = document.currentScript;
  const path = script && script.dataset.socket;
  // Loaded without blocking the page, so the page script may have run first and connected itself.
  if (!path || typeof WebSocket !== "function" || window.TaskSurfaceSocket !== undefined) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(scheme + "//" + location.host + path);
  let kept = [];
  const keep = (event) => kept.push(event);
  socket.addEventListener("message", keep);
  window.TaskSurfaceSocket = {
    socket,
    // Hands the socket over once: the messages so far, and none kept after.
    adopt() {
      socket.removeEventListener("message", keep);
      const early = kept;
      kept = [];
      window.TaskSurfaceSocket = null;
      return early;
    },
  };
})();
