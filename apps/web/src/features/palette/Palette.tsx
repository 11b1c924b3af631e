/**
 * The command palette (Ctrl/Cmd-K), GitBook's "Ask or search": searches the organization as you
 * type, its spaces and collections by title at once and its pages through the API's
 * `searchOrganizationContent`; its first option asks the words as a question (the organization's
 * Ask, `askInOrganization`), answered in the palette from the pages the person may read, with
 * those pages to open. Before anything is typed it offers the questions worth asking. Arrows
 * choose, Enter opens or asks, Escape closes.
 */
import { AsyncResult } from "effect/reactivity"
import { type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { orgContentAtom, recommendedQuestionsAtom, searchAtom } from "../../api/queries.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { appPath, Link } from "../../ui/Link.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import { excerptAround, markedPieces, searchWords, withSearch } from "../search/matches.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { AskIcon, NoResultsIcon } from "../../ui/icons.tsx"
import { paragraphsOf, type Piece } from "./answer.ts"

const askInOrganization = QuireApi.mutation("organizationAsk", "askInOrganization")

/** `text` with the words searched for marked. */
const Marked = (props: { readonly text: string; readonly words: ReadonlyArray<string> }) => (
  <>{markedPieces(props.text, props.words).map((piece, i) => piece.match ? <mark key={i}>{piece.text}</mark> : piece.text)}</>
)

interface Result {
  readonly key: string
  readonly title: string
  readonly where: string
  readonly excerpt?: string | undefined
  /** Where choosing it goes; none for a question, which choosing asks. */
  readonly href?: string | undefined
  readonly ask?: string | undefined
}

/** An asking: the question, then its answer and the pages it stands on, or why there is none. */
type Asked =
  | { readonly question: string; readonly state: "asking" }
  | { readonly question: string; readonly state: "answered"; readonly answer: string; readonly sources: ReadonlyArray<{ readonly title: string; readonly href: string }> }
  | { readonly question: string; readonly state: "failed"; readonly message: string }

/** A piece of the answer: a citation is a link to its source. */
const AnswerPiece = (props: { readonly piece: Piece; readonly sources: ReadonlyArray<{ readonly title: string; readonly href: string }>; readonly onOpen: () => void }) => {
  const { piece } = props
  switch (piece.kind) {
    case "strong":
      return <strong>{piece.text}</strong>
    case "code":
      return <code>{piece.text}</code>
    case "link":
      return piece.href.startsWith("/") ? <Link href={piece.href} onClick={props.onOpen}>{piece.text}</Link> : <a href={piece.href} rel="noreferrer noopener" target="_blank">{piece.text}</a>
    case "cite": {
      const source = props.sources[piece.n - 1]
      return source === undefined ? <>[{piece.n}]</> : <Link className="palette-cite" href={source.href} onClick={props.onOpen} aria-label={`Source ${piece.n}: ${source.title}`}>{piece.n}</Link>
    }
    default:
      return <>{piece.text}</>
  }
}

/** The answer to an asking, in the palette: its words, then its sources to open. */
const Answer = (props: { readonly asked: Asked; readonly onOpen: () => void; readonly onBack: () => void }) => {
  const { asked } = props
  const back = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (asked.state !== "asking") back.current?.focus()
  }, [asked.state])
  let body: ReactNode
  if (asked.state === "asking") body = <p className="muted">Reading the pages you can open…</p>
  else if (asked.state === "failed") body = <p className="field-error" role="alert">{asked.message}</p>
  else {
    body = (
      <>
        {paragraphsOf(asked.answer).map((pieces, i) => <p key={i}>{pieces.map((piece, j) => <AnswerPiece key={j} piece={piece} sources={asked.sources} onOpen={props.onOpen} />)}</p>)}
        {asked.sources.length === 0 ? null : (
          <>
            <h3 className="palette-sources-title">Sources</h3>
            <ol className="palette-sources">
              {asked.sources.map((source, i) => <li key={i}><Link href={source.href} onClick={props.onOpen}>{source.title}</Link></li>)}
            </ol>
          </>
        )}
      </>
    )
  }
  return (
    <section className="palette-answer" aria-label="Answer">
      <h2 className="palette-question"><AskIcon /> {asked.question}</h2>
      <div role="status" aria-live="polite" aria-busy={asked.state === "asking"}>{body}</div>
      <button ref={back} type="button" className="button small" onClick={props.onBack}>Back to results</button>
    </section>
  )
}

/** The questions worth asking, as the palette's options before anything is typed. */
const Suggestions = (props: { readonly organizationId: string; readonly children: (results: ReadonlyArray<Result>, searching: boolean) => ReactNode }) => {
  const result = useAtomValue(recommendedQuestionsAtom(props.organizationId))
  const results = useMemo(() => (AsyncResult.isSuccess(result) ? result.value.questions : []).map((question, i): Result => ({
    key: `suggested:${i}`, title: question, where: "Ask", ask: question
  })), [result])
  return <>{props.children(results, false)}</>
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

const ContentResults = (props: { readonly organizationId: string; readonly query: string; readonly children: (results: ReadonlyArray<Result>, searching: boolean) => ReactNode }) => {
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
  const input = useRef<HTMLInputElement>(null)
  const [text, setText] = useState("")
  const [selected, setSelected] = useState(0)
  const [asked, setAsked] = useState<Asked | undefined>(undefined)
  const query = useDebounced(text.trim(), 150)
  const content = useAtomValue(orgContentAtom(props.organizationId))
  const ask = useMutation(askInOrganization)
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
  const askQuestion = (question: string) => {
    setAsked({ question, state: "asking" })
    ask({ params: { organizationId: props.organizationId }, query: { format: "markdown" }, payload: { query: question.slice(0, 512) } }).then(
      (reply) => setAsked((now) => now?.question !== question ? now : {
        question,
        state: "answered",
        answer: reply.answer?.answer !== undefined && "markdown" in reply.answer.answer ? reply.answer.answer.markdown : "",
        sources: (reply.answer?.sources ?? []).map((source) => ({ title: source.title ?? "A page", href: appPath(source.url ?? `/s/${source.space}`) }))
      }),
      (failure: unknown) => setAsked((now) => now?.question !== question ? now : {
        question,
        state: "failed",
        message: `The question could not be answered: ${refusalOf(failure)?.message ?? "no answer from the server"}`
      })
    )
  }
  const choose = (result: Result | undefined) => {
    if (result === undefined) return
    if (result.ask !== undefined) return askQuestion(result.ask)
    props.onClose()
    if (result.href !== undefined) navigate(result.href)
  }
  const backToResults = () => {
    setAsked(undefined)
    input.current?.focus()
  }
  const render = (pages: ReadonlyArray<Result>, searching: boolean) => {
    const typed = text.trim()
    // Typed words are first offered as a question to ask, then as what they find.
    const asking: ReadonlyArray<Result> = typed === "" ? [] : [{ key: "ask", title: typed, where: "Ask", ask: typed }]
    const results = [...asking, ...titled, ...pages]
    const found = results.length - asking.length
    const nothing = typed !== "" && !searching && found === 0
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "ArrowDown") setSelected((index) => Math.min(index + 1, results.length - 1))
      else if (event.key === "ArrowUp") setSelected((index) => Math.max(index - 1, 0))
      else if (event.key === "Enter") choose(results[selected])
      else return
      event.preventDefault()
    }
    const active = results[selected]
    const words = searchWords(text)
    return (
      <div className="dialog-body" onKeyDown={asked === undefined ? onKeyDown : undefined}>
        <label htmlFor="palette-input" className="visually-hidden">Ask or search the organization</label>
        <input
          ref={input}
          id="palette-input"
          className="palette-input"
          placeholder="Ask or search"
          value={text}
          onChange={(event) => {
            setText(event.target.value)
            setAsked(undefined)
          }}
          role="combobox"
          aria-expanded={asked === undefined && results.length > 0}
          aria-controls="palette-results"
          aria-activedescendant={asked === undefined && active !== undefined ? `palette-${active.key}` : undefined}
          autoComplete="off"
          autoFocus
        />
        {asked !== undefined ? <Answer asked={asked} onOpen={props.onClose} onBack={backToResults} /> : (
          <>
            {/* Nothing found: said by the status line, shown as the empty state. */}
            <p className={nothing ? "status visually-hidden" : "status"} role="status">
              {typed === "" ? (results.length > 0 ? "Suggested questions." : "Type to search, or ask a question.") : searching ? "Searching…" : found === 0 ? `Nothing matches “${typed}”.` : `${found} result${found === 1 ? "" : "s"}`}
            </p>
            {nothing ? <EmptyState compact icon={<NoResultsIcon />} title={`Nothing matches “${typed}”`}>Try other words, or ask it as a question.</EmptyState> : null}
            <ul id="palette-results" className="results" role="listbox" aria-label={typed === "" ? "Suggested questions" : "Results"}>
              {results.map((result, index) => (
                <li key={result.key} id={`palette-${result.key}`} role="option" aria-selected={index === selected} className={result.ask === undefined ? undefined : "palette-ask"}
                  onMouseEnter={() => setSelected(index)} onClick={() => choose(result)}>
                  <div>{result.ask === undefined ? <Marked text={result.title} words={words} /> : <><AskIcon /> {result.key === "ask" ? <>Ask “{result.title}”</> : result.title}</>}</div>
                  <div className="where">{result.where}</div>
                  {result.excerpt === undefined ? null : <div className="excerpt"><Marked text={result.excerpt} words={words} /></div>}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    )
  }
  return (
    <dialog ref={dialog} aria-label="Ask or search" onClose={props.onClose} onCancel={props.onClose} onClick={(event) => {
      if (event.target === dialog.current) dialog.current.close()
    }}>
      {query === "" ? <Suggestions organizationId={props.organizationId}>{render}</Suggestions> : <ContentResults organizationId={props.organizationId} query={query}>{render}</ContentResults>}
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
