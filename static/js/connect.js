// The chat page's socket, opened from the page's head while the rest is still parsed: the handshake
// (which needs the page's main thread) overlaps parsing and the first layout instead of waiting for
// the page script. The server puts this file in the page itself, allowed by its hash. Nothing is
// read from the socket here; messages that come before live.js takes it over are kept, in order,
// and handed over with it.
(function () {
  "use strict";

  const script = document.currentScript;
  const path = script && script.dataset.socket;
  if (!path || typeof WebSocket !== "function") return;
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
