/**
 * Opened from a search result (`?q=` in the address), a page shows where the words are: every
 * match highlighted (the CSS Custom Highlight API, so React's DOM is left as it is) and the first
 * one at or after the result's section scrolled into view.
 */
import { type RefObject, useEffect } from "react"
import { matchRanges, searchWords } from "./matches.ts"

const highlightName = "search-match"

export const useFindInPage = (root: RefObject<HTMLElement | null>, content: unknown) => {
  useEffect(() => {
    const element = root.current
    const query = new URLSearchParams(window.location.search).get("q")
    if (element === null || query === null || query.trim() === "") return
    const ranges = matchRanges(element, searchWords(query))
    if (ranges.length === 0) return
    if (typeof Highlight !== "undefined" && "highlights" in CSS) CSS.highlights.set(highlightName, new Highlight(...ranges))
    const anchor = decodeURIComponent(window.location.hash.slice(1))
    const section = anchor === "" ? null : document.getElementById(anchor)
    const first = (section === null ? undefined : ranges.find((range) => section.compareDocumentPosition(range.startContainer) & Node.DOCUMENT_POSITION_FOLLOWING)) ?? ranges[0]!
    const target = first.startContainer.parentElement
    if (target === null) return
    target.scrollIntoView({ block: "center" })
    // What loads after (images, fonts, blocks drawn later) moves the page under the match: it is
    // brought back into view while the page settles, until the reader scrolls or acts themselves.
    let settling = true
    const stop = () => {
      settling = false
    }
    const keep = () => {
      const box = target.getBoundingClientRect()
      if (settling && (box.top < 0 || box.bottom > window.innerHeight)) target.scrollIntoView({ block: "center" })
    }
    const observer = new ResizeObserver(keep)
    observer.observe(element)
    const frame = requestAnimationFrame(keep)
    const settled = setTimeout(() => observer.disconnect(), 3000)
    const acts = ["wheel", "touchstart", "keydown", "pointerdown"] as const
    for (const act of acts) window.addEventListener(act, stop, { passive: true })
    return () => {
      observer.disconnect()
      cancelAnimationFrame(frame)
      clearTimeout(settled)
      for (const act of acts) window.removeEventListener(act, stop)
      if ("highlights" in CSS) CSS.highlights.delete(highlightName)
    }
  }, [root, content])
}
