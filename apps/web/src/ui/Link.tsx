import type { AnchorHTMLAttributes, MouseEvent } from "react"
import { navigate } from "../router.ts"

/** A link within the app: a plain click navigates without a reload; modified clicks stay the browser's. */
export const Link = (props: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly href: string }) => {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(event)
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(props.href)
  }
  return <a {...props} onClick={onClick} />
}

/** The app's path of an absolute `urls.app` the API answered (same origin). */
export const appPath = (url: string) => {
  try {
    const parsed = new URL(url, window.location.origin)
    return `${parsed.pathname}${parsed.search}${parsed.hash}`
  } catch {
    return url
  }
}
