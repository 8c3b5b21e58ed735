// Live updates: one websocket per tab, reconnecting with backoff from the last seq it has seen. The
// first is the one connect.js opened while the page arrived.
// `body[data-live=true]` says the page's script has taken over its controls: from then on every
// request goes over the socket while it is open and over HTTP otherwise, so the controls take input
// before the socket opens and while it is down. `body[data-connection]` says how the socket is:
// `connecting` (the first), `open`, `lost` (reconnecting) or `restarting` (the server process is
// being replaced). A lost socket tries again at once when the browser is back online or the tab is
// shown again, instead of waiting out its backoff.
// Every pushed message goes to the page's bus; a reset reloads the page from the log. A server
// process that stops closes with 1012 and the page comes back at once, to whichever process answers.
// The open socket also carries the page's own requests (`page.request`): no HTTP request to make,
// so an answer comes sooner. A socket that is not open, or closes before the answer, hands the
// request to HTTP with the same body: every such request carries its own id, so a repeat is answered
// like the first and nothing is done twice.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const connection = page.$("#connection");
  let retry = 0;
  const RESTART = 1012;
  const SHOWN_OPEN_MOST = 8; // the server's limit on rows named open
  let open = null; // the socket while it is open
  let pending = null; // the timer of the next try while the socket is down
  let lastRpc = 0;
  const waiting = new Map(); // rpc id -> {resolve, reject}

  const refusedFrame = (error) => error.data && error.data.error && error.data.error.code === "frame-too-large";

  function request(method, params, url, payload) {
    if (!open) return page.postJson(url, payload);
    const id = "rpc-" + ++lastRpc;
    const answer = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    open.send(JSON.stringify({ id, method, params }));
    // A refusal over the socket is the same refusal over HTTP, so it is not asked again; a lost
    // socket, or a request too large for one frame, goes over HTTP (which names its own limits).
    const viaHttp = (error) => error.lost || refusedFrame(error);
    return answer.catch((error) => (viaHttp(error) ? page.postJson(url, payload) : Promise.reject(error)));
  }
  page.request = request;

  function answered(message) {
    const call = waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id);
    if (message.error) call.reject(Object.assign(new Error("request refused"), { data: { error: message.error } }));
    else call.resolve(message.result);
  }

  function lost() {
    open = null;
    waiting.forEach((call) => call.reject(Object.assign(new Error("socket closed"), { lost: true })));
    waiting.clear();
  }

  page.onMessage((message) => {
    if (message.type === "reset" && !page.paging) window.location.reload();
  });

  // The rows this page draws open are named, so a panel that closed while the socket was down has
  // its row drawn again in the first message (its close was pushed to nobody here).
  function url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const open = page
      .$$(".surface-row.state-open")
      .map((row) => row.closest("[data-seq]"))
      .filter(Boolean)
      .map((item) => Number(item.dataset.seq))
      .filter((seq) => seq > 0 && seq <= page.lastSeq)
      .slice(0, SHOWN_OPEN_MOST)
      .map((seq) => "&open=" + seq)
      .join("");
    return scheme + "//" + location.host + "/ws/sessions/" + encodeURIComponent(page.sessionId) + "?after=" + page.lastSeq + open;
  }

  function opened(socket) {
    open = socket;
    retry = 0;
    if (connection) connection.textContent = "";
    page.body.dataset.connection = "open";
  }

  function received(event) {
    try {
      const message = JSON.parse(event.data);
      if (message.type === "rpc") answered(message);
      else page.dispatch(message);
    } catch (error) {
      console.error(error);
    }
  }

  function closed(socket, event) {
    if (open === socket) lost();
    // 1012: this server process is being replaced; another one (or its successor) answers at once,
    // so come back soon (with jitter, so a whole server's pages do not return in one burst).
    const restarting = event.code === RESTART;
    page.body.dataset.connection = restarting ? "restarting" : "lost";
    if (connection) {
      connection.textContent = restarting ? page.t("The server is restarting. Reconnecting…") : page.t("Reconnecting…");
    }
    retry = restarting ? 0 : Math.min(retry + 1, 6);
    const delay = restarting ? 200 + Math.random() * 800 : 250 * 2 ** retry;
    pending = window.setTimeout(reconnect, delay);
  }

  function reconnect() {
    pending = null;
    connect();
  }

  // Only while a retry waits: a socket being opened is left to open.
  function now() {
    if (pending === null) return;
    window.clearTimeout(pending);
    reconnect();
  }
  window.addEventListener("online", now);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") now();
  });

  function follow(socket) {
    socket.addEventListener("open", () => opened(socket));
    socket.addEventListener("message", received);
    socket.addEventListener("close", (event) => closed(socket, event));
  }

  function connect() {
    follow(new WebSocket(url()));
  }

  // The socket connect.js opened while the page arrived, with what it has received so far; one
  // that already closed is left, and a new one is opened as on any reconnect.
  function adoptEarly() {
    const early = window.TaskSurfaceSocket;
    window.TaskSurfaceSocket = null; // handed over: nothing else takes it
    if (!early) return false;
    const kept = early.adopt();
    const socket = early.socket;
    if (socket.readyState !== WebSocket.CONNECTING && socket.readyState !== WebSocket.OPEN) return false;
    follow(socket);
    // Once the whole bundle has run (it is one script), so every behaviour hears what was kept.
    queueMicrotask(() => {
      if (socket.readyState === WebSocket.OPEN) opened(socket);
      kept.forEach(received);
    });
    return true;
  }

  page.body.dataset.connection = "connecting";
  if (!adoptEarly()) connect();
  // Once the whole bundle has run, every behaviour has its controls: input is taken from now on.
  queueMicrotask(() => (page.body.dataset.live = "true"));
  // After the rest of the bundle has drawn what it draws (a microtask runs once this script ends):
  // the transcript starts at its newest message.
  queueMicrotask(() => window.scrollTo({ top: document.body.scrollHeight }));
})();
