// Puts Quire's screenshots of a screen beside GitBook's own of the same screen, as one image for
// the docs: GitBook's on the left (from GitBook's documentation repository), Quire's light and dark
// at 1280 px in the middle, and its 390 px phone views on the right. Drawn by Debian's Chromium
// through playwright-core; nothing is downloaded.
//
//   node apps/web/scripts/beside.mjs <out.png> <title> <gitbook.png> <quire-light-1280.png> <quire-dark-1280.png> [<quire-light-390.png> <quire-dark-390.png>]
import { readFileSync } from "node:fs"
import { chromium } from "playwright-core"

const [out, title, gitbook, light, dark, phoneLight, phoneDark] = process.argv.slice(2)
if (out === undefined || gitbook === undefined || light === undefined || dark === undefined) {
  console.error("usage: node apps/web/scripts/beside.mjs <out.png> <title> <gitbook.png> <light-1280.png> <dark-1280.png> [<light-390.png> <dark-390.png>]")
  process.exit(2)
}
const data = (file) => `data:image/png;base64,${readFileSync(file).toString("base64")}`
const figure = (file, caption, width) =>
  `<figure style="margin:0;width:${width}px"><img src="${data(file)}" style="width:100%;border:1px solid #d0d4dc;border-radius:8px;display:block"><figcaption>${caption}</figcaption></figure>`
const phones = phoneLight === undefined ? "" : `<div class="col">${figure(phoneLight, "Quire, light, 390 px", 240)}${phoneDark === undefined ? "" : figure(phoneDark, "Quire, dark, 390 px", 240)}</div>`
const html = `<!doctype html><meta charset="utf-8"><style>
body{margin:0;padding:24px;font:14px system-ui,sans-serif;background:#f4f5f7;color:#16181d}
h1{font-size:20px;margin:0 0 16px}.row{display:flex;gap:24px;align-items:flex-start}.col{display:flex;flex-direction:column;gap:16px}
figcaption{margin-top:6px;color:#555}</style>
<h1>${title}</h1><div class="row"><div class="col">${figure(gitbook, "GitBook (its own documentation's screenshot)", 720)}</div>
<div class="col">${figure(light, "Quire, light, 1280 px", 720)}${figure(dark, "Quire, dark, 1280 px", 720)}</div>${phones}</div>`
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] })
const page = await browser.newPage({ viewport: { width: 1800, height: 900 } })
await page.setContent(html, { waitUntil: "load" })
await page.screenshot({ path: out, fullPage: true })
await browser.close()
console.log(`wrote ${out}`)
