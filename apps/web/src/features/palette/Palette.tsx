/**
 * The command palette (Ctrl/Cmd-K): searches the organization as you type, its spaces and
 * collections by title at once and its pages through the API's `searchOrganizationContent`;
 * arrows choose, Enter opens, Escape closes.
 */
import { AsyncResult } from "effect/reactivity"
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react"
import { orgContentAtom, searchAtom } from "../../api/queries.ts"
import { useAtomValue } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { appPath } from "../../ui/Link.tsx"
import { excerptAround, markedPieces, searchWords, withSearch } from "../search/matches.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { NoResultsIcon } from "../../ui/icons.tsx"

/** `text` with the words searched for marked. */
const Marked = (props: { readonly text: string; readonly words: ReadonlyArray<string> }) => (
  <>{markedPieces(props.text, props.words).map((piece, i) => piece.match ? <mark key={i}>{piece.text}</mark> : piece.text)}</>
)

interface Result {
  readonly key: string
  readonly title: string
  readonly where: string
  readonly excerpt?: string | undefined
  readonly href: string
}

/** The text searched, once typing pauses for `ms`. */
const useDebounced = (value: string, ms: number) => {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

const ContentResults = (props: { readonly organizationId: string; readonly query: string; readonly children: (results: ReadonlyArray<Result>, searching: boolean) => React.ReactNode }) => {
  const result = useAtomValue(searchAtom(`${props.organizationId}\n${props.query}`))
  const results = useMemo(() => {
    if (!AsyncResult.isSuccess(result)) return []
    const words = searchWords(props.query)
    return result.value.items.flatMap((space) => space.pages.map((page): Result => {
      const section = page.sections[0]
      return {
        key: `page:${space.id}:${page.id}`,
        title: page.title,
        where: section === undefined || section.title === "" || section.title === page.title ? space.title : `${space.title} › ${section.title}`,
        excerpt: section === undefined ? undefined : excerptAround(section.body, words),
        // The page opens at the section, its matches highlighted (useFindInPage).
        href: withSearch(appPath(section?.urls.app ?? page.urls.app), props.query)
      }
    }))
  }, [result, props.query])
  return <>{props.children(results, result.waiting || AsyncResult.isInitial(result))}</>
}

export const Palette = (props: { readonly organizationId: string; readonly onClose: () => void }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [text, setText] = useState("")
  const [selected, setSelected] = useState(0)
  const query = useDebounced(text.trim(), 150)
  const content = useAtomValue(orgContentAtom(props.organizationId))
  useEffect(() => {
    dialog.current?.showModal()
  }, [])
  useEffect(() => setSelected(0), [query])
  const titled: ReadonlyArray<Result> = useMemo(() => {
    if (!AsyncResult.isSuccess(content) || text.trim() === "") return []
    const needle = text.trim().toLowerCase()
    return [
      ...content.value.spaces.filter((space) => space.title.toLowerCase().includes(needle)).map((space) => ({
        key: `space:${space.id}`, title: `${space.emoji === "" ? "" : `${emojiOf(space.emoji)} `}${space.title}`, where: "Space", href: `/s/${space.id}`
      })),
      ...content.value.collections.filter((collection) => collection.title.toLowerCase().includes(needle)).map((collection) => ({
        key: `collection:${collection.id}`, title: collection.title, where: "Collection", href: appPath(collection.urls.app)
      }))
    ].slice(0, 6)
  }, [content, text])
  const open = (result: Result | undefined) => {
    if (result === undefined) return
    props.onClose()
    navigate(result.href)
  }
  const render = (pages: ReadonlyArray<Result>, searching: boolean) => {
    const results = [...titled, ...pages]
    const nothing = text.trim() !== "" && !searching && results.length === 0
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "ArrowDown") setSelected((index) => Math.min(index + 1, results.length - 1))
      else if (event.key === "ArrowUp") setSelected((index) => Math.max(index - 1, 0))
      else if (event.key === "Enter") open(results[selected])
      else return
      event.preventDefault()
    }
    const active = results[selected]
    const words = searchWords(text)
    return (
      <div className="dialog-body" onKeyDown={onKeyDown}>
        <label htmlFor="palette-input" className="visually-hidden">Search the organization</label>
        <input
          id="palette-input"
          className="palette-input"
          placeholder="Search pages, spaces and collections"
          value={text}
          onChange={(event) => setText(event.target.value)}
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls="palette-results"
          aria-activedescendant={active === undefined ? undefined : `palette-${active.key}`}
          autoComplete="off"
          autoFocus
        />
        {/* Nothing found: said by the status line, shown as the empty state. */}
        <p className={nothing ? "status visually-hidden" : "status"} role="status">
          {text.trim() === "" ? "Type to search." : searching ? "Searching…" : results.length === 0 ? `Nothing matches “${text.trim()}”.` : `${results.length} result${results.length === 1 ? "" : "s"}`}
        </p>
        {nothing ? <EmptyState compact icon={<NoResultsIcon />} title={`Nothing matches “${text.trim()}”`}>Try other words, or fewer of them.</EmptyState> : null}
        <ul id="palette-results" className="results" role="listbox" aria-label="Results">
          {results.map((result, index) => (
            <li key={result.key} id={`palette-${result.key}`} role="option" aria-selected={index === selected} onMouseEnter={() => setSelected(index)} onClick={() => open(result)}>
              <div><Marked text={result.title} words={words} /></div>
              <div className="where">{result.where}</div>
              {result.excerpt === undefined ? null : <div className="excerpt"><Marked text={result.excerpt} words={words} /></div>}
            </li>
          ))}
        </ul>
      </div>
    )
  }
  return (
    <dialog ref={dialog} aria-label="Search" onClose={props.onClose} onCancel={props.onClose} onClick={(event) => {
      if (event.target === dialog.current) dialog.current.close()
    }}>
      {query === "" ? render([], false) : <ContentResults organizationId={props.organizationId} query={query}>{render}</ContentResults>}
    </dialog>
  )
}

/** An emoji as the API stores it (`1f4d8` code points, or the character itself). */
export const emojiOf = (emoji: string | undefined) => {
  if (emoji === undefined || emoji === "") return ""
  if (!/^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/i.test(emoji)) return emoji
  try {
    return String.fromCodePoint(...emoji.split("-").map((part) => parseInt(part, 16)))
  } catch {
    return ""
  }
}
