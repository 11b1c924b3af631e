/**
 * The outline of the page open in the editor, for the change request's right panel: its headings
 * as they are typed (read from the editor's document in the page, which the editor owns), each
 * scrolling the page to it.
 */
import { useEffect, useState } from "react"

interface Heading {
  readonly index: number
  readonly level: number
  readonly text: string
}

const selector = ".quire-editor :is(h1, h2, h3)"

const read = (): ReadonlyArray<Heading> =>
  [...document.querySelectorAll<HTMLElement>(selector)].flatMap((element, index) => {
    const text = (element.textContent ?? "").trim()
    return text === "" ? [] : [{ index, level: Number(element.tagName[1]), text }]
  })

const go = (index: number) => document.querySelectorAll<HTMLElement>(selector)[index]?.scrollIntoView({ block: "start" })

const keyOf = (headings: ReadonlyArray<Heading>) => headings.map((h) => `${h.level}:${h.text}`).join("\n")

export const EditorOutline = () => {
  const [headings, setHeadings] = useState<ReadonlyArray<Heading>>([])
  useEffect(() => {
    const root = document.getElementById("content")
    if (root === null) return
    let frame = 0
    let last = ""
    const update = () => {
      frame = 0
      const next = read()
      const key = keyOf(next)
      if (key === last) return
      last = key
      setHeadings(next)
    }
    // Typing changes the document many times a second: read it once a frame at most.
    const observer = new MutationObserver(() => {
      if (frame === 0) frame = requestAnimationFrame(update)
    })
    observer.observe(root, { childList: true, subtree: true, characterData: true })
    update()
    return () => {
      observer.disconnect()
      cancelAnimationFrame(frame)
    }
  }, [])
  return (
    <nav aria-labelledby="editor-outline" className="space-toc">
      <h2 id="editor-outline">Outline</h2>
      {headings.length === 0 ? <p className="muted">Headings of the page are listed here.</p> : (
        <ul>
          {headings.map((heading) => (
            <li key={heading.index} className={heading.level === 3 ? "toc-sub" : undefined}>
              <button type="button" className="link outline-entry" onClick={() => go(heading.index)}>{heading.text}</button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  )
}
