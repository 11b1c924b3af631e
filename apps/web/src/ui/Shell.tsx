/**
 * The frame of every signed-in screen: the brand, the organization switcher, search (the command
 * palette, Ctrl/Cmd-K), the notifications bell with the unread count, the theme toggle and the
 * person's menu (settings, sign out).
 */
import { AsyncResult } from "effect/reactivity"
import { type ReactNode, useEffect, useRef, useState } from "react"
import type { SessionInfo } from "../api/auth.ts"
import { signOut } from "../api/auth.ts"
import { organizationsAtom } from "../api/queries.ts"
import { useAtomValue, useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { Bell } from "../features/notifications/Bell.tsx"
import { NewOrganizationOption, newOrganizationValue } from "../features/onboarding/NewOrganizationOption.tsx"
import { Palette } from "../features/palette/Palette.tsx"
import { navigate } from "../router.ts"
import { MoonIcon, SearchIcon, SunIcon } from "./icons.tsx"
import { Link } from "./Link.tsx"
import { useTheme } from "./theme.ts"
import { VerifyEmailBanner } from "./VerifyEmailBanner.tsx"

const OrgSwitcher = (props: { readonly organizationId: string | undefined }) => {
  const orgs = useAtomValue(organizationsAtom)
  if (!AsyncResult.isSuccess(orgs) || orgs.value.items.length === 0) return null
  const items = orgs.value.items
  return (
    <label>
      <span className="visually-hidden">Organization</span>
      <select value={props.organizationId ?? ""} onChange={(event) => navigate(event.target.value === newOrganizationValue ? "/new-organization" : `/o/${event.target.value}`)}>
        {props.organizationId === undefined ? <option value="">Choose an organization</option> : null}
        {items.map((org) => <option key={org.id} value={org.id}>{org.title}</option>)}
        <NewOrganizationOption />
      </select>
    </label>
  )
}

/** Up to two initials of a name, for the narrow header. */
const initialsOf = (name: string) =>
  name.split(/\s+/).filter((part) => part !== "").slice(0, 2).map((part) => part[0]!.toUpperCase()).join("") || "?"

const UserMenu = (props: { readonly info: SessionInfo }) => {
  const [open, setOpen] = useState(false)
  const refresh = useRefresh()
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !root.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener("mousedown", close)
    document.addEventListener("keydown", close)
    return () => {
      document.removeEventListener("mousedown", close)
      document.removeEventListener("keydown", close)
    }
  }, [open])
  const onSignOut = async () => {
    await signOut()
    refresh(sessionAtom)
    navigate("/sign-in", { replace: true })
  }
  return (
    <div className="menu" ref={root}>
      <button type="button" className="user-button" aria-haspopup="true" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="full-name">{props.info.user.displayName}</span>
        <span className="initials" aria-hidden="true">{initialsOf(props.info.user.displayName)}</span>
      </button>
      {open ? (
        <div className="menu-list">
          <span className="who">{props.info.user.email}</span>
          <Link href="/settings/sessions" onClick={() => setOpen(false)}>Settings and sessions</Link>
          <button type="button" onClick={() => void onSignOut()}>Sign out</button>
        </div>
      ) : null}
    </div>
  )
}

const lastOrganizationKey = "quire.organization"

/** The organization of the screen, else the one last opened if the person is still in it (settings belong to none). */
const useCurrentOrganization = (organizationId: string | undefined) => {
  const orgs = useAtomValue(organizationsAtom)
  useEffect(() => {
    if (organizationId !== undefined) window.localStorage.setItem(lastOrganizationKey, organizationId)
  }, [organizationId])
  if (organizationId !== undefined) return organizationId
  const remembered = window.localStorage.getItem(lastOrganizationKey)
  return AsyncResult.isSuccess(orgs) && orgs.value.items.some((org) => org.id === remembered) ? remembered ?? undefined : undefined
}

export const Shell = (props: { readonly organizationId?: string | undefined; readonly children: ReactNode }) => {
  const organizationId = useCurrentOrganization(props.organizationId)
  const session = useAtomValue(sessionAtom)
  const theme = useTheme()
  const [paletteOpen, setPaletteOpen] = useState(false)
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Not a Ctrl/Cmd-K something focused already handled (the editor's link picker).
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k" && !event.defaultPrevented) {
        event.preventDefault()
        setPaletteOpen(true)
      }
    }
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [])
  const info = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info : undefined
  return (
    <>
      <a className="skip-link" href="#content">Skip to content</a>
      <header className="shell-header">
        <Link className="brand" href="/">Quire</Link>
        <OrgSwitcher organizationId={organizationId} />
        <span className="spacer" />
        {organizationId === undefined ? null : (
          <button type="button" className="search-button" onClick={() => setPaletteOpen(true)} aria-keyshortcuts="Control+K Meta+K">
            <SearchIcon /><span className="label">Search…</span><kbd className="label">Ctrl K</kbd>
          </button>
        )}
        {info === undefined ? null : <Bell />}
        <button type="button" onClick={theme.toggle} aria-label={theme.dark ? "Use the light theme" : "Use the dark theme"} title={theme.dark ? "Light theme" : "Dark theme"}>
          {theme.dark ? <SunIcon /> : <MoonIcon />}
        </button>
        {info === undefined ? null : <UserMenu info={info} />}
      </header>
      {info !== undefined && info.user.emailVerified === false && info.emailDelivery === true ? <VerifyEmailBanner email={info.user.email} /> : null}
      <main id="content">{props.children}</main>
      {paletteOpen && organizationId !== undefined
        ? <Palette organizationId={organizationId} onClose={() => setPaletteOpen(false)} />
        : null}
    </>
  )
}
