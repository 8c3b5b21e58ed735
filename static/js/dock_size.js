// The dock's size: collapsed to its header, its normal height, or full height (on a phone, all of
// the window above the keyboard). The person chooses with the dock's two buttons; Escape steps
// back one size. Without the script the dock has its normal height, and the buttons stay hidden.
(function () {
  "use strict";

  const page = window.TaskSurfacePage;
  if (!page) return;
  const { $, t, dockSlot } = page;

  const inputDock = $("#input-dock");
  const dock = page.docked;
  const expanded = () => page.body.classList.contains("dock-expanded");

  function setExpanded(on) {
    page.body.classList.toggle("dock-expanded", on);
    followViewport();
    const button = dock() && $(".dock-expand", dock());
    if (button) {
      button.setAttribute("aria-pressed", String(on));
      button.textContent = on ? t("Normal height") : t("Full height");
    }
  }

  // The expanded dock is as tall as the part of the window left visible. Only it reads that height,
  // so it is written on it and only while expanded: on the root it would restyle the whole page at
  // every change of the viewport, the first of which comes as the page's scrollbar appears, between
  // its first layout and its first frame.
  function followViewport() {
    if (!inputDock || !window.visualViewport || !expanded()) return;
    inputDock.style.setProperty("--visible-height", window.visualViewport.height + "px");
  }
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", () => {
      followViewport();
      const focused = document.activeElement;
      if (focused && dockSlot.contains(focused)) focused.scrollIntoView({ block: "nearest" });
    });
  }

  // The focused field stays in view when the on-screen keyboard takes half the screen. Only a
  // touch screen has that keyboard: with a mouse, a late scroll would move the panel under it.
  const touchScreen = window.matchMedia("(pointer: coarse)");
  dockSlot.addEventListener("focusin", (event) => {
    const target = event.target;
    if (touchScreen.matches && target.matches && target.matches("input, textarea, select")) {
      window.setTimeout(() => target.scrollIntoView({ block: "nearest" }), 250);
    }
  });

  function toggleCollapse() {
    const button = $(".dock-collapse", dock());
    const collapsed = dock().classList.toggle("collapsed");
    button.setAttribute("aria-expanded", String(!collapsed));
    button.textContent = collapsed ? t("Expand") : t("Collapse");
    button.focus();
  }

  dockSlot.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || !dock()) return;
    if (target.classList.contains("dock-collapse")) {
      toggleCollapse();
    } else if (target.classList.contains("dock-expand")) {
      setExpanded(!expanded());
      target.focus();
    }
  });
  dockSlot.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !dock()) return;
    if (expanded()) setExpanded(false);
    else if (!dock().classList.contains("collapsed")) toggleCollapse();
  });

  // A dock the server drew or a push swapped in: its buttons need the script, and the full-height
  // one says which size the page is in (a new panel keeps the size the person chose).
  function mount(d) {
    const collapse = $(".dock-collapse", d);
    if (collapse) collapse.hidden = false;
    const expand = $(".dock-expand", d);
    if (expand) {
      expand.hidden = false;
      setExpanded(expanded());
    }
  }

  page.dockSize = { mount };
})();
