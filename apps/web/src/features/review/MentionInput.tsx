/**
 * A comment or reply box with `@mentions`: typing `@` offers the organization's members, filtered
 * as one types, in a listbox the arrow keys move through (Enter or Tab picks, Escape closes);
 * picking writes `@[Display Name](user:<userId>)` into the markdown. Used by every comment and
 * reply box of the review and space screens. `CommentText` shows a body with its mentions as chips.
 */
import { AsyncResult, Atom } from "effect/reactivity"
import { type KeyboardEvent, useRef, useState } from "react"
import { useAtomValue } from "../../api/react.ts"
import { insertMention, matchMembers, type Mentionable, mentionQueryAt, splitMentions } from "./mentions.ts"
import { memberSearchAtom, membersAtom } from "./queries.ts"

interface Props {
  readonly id: string
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  /** Whose members are offered; none while it is unknown. */
  readonly organizationId: string | undefined
}

const none: ReadonlyArray<Mentionable> = []

/** What `membersAtom` holds before the box is first focused: nothing asked yet. */
const notAsked: typeof membersAtom extends (key: string) => infer A ? A : never = Atom.make(AsyncResult.initial())

/**
 * The members offered: the organization's first 100, asked for when the box is first focused
 * (most pages are read, not commented on) and filtered here as one types; when it has more, the
 * server's `search` over all of them for what is typed (the first 100 shown meanwhile).
 */
export const MentionInput = (props: Props) => {
  const [query, setQuery] = useState("")
  const [engaged, setEngaged] = useState(false)
  const organizationId = props.organizationId === "" ? undefined : props.organizationId
  const first = useAtomValue(organizationId === undefined || !engaged ? notAsked : membersAtom(organizationId))
  const complete = AsyncResult.isSuccess(first) && first.value.next === undefined
  const searching = organizationId !== undefined && engaged && !complete && query !== ""
  const searched = useAtomValue(searching ? memberSearchAtom(`${organizationId}\n${query}`) : notAsked)
  const bySearch = searching && AsyncResult.isSuccess(searched)
  const source = bySearch ? searched : first
  const list = AsyncResult.isSuccess(source) ? source.value.items.filter((m) => !m.disabled).map((m) => m.user) : none
  return <MentionBox {...props} members={list} searched={bySearch} onQuery={setQuery} onEngage={() => setEngaged(true)} />
}

const MentionBox = (props: Props & {
  readonly members: ReadonlyArray<Mentionable>
  /** The members are the server's answer for the @word typed: shown as they are. */
  readonly searched?: boolean
  readonly onQuery?: (query: string) => void
  /** The box got the focus: the members are worth asking for. */
  readonly onEngage: () => void
}) => {
  const ref = useRef<HTMLTextAreaElement>(null)
  const [cursor, setCursor] = useState(0)
  const [active, setActive] = useState(0)
  // The `@` whose suggestions Escape closed: they stay closed until another `@` is typed.
  const [dismissed, setDismissed] = useState<number | undefined>()
  const at = mentionQueryAt(props.value, cursor)
  const open = at !== undefined && at.start !== dismissed && props.organizationId !== undefined && props.organizationId !== ""
  const matches = !open ? [] : props.searched ? props.members.slice(0, 8) : matchMembers(props.members, at.query)
  const current = matches[Math.min(active, matches.length - 1)]
  const optionId = (m: Mentionable) => `${props.id}-member-${m.id}`
  const listId = `${props.id}-members`
  // The parent hears the @word typed (to search for it) from the handlers, never while rendering.
  const moved = (text: string, to: number) => {
    setCursor(to)
    props.onQuery?.(mentionQueryAt(text, to)?.query ?? "")
  }
  const choose = (member: Mentionable) => {
    if (at === undefined) return
    const out = insertMention(props.value, at.start, cursor, member)
    props.onChange(out.text)
    moved(out.text, out.cursor)
    setActive(0)
    // After the new text is drawn, the caret goes after the mention; not if the person has typed
    // since (it would put the caret back behind what they typed: "@Ada lease.p").
    requestAnimationFrame(() => {
      const box = ref.current
      if (box === null || box.value !== out.text) return
      box.focus()
      box.setSelectionRange(out.cursor, out.cursor)
    })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open || matches.length === 0) return
    if (event.key === "ArrowDown") setActive((i) => (i + 1) % matches.length)
    else if (event.key === "ArrowUp") setActive((i) => (i - 1 + matches.length) % matches.length)
    else if ((event.key === "Enter" || event.key === "Tab") && !event.shiftKey && current !== undefined) choose(current)
    else if (event.key === "Escape") setDismissed(at.start)
    else return
    event.preventDefault()
    event.stopPropagation()
  }
  const track = () => moved(props.value, ref.current?.selectionStart ?? 0)
  return (
    <div className="mention-input">
      <label htmlFor={props.id}>{props.label}</label>
      <textarea
        ref={ref}
        id={props.id}
        value={props.value}
        onChange={(event) => {
          props.onChange(event.target.value)
          moved(event.target.value, event.target.selectionStart)
          setActive(0)
        }}
        onKeyDown={onKeyDown}
        onKeyUp={track}
        onClick={track}
        onBlur={() => setDismissed(at?.start)}
        onFocus={() => {
          setDismissed(undefined)
          props.onEngage()
        }}
        aria-autocomplete="list"
        aria-controls={open && matches.length > 0 ? listId : undefined}
        aria-activedescendant={open && current !== undefined ? optionId(current) : undefined}
        aria-describedby={`${props.id}-mention-hint`}
      />
      <span id={`${props.id}-mention-hint`} className="visually-hidden">Type @ to mention a member.</span>
      <span className="visually-hidden" role="status">
        {!open ? "" : matches.length === 0 ? `No member matches “${at.query}”.` : `${matches.length} member${matches.length === 1 ? "" : "s"} to mention: up and down to choose, Enter to pick, Escape to close.`}
      </span>
      {open && matches.length === 0 && <p className="mention-list muted">No member matches “{at.query}”.</p>}
      {open && matches.length > 0 && (
        <ul id={listId} className="mention-list" role="listbox" aria-label="Members to mention">
          {matches.map((m) => (
            <li
              key={m.id}
              id={optionId(m)}
              role="option"
              aria-selected={m === current}
              // Keeps the focus (and the cursor) in the text while a member is clicked.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(m)}
            >
              <span>{m.displayName}</span>
              {m.email === undefined ? null : <span className="muted"> {m.email}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** A comment's or reply's markdown as written, its `@[Name](user:id)` mentions shown as "@Name" chips. */
export const CommentText = (props: { readonly markdown: string }) => (
  <p className="comment-text">
    {splitMentions(props.markdown).map((part, i) =>
      part.kind === "text" ? part.text : <span key={i} className="mention-chip" data-user={part.userId}>@{part.name}</span>
    )}
  </p>
)
