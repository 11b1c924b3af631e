/**
 * What a writer typed that the server will not keep, offered back to them: the page was deleted
 * from the change request, the change request was merged or archived, or their role now lets them
 * only read it (the server's close reason, live.ts's `refusalStrands`), or a change request opened
 * read-only whose page this browser kept edits of (`kept`). The sentence says what happened; the
 * text can be copied, read, or made into a new change request (from the space's content now, so
 * after a merge it holds exactly what the merge missed).
 */
import { useEffect, useId, useState } from "react"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { changeRequestWithText, getChangeRequest } from "./content.ts"
import { refusalSentence } from "./live.ts"

/** The text the server will not keep, why (a close reason, or `kept`), and how to forget the copy this browser kept of it. */
export interface Stranded {
  readonly reason: string
  readonly markdown: string
  readonly discard: () => void
}

/** The page the text was typed in, and its change request. */
export interface StrandedPage {
  readonly spaceId: string
  readonly number: number
  readonly pageId: string
  readonly title: string
}

const codeOf = (reason: string) => reason.split(":")[0]!.trim()

/** The change request as it is now: merged (by whom) or archived, when it is. */
interface Now {
  readonly status: string
  readonly mergedBy: string | undefined
}

/** The sentence, from the reason and what the change request says of itself now (who merged it). */
const sentenceOf = (reason: string, title: string, now: Now | undefined): string => {
  const code = codeOf(reason)
  if (code === "page-deleted") return `“${title}” was deleted from this change request while you had it open. What you typed in it is not kept there.`
  const kept = code === "kept"
  if (now?.status === "merged" || code === "merged") {
    const who = now?.mergedBy ?? "Someone"
    return kept ? `${who} merged this change request before this browser could send your last changes to this page: they are not in it.`
      : `${who} merged this change request. What you typed after that is not in it.`
  }
  if (now?.status === "archived" || code === "archived") {
    return kept ? "This change request was archived before this browser could send your last changes to this page: they are not saved."
      : "This change request was archived. What you typed after that is not saved."
  }
  return kept ? "This page can no longer be edited here. This browser kept changes to it that never reached the server: they are not in it." : refusalSentence(reason)
}

export const StrandedText = (props: {
  readonly reason: string
  /** The text, once read from the editor's document (none while it is). */
  readonly stranded: Stranded | undefined
  readonly page: StrandedPage
}) => {
  const registry = useRegistry()
  const id = useId()
  const [now, setNow] = useState<Now | undefined>(undefined)
  const [said, setSaid] = useState("")
  const [busy, setBusy] = useState(false)
  const [shown, setShown] = useState(false)
  const [gone, setGone] = useState(false)
  const { spaceId, number } = props.page
  // Who merged it, or whether it was archived, said in the words.
  useEffect(() => {
    let live = true
    callApi(registry, getChangeRequest(spaceId, number)).then(
      (cr) => live && setNow({ status: cr.status, mergedBy: cr.mergedBy?.displayName }),
      // Unknown: the reason's own words.
      () => live && setNow({ status: "", mergedBy: undefined })
    )
    return () => {
      live = false
    }
  }, [registry, spaceId, number])
  // Said once, in its final words: not "Someone merged" and then a name.
  if (gone || now === undefined) return null
  const text = props.stranded?.markdown
  const copy = async () => {
    if (text === undefined) return
    try {
      await navigator.clipboard.writeText(text)
      setSaid("Copied to the clipboard.")
    } catch {
      setShown(true)
      setSaid("This browser did not let the page copy it: select the text below and copy it.")
    }
  }
  const start = () => {
    if (text === undefined) return
    setBusy(true)
    setSaid("Starting a new change request…")
    const subject = `Text kept from change request #${props.page.number}`
    callApi(registry, changeRequestWithText(props.page.spaceId, subject, { id: props.page.pageId, title: props.page.title }, text)).then(
      (created) => {
        props.stranded?.discard()
        navigate(`/s/${props.page.spaceId}/~/changes/${created.number}${created.path === "" ? "" : `/${created.path}`}`)
      },
      (failure: unknown) => {
        setBusy(false)
        setSaid(`Could not start a new change request: ${failure instanceof Error ? failure.message : String(failure)}. Copy your text instead.`)
      }
    )
  }
  const discard = () => {
    props.stranded?.discard()
    setGone(true)
  }
  return (
    <section className="stranded panel" aria-labelledby={`${id}-words`}>
      <p id={`${id}-words`} role="alert" className="stranded-words">{sentenceOf(props.reason, props.page.title, now)}</p>
      <div className="stranded-actions">
        <button type="button" disabled={text === undefined || busy} onClick={() => void copy()}>Copy my text</button>
        <button type="button" className="primary" disabled={text === undefined || busy} onClick={start}>Start a new change request with it</button>
        <button type="button" aria-expanded={shown} aria-controls={`${id}-text`} disabled={text === undefined} onClick={() => setShown(!shown)}>{shown ? "Hide my text" : "Show my text"}</button>
        <button type="button" disabled={busy} onClick={discard}>Discard it</button>
      </div>
      <p role="status" className="stranded-said">{said}</p>
      {shown && text !== undefined
        ? <textarea id={`${id}-text`} className="stranded-text" readOnly aria-label="Your text" value={text} rows={Math.min(12, text.split("\n").length + 1)} />
        : null}
    </section>
  )
}
