/**
 * A change request's reusable contents changed (renamed or deleted from the sidebar): open editors
 * of the same change request read the list again, so their include blocks show the new titles.
 */
const eventName = "quire:reusable-changed"

interface Changed { readonly spaceId: string; readonly number: number }

export const announceReusableChanged = (changed: Changed): void => {
  window.dispatchEvent(new CustomEvent<Changed>(eventName, { detail: changed }))
}

/** Calls `listener` on each change to this change request's reusable contents; returns how to stop. */
export const onReusableChanged = (changed: Changed, listener: () => void): (() => void) => {
  const handle = (event: Event) => {
    const detail = (event as CustomEvent<Changed>).detail
    if (detail.spaceId === changed.spaceId && detail.number === changed.number) listener()
  }
  window.addEventListener(eventName, handle)
  return () => window.removeEventListener(eventName, handle)
}
