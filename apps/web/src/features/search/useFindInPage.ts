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
    target?.scrollIntoView({ block: "center" })
    return () => {
      if ("highlights" in CSS) CSS.highlights.delete(highlightName)
    }
  }, [root, content])
}
