// The script of pages with players, prompts, expandables or diagrams (served as `~assets/blocks.js`).
// QUIRE_PLAYER_ORIGINS is replaced, as the file is read, by the origins a player may load from.
(() => {
  const origins = QUIRE_PLAYER_ORIGINS;
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const play = target && target.closest("button.embed-play");
    if (play) {
      const src = play.getAttribute("data-embed-src") || "";
      if (!origins.some((origin) => src.startsWith(origin + "/"))) return;
      const frame = document.createElement("iframe");
      frame.src = src;
      frame.title = play.getAttribute("data-embed-title") || "Embedded content";
      frame.className = "embed-frame";
      frame.allow = "autoplay; fullscreen; picture-in-picture; encrypted-media; clipboard-write";
      frame.referrerPolicy = "strict-origin-when-cross-origin";
      play.replaceWith(frame);
      frame.focus();
      return;
    }
    const copy = target && target.closest("button.prompt-copy");
    if (copy) {
      const body = copy.closest(".prompt") && copy.closest(".prompt").querySelector(".prompt-body");
      if (!body || !navigator.clipboard) return;
      navigator.clipboard.writeText(body.innerText.trim()).then(() => {
        copy.textContent = "Copied";
        setTimeout(() => { copy.textContent = "Copy prompt"; }, 1500);
      }, () => undefined);
    }
  });
  // The expandable or tab the URL's hash names (or one holding its target) opens.
  const reveal = () => {
    let id = location.hash.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch {
      // As written.
    }
    const target = id && document.getElementById(id);
    if (!target) return;
    let moved = false;
    const tab = target.matches("input.tab-input") ? target : null;
    const panel = target.closest(".tab-panel");
    const input = tab || (panel && panel.previousElementSibling && panel.previousElementSibling.previousElementSibling);
    if (input && input.matches("input.tab-input") && !input.checked) {
      input.checked = true;
      moved = true;
    }
    const details = target.closest("details");
    if (details && !details.open) {
      details.open = true;
      moved = true;
    }
    if (!moved) return;
    (tab ? tab.nextElementSibling || tab : target).scrollIntoView();
  };
  reveal();
  addEventListener("hashchange", reveal);
  const diagrams = Array.from(document.querySelectorAll("pre.mermaid"));
  const me = document.currentScript;
  const source = me && me.getAttribute("data-mermaid");
  if (diagrams.length === 0 || !source) return;
  const dark = () => {
    const theme = document.documentElement.getAttribute("data-theme");
    return theme ? theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  };
  const loader = document.createElement("script");
  loader.src = source;
  let n = 0;
  // Drawn in the reader's theme, and again when they switch it.
  const draw = async () => {
    const mermaid = window.mermaid;
    if (!mermaid) return;
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: dark() ? "dark" : "default" });
    for (const pre of diagrams) {
      try {
        const { svg } = await mermaid.render("quire-mermaid-" + ++n, pre.textContent || "");
        const root = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
        if (root.nodeName !== "svg") continue;
        const figure = document.createElement("div");
        figure.className = "mermaid-diagram";
        figure.setAttribute("role", "img");
        figure.setAttribute("aria-label", "Diagram");
        figure.append(document.importNode(root, true));
        const drawn = pre.nextElementSibling;
        if (drawn && drawn.classList.contains("mermaid-diagram")) drawn.replaceWith(figure);
        else pre.after(figure);
        pre.hidden = true;
      } catch {
        // The code stays shown; Mermaid's own error drawing goes.
        for (const id of ["dquire-mermaid-" + n, "quire-mermaid-" + n]) document.getElementById(id)?.remove();
      }
    }
  };
  loader.onload = () => {
    draw();
    new MutationObserver(draw).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", draw);
  };
  document.head.append(loader);
})();
