// The theme switch: system preference (auto), light or dark, kept in this browser and in a cookie
// the server reads, so the page arrives in the chosen theme and this script need not block it.
(function () {
  "use strict";
  const KEY = "ts-theme";
  const ORDER = ["auto", "light", "dark"];
  const root = document.documentElement;

  function saved() {
    // A page framed by a team's site follows the theme that site asked for, until changed here.
    const asked = root.dataset.embedTheme;
    try {
      if (asked && ORDER.includes(asked) && !sessionStorage.getItem(KEY)) return asked;
      const value = localStorage.getItem(KEY);
      return ORDER.includes(value) ? value : "auto";
    } catch (_) {
      return "auto";
    }
  }

  function apply(theme) {
    if (theme === "auto") delete root.dataset.theme;
    else root.dataset.theme = theme;
  }

  function remember(theme) {
    // In a team's frame the cookie is the frame's own (partitioned), like the identity cookie.
    const framed = root.dataset.embedOrigin ? "; SameSite=None; Secure; Partitioned" : "; SameSite=Lax";
    document.cookie = "ts-theme=" + theme + "; Path=/; Max-Age=34560000" + framed;
  }

  const start = saved();
  apply(start);
  // The cookie as the server saw it with this page (data-theme-kept): reading document.cookie here
  // would be a synchronous call to the browser while the page starts, and so would writing it. No
  // cookie means auto, so a first visit writes nothing; a choice kept only in this browser (from
  // before the cookie) is sent from now on.
  if ((root.dataset.themeKept || "auto") !== start) remember(start);

  // Loaded without blocking the page, so the page may be whole already.
  function mountToggle() {
    const button = document.getElementById("theme-toggle");
    if (!button) return;
    const label = (theme) => button.dataset["label" + theme.charAt(0).toUpperCase() + theme.slice(1)] || theme;
    const show = (theme) => {
      button.textContent = label(theme);
      button.dataset.theme = theme;
    };
    show(saved());
    button.hidden = false;
    button.addEventListener("click", () => {
      const next = ORDER[(ORDER.indexOf(saved()) + 1) % ORDER.length];
      try {
        localStorage.setItem(KEY, next);
        if (root.dataset.embedTheme) sessionStorage.setItem(KEY, next);
      } catch (_) {
        /* not kept in the browser, but still applied and sent */
      }
      remember(next);
      apply(next);
      show(next);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountToggle);
  else mountToggle();
})();
