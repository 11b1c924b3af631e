/**
 * The files a published page may load from its own site (`<root>~assets/<name>`), never from
 * another host: KaTeX's stylesheet and fonts (pages with formulas), Mermaid (pages with diagrams)
 * and the page script that plays embeds on click, copies prompts and draws diagrams. The files come
 * from npm packages; the production build copies them to `dist/site-assets/`, beside the bundle.
 */
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { playerOrigins } from "./Embeds.ts"

/** What a rendered page loads from the site's assets. */
export type PageAsset = "katex" | "script" | "mermaid"

/** The asset names each need loads: the first is what the page links to. */
export const assetFiles: Readonly<Record<PageAsset, string>> = {
  katex: "katex/katex.min.css",
  script: "blocks.js",
  mermaid: "mermaid.min.js"
}

/** Each served file's npm package and path there; `tooling/build/build.mjs` copies them to `dist/site-assets/`. */
export const packagedAssets: ReadonlyArray<{ readonly name: RegExp; readonly package: string; readonly file: (name: string) => string }> = [
  { name: /^katex\/katex\.min\.css$/, package: "katex", file: () => "dist/katex.min.css" },
  { name: /^katex\/fonts\/KaTeX_[A-Za-z0-9_-]+\.woff2$/, package: "katex", file: (name) => `dist/fonts/${name.slice("katex/fonts/".length)}` },
  { name: /^mermaid\.min\.js$/, package: "mermaid", file: () => "dist/mermaid.min.js" }
]

const packages = createRequire(import.meta.url)

/** Whether a name is one of the assets served. */
export const isAssetName = (name: string): boolean => name === assetFiles.script || packagedAssets.some((asset) => asset.name.test(name))

/** What a page's CSP allows for the assets it loads. */
export interface AssetSources {
  readonly scripts: ReadonlyArray<string>
  readonly styles: ReadonlyArray<string>
  /** Mermaid writes `<style>` elements as it draws: a page with diagrams allows inline styles. */
  readonly inlineStyles: boolean
}

/**
 * The CSP sources of the assets a page loads from its site's `root` (absolute: a source with a path
 * allows that file alone, where `'self'` would allow any script of the origin).
 */
export const assetSources = (root: string, assets: ReadonlyArray<PageAsset>): AssetSources => {
  const url = (name: string) => new URL(`~assets/${name}`, root).href
  return {
    scripts: [...(assets.includes("script") ? [url(assetFiles.script)] : []), ...(assets.includes("mermaid") ? [url(assetFiles.mermaid)] : [])],
    styles: assets.includes("katex") ? [url(assetFiles.katex)] : [],
    inlineStyles: assets.includes("mermaid")
  }
}

/**
 * The script of pages with players, prompts, expandables or diagrams: the expandable a link targets
 * opens; a player's frame is made on click (only for a player's origin); a prompt's text is copied;
 * Mermaid is loaded only when the page has a diagram, and a diagram it cannot draw keeps showing its code.
 */
export const pageScript = `(() => {
  const origins = ${JSON.stringify(playerOrigins)};
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
  // The expandable the URL's hash names (or one holding its target) opens.
  const reveal = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    const details = target && target.closest("details");
    if (!details || details.open) return;
    details.open = true;
    target.scrollIntoView();
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
`

/** A served asset: its bytes and type. */
export interface AssetFile {
  readonly contentType: string
  readonly bytes: Uint8Array
}

const typeOf = (name: string): string =>
  name.endsWith(".css") ? "text/css; charset=utf-8" : name.endsWith(".js") ? "text/javascript; charset=utf-8" : "font/woff2"

/** An asset's bytes by name (`katex/fonts/KaTeX_Main-Regular.woff2`), read from beside the bundle or the package; undefined for others. */
export const readAsset = (name: string): AssetFile | undefined => {
  if (name === assetFiles.script) return { contentType: typeOf(name), bytes: new TextEncoder().encode(pageScript) }
  const entry = packagedAssets.find((asset) => asset.name.test(name))
  if (entry === undefined) return undefined
  const bundled = fileURLToPath(new URL(`./site-assets/${name}`, import.meta.url))
  let file: string
  if (existsSync(bundled)) file = bundled
  else {
    try {
      file = packages.resolve(`${entry.package}/${entry.file(name)}`)
    } catch {
      return undefined
    }
  }
  return existsSync(file) ? { contentType: typeOf(name), bytes: readFileSync(file) } : undefined
}
