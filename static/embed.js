/*! Task Surface embed: one script tag draws the chat in your page (inline or as a launcher)
   and reports what happens as DOM events "tasksurface:<type>" and an optional callback. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script) return;
  var app = new URL(script.src).origin;
  var EVENTS = ["ready", "session-created", "surface-opened", "submitted", "dismissed"];

  function css(element, styles) {
    Object.keys(styles).forEach(function (key) { element.style[key] = styles[key]; });
    return element;
  }

  function mount(options) {
    options = options || {};
    var target = typeof options.target === "string" ? document.querySelector(options.target) : options.target;
    var frame = null;
    var events = target || document.body;

    function source() {
      var query = new URLSearchParams({ origin: location.origin });
      ["token", "theme", "lang", "session"].forEach(function (key) {
        if (options[key]) query.set(key, options[key]);
      });
      return app + "/embed?" + query.toString();
    }

    function makeFrame(height) {
      frame = document.createElement("iframe");
      frame.src = source();
      frame.title = options.title || "Chat";
      css(frame, { width: "100%", height: height, border: "0", display: "block", colorScheme: "normal" });
      return frame;
    }

    window.addEventListener("message", function (event) {
      var data = event.data;
      if (!frame || event.source !== frame.contentWindow || event.origin !== app) return;
      if (!data || data.source !== "tasksurface" || EVENTS.indexOf(data.type) < 0) return;
      var detail = JSON.parse(JSON.stringify(data));
      delete detail.source;
      if (typeof options.onEvent === "function") options.onEvent(data.type, detail);
      events.dispatchEvent(new CustomEvent("tasksurface:" + data.type, { bubbles: true, detail: detail }));
    });

    function send(message) {
      if (frame && frame.contentWindow) {
        message.source = "tasksurface-host";
        frame.contentWindow.postMessage(message, app);
      }
    }

    var controller = {
      setTheme: function (theme) { send({ type: "theme", theme: theme }); },
      prefill: function (text) { send({ type: "prefill", text: String(text) }); },
      signOut: function () { send({ type: "sign-out" }); },
      get frame() { return frame; }
    };

    if (target) {
      target.appendChild(makeFrame(options.height || "600px"));
      return controller;
    }

    var button = css(document.createElement("button"), {
      position: "fixed", right: "16px", bottom: "16px", zIndex: "2147483000", padding: "12px 18px",
      border: "0", borderRadius: "999px", background: options.color || "#1f5fbf", color: "#fff",
      font: "600 15px/1.2 system-ui, sans-serif", cursor: "pointer", boxShadow: "0 4px 14px rgba(0,0,0,.25)"
    });
    button.type = "button";
    button.textContent = options.label || "Chat";
    button.setAttribute("aria-expanded", "false");
    button.className = "tasksurface-launcher";
    var panel = css(document.createElement("div"), {
      position: "fixed", right: "16px", bottom: "72px", zIndex: "2147483000", width: "min(420px, calc(100vw - 32px))",
      height: "min(640px, calc(100vh - 96px))", borderRadius: "12px", overflow: "hidden", display: "none",
      background: "Canvas", boxShadow: "0 8px 30px rgba(0,0,0,.3)"
    });
    panel.className = "tasksurface-panel";
    panel.id = "tasksurface-panel-" + Math.random().toString(36).slice(2, 8);
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-label", options.title || "Chat");
    button.setAttribute("aria-controls", panel.id);

    function toggle(open) {
      if (open && !frame) panel.appendChild(makeFrame("100%"));
      panel.style.display = open ? "block" : "none";
      button.setAttribute("aria-expanded", String(open));
      if (open) frame.focus();
      else button.focus();
    }
    button.addEventListener("click", function () { toggle(panel.style.display === "none"); });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && panel.style.display !== "none") toggle(false);
    });
    document.body.appendChild(panel);
    document.body.appendChild(button);
    controller.open = function () { toggle(true); };
    controller.close = function () { toggle(false); };
    return controller;
  }

  window.TaskSurface = { mount: mount };
  var data = script.dataset;
  if (data.mount === "manual") return;
  function auto() {
    window.TaskSurface.chat = mount({
      target: data.target, token: data.token, theme: data.theme, lang: data.lang, session: data.session,
      label: data.label, title: data.title, height: data.height
    });
  }
  if (document.body) auto();
  else document.addEventListener("DOMContentLoaded", auto);
})();
