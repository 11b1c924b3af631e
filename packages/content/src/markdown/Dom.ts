/**
 * An HTML parser for Node: `@mixmark-io/domino`, the DOM turndown itself parses with. Its own
 * typings declare a module named `domino` and need the DOM lib, which this Node project leaves out,
 * so it is loaded here with the few members Quire uses typed.
 */
import type { HtmlLinks } from "@quire/markdown"
import { createRequire } from "node:module"

/** The element members Quire uses. */
export interface DomElement {
  readonly tagName: string
  readonly textContent: string | null
  /** Settable: an importer rewrites another tool's markup before converting it. */
  innerHTML: string
  getAttribute(name: string): string | null
  setAttribute(name: string, value: string): void
  removeAttribute(name: string): void
  remove(): void
  querySelector(selector: string): DomElement | null
  querySelectorAll(selector: string): Iterable<DomElement>
}

/** The document members Quire uses. */
export interface DomDocument {
  readonly title: string
  readonly body: DomElement
  querySelector(selector: string): DomElement | null
  querySelectorAll(selector: string): Iterable<DomElement>
}

const domino = createRequire(import.meta.url)("@mixmark-io/domino") as {
  createDocument(html: string, force: boolean): DomDocument
}

/** Parses an HTML document (or fragment) the way a browser does. */
export const parseHtml = (html: string): DomDocument => domino.createDocument(html, true)

/** The links and images of raw HTML in markdown, read with this parser (what `@quire/markdown`'s link readers need). */
export const htmlLinks: HtmlLinks = (html) => {
  const document = parseHtml(`<body>${html}</body>`)
  const found: Array<{ url: string; kind: "link" | "image" }> = []
  for (const element of document.querySelectorAll("a[href], img[src]")) {
    const isImage = element.tagName.toLowerCase() === "img"
    const url = element.getAttribute(isImage ? "src" : "href")
    if (url !== null && url.trim() !== "") found.push({ url: url.trim(), kind: isImage ? "image" : "link" })
  }
  return found
}
