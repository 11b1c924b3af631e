/**
 * The link picker (Mod-K, or the toolbar's Link): search the change request's pages and their headings by title,
 * or type a URL. Arrows move through the results, Enter links, Escape goes back to the text.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react"
import { isTypedLink, searchTargets, typedHref, type LinkTarget } from "./link-targets.ts"

export interface LinkPickerProps {
  /** Loads the pages and headings; undefined when the editor was given none (only URLs then). */
  readonly load: (() => Promise<ReadonlyArray<LinkTarget>>) | undefined
  /** The selected link's destination, when the cursor is on a link. */
  readonly current: string | undefined
  readonly onPick: (href: string, text: string) => void
  readonly onRemove: (() => void) | undefined
  readonly onClose: () => void
}

const MAX_SHOWN = 30

export const LinkPicker = ({ load, current, onPick, onRemove, onClose }: LinkPickerProps) => {
  const id = useId()
  const [query, setQuery] = useState(current ?? "")
  const [targets, setTargets] = useState<ReadonlyArray<LinkTarget> | { readonly error: string } | undefined>(load ? undefined : [])
  const [active, setActive] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    input.current?.focus()
    input.current?.select()
    if (!load) return
    let live = true
    load().then((t) => live && setTargets(t), (e: unknown) => live && setTargets({ error: e instanceof Error ? e.message : String(e) }))
    return () => {
      live = false
    }
  }, [load])
  const typed = isTypedLink(query)
  const results = useMemo(
    () => (Array.isArray(targets) ? searchTargets(targets as ReadonlyArray<LinkTarget>, typed ? "" : query).slice(0, typed ? 0 : MAX_SHOWN) : []),
    [targets, query, typed]
  )
  const options: ReadonlyArray<{ readonly href: string; readonly text: string; readonly label: string; readonly detail: string }> = [
    ...(typed && query.trim() !== "" ? [{ href: typedHref(query), text: query.trim(), label: `Link to ${typedHref(query)}`, detail: "URL" }] : []),
    ...results.map((t) => ({ href: t.href, text: t.title, label: t.title, detail: t.kind === "page" ? t.href : `${t.pageTitle} › ${t.href.slice(t.href.indexOf("#"))}` }))
  ]
  const chosen = Math.min(active, Math.max(0, options.length - 1))
  const optionId = (i: number) => `${id}-option-${i}`
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault()
      onClose()
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault()
      if (options.length > 0) setActive((chosen + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length)
    } else if (e.key === "Enter") {
      e.preventDefault()
      const option = options[chosen]
      if (option) onPick(option.href, option.text)
    }
  }
  const status = targets === undefined ? "Loading pages…" : "error" in (targets as object) ? `Could not load the pages: ${(targets as { error: string }).error}`
    : options.length === 0 ? (query.trim() === "" ? "Type a page title or a URL." : "No page matches. Type a URL (https://…) to link to it.") : undefined
  return (
    <div className="quire-link-picker" role="dialog" aria-label="Link" onKeyDown={onKeyDown}>
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-label="Search pages or type a URL"
        placeholder="Search pages or type a URL"
        aria-expanded={options.length > 0}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={options.length > 0 ? optionId(chosen) : undefined}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value)
          setActive(0)
        }}
      />
      <ul id={`${id}-list`} role="listbox" aria-label="Link targets" tabIndex={0}>
        {options.map((o, i) => (
          <li key={`${o.href} ${i}`} id={optionId(i)} role="option" aria-selected={i === chosen}
            onMouseDown={(e) => e.preventDefault()} onClick={() => onPick(o.href, o.text)} onMouseMove={() => i !== chosen && setActive(i)}>
            <span className="quire-insert-title">{o.label}</span>
            <span className="quire-insert-desc">{o.detail}</span>
          </li>
        ))}
      </ul>
      {status === undefined ? null : <p className="quire-link-status" role="status">{status}</p>}
      <div className="quire-link-actions">
        {onRemove ? <button type="button" onClick={onRemove}>Remove link</button> : null}
        <button type="button" onClick={onClose}>Cancel</button>
      </div>
    </div>
  )
}
