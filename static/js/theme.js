// The theme switch: system preference (auto), light or dark, kept in this browser.
// Loaded in <head> without defer so the saved theme applies before the first paint.
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

  apply(saved());

  document.addEventListener("DOMContentLoaded", () => {
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
        /* not kept, but still applied */
      }
      apply(next);
      show(next);
    });
  });
})();
