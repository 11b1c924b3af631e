/**
 * A comment's or reply's emoji reactions: each one a toggle (pressed when the person reacted) with
 * its count, and who reacted in its name and title; "Add a reaction" opens a row of emoji.
 */
import type { Comment } from "@quire/api"
import { type KeyboardEvent, useRef, useState } from "react"

type EmojiReaction = Comment["reactions"][number]

/** The emoji offered, with the words a screen reader says. */
export const emojiChoices: ReadonlyArray<readonly [string, string]> = [
  ["👍", "thumbs up"], ["👎", "thumbs down"], ["😄", "smile"], ["🎉", "party"], ["😕", "confused"], ["❤️", "heart"], ["🚀", "rocket"], ["👀", "eyes"]
]

const names = (r: EmojiReaction) => {
  const list = r.users.map((u) => u.user.displayName)
  return list.length <= 1 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`
}

/** "👍 2: Ada Admin and Rita Reviewer" */
export const reactionLabel = (r: EmojiReaction) => `${r.emoji} ${r.count}: ${names(r) || "nobody"}`

export const Reactions = (props: {
  readonly reactions: ReadonlyArray<EmojiReaction>
  readonly me: string | undefined
  readonly busy: boolean
  /** What the reactions are on, for the add button's name ("this comment", "this reply"). */
  readonly on: string
  readonly onToggle: (emoji: string, add: boolean) => void
}) => {
  const [picking, setPicking] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const mine = (r: EmojiReaction) => props.me !== undefined && r.users.some((u) => u.user.id === props.me)
  const close = () => {
    setPicking(false)
    opener.current?.focus()
  }
  const pick = (emoji: string) => {
    const existing = props.reactions.find((r) => r.emoji === emoji)
    props.onToggle(emoji, existing === undefined || !mine(existing))
    close()
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return
    event.preventDefault()
    close()
  }
  return (
    <div className="reactions">
      {props.reactions.filter((r) => r.count > 0).map((r) => (
        <button
          key={r.emoji}
          type="button"
          className="reaction"
          aria-pressed={mine(r)}
          aria-label={reactionLabel(r)}
          title={`${names(r)} reacted with ${r.emoji}`}
          disabled={props.busy || props.me === undefined}
          onClick={() => props.onToggle(r.emoji, !mine(r))}
        >
          <span aria-hidden="true">{r.emoji}</span> <span aria-hidden="true">{r.count}</span>
        </button>
      ))}
      <button ref={opener} type="button" className="link" aria-expanded={picking} disabled={props.busy || props.me === undefined} onClick={() => setPicking(!picking)}>
        <span aria-hidden="true">☺+</span><span className="visually-hidden">Add a reaction to {props.on}</span>
      </button>
      {picking && (
        <div className="reaction-picker" role="group" aria-label={`Reactions to ${props.on}`} onKeyDown={onKeyDown}>
          {emojiChoices.map(([emoji, words], i) => (
            <button key={emoji} type="button" aria-label={`React with ${words}`} autoFocus={i === 0} onClick={() => pick(emoji)}>{emoji}</button>
          ))}
        </div>
      )}
    </div>
  )
}
