/**
 * What a rendered page may contain: the elements and attributes the renderer emits (GitBook's
 * blocks, heading anchors, Shiki's CSS variables) and the harmless HTML an author may write (whose
 * `<button>`s, ids and data attributes the HTML reader has already turned into text or dropped).
 * Scripts, event handlers, frames, styles and `javascript:` URLs never pass.
 */
import type { Options as Schema } from "rehype-sanitize"
import { safeSchemes } from "@quire/kernel"

// Shiki's inline styles: only its own variables, with colors and font keywords as values (no url()).
const shikiStyle = /^(?:\s*--shiki-[a-z-]+\s*:\s*[#a-zA-Z0-9 ,.%-]*;?)*\s*$/
const className = /^[a-z][a-z0-9-]*$/

/** The sanitizer's schema for rendered pages. */
export const schema: Schema = {
  tagNames: [
    "a", "abbr", "article", "b", "blockquote", "br", "button", "caption", "code", "dd", "del", "details", "div", "dl", "dt", "em",
    "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "label",
    "li", "mark", "ol", "p", "picture", "pre", "q", "s", "samp", "section", "small", "source", "span", "strike", "strong", "sub",
    "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var"
  ],
  attributes: {
    "*": [
      ["className", className], "id", "title", "lang", "dir", "align", "ariaLabel", "ariaHidden", "ariaDescribedBy", "ariaLabelledBy",
      "dataFootnotes", "dataFootnoteRef", "dataFootnoteBackref"
    ],
    a: ["href", ["rel", "noopener"], "download", "tabIndex"],
    img: ["src", "alt", "width", "height", ["loading", "lazy"]],
    input: [["type", "checkbox", "radio"], "checked", "disabled", "name"],
    label: ["htmlFor"],
    source: ["srcSet", "media", "type", "width", "height"],
    pre: [["style", shikiStyle], "tabIndex", "dataLanguage"],
    span: [["style", shikiStyle], ["popover", "auto"], ["role", "note"]],
    // The renderer's own buttons: an embed's player (its URL checked again by the page script), a note's popover, a prompt's copy.
    button: [["type", "button"], "popoverTarget", "dataEmbedSrc", "dataEmbedTitle"],
    time: ["dateTime"],
    div: [["role", "note", "group"]],
    details: ["open"],
    ol: ["start"],
    td: ["align", "colSpan", "rowSpan"],
    th: ["align", "colSpan", "rowSpan", "scope"]
  },
  protocols: {
    href: [...safeSchemes],
    src: ["http", "https"],
    srcSet: ["http", "https"]
  },
  ancestors: { tbody: ["table"], td: ["table"], th: ["table"], thead: ["table"], tfoot: ["table"], tr: ["table"] },
  // Ids are the renderer's own (an author's are dropped before), so they keep their names.
  clobber: [],
  clobberPrefix: "",
  strip: ["script", "style", "iframe", "object", "embed", "template", "noscript", "textarea", "select", "title", "xmp", "noembed", "noframes"],
  required: {}
}
