/**
 * What a site's structure holds beside sections and site spaces: external links (GitBook's
 * `SiteExternalLink`, a tab that opens a URL), the look a site space overrides over the site's
 * customization, and a site's channels (GitBook's `SiteChannel`: where its assistant answers).
 */
import type { SiteCustomization } from "./Customization.ts"

export interface SiteExternalLink {
  readonly id: string
  readonly siteId: string
  readonly title: string
  readonly description: string | null
  readonly icon: string | null
  /** An absolute http(s) URL. */
  readonly url: string
  /** The section group holding the link; null at the site's top level. */
  readonly groupId: string | null
  /** A draft link is not shown on the published site. */
  readonly draft: boolean
  readonly condition: string | null
  /** Among its siblings (sections and groups of the top level, or the group's sections). */
  readonly position: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** The fields of the site's customization a site space overrides (the others come from the site's). */
export interface SiteSpaceCustomizationRecord {
  readonly siteSpaceId: string
  readonly siteId: string
  readonly settings: SiteCustomization
  readonly updatedAt: Date
}

export const channelTypes = ["builtin:slack", "builtin:linear", "builtin:github", "builtin:discord"] as const
export type SiteChannelType = typeof channelTypes[number]
export const channelRoles = ["collaborator", "support"] as const
export type SiteChannelRole = typeof channelRoles[number]

/** The setting each channel type keeps its allowed names under. */
export const channelSettingKey: Record<SiteChannelType, "allowedChannels" | "allowedTeams" | "allowedRepositories"> = {
  "builtin:slack": "allowedChannels",
  "builtin:linear": "allowedTeams",
  "builtin:github": "allowedRepositories",
  "builtin:discord": "allowedChannels"
}

export interface SiteChannel {
  readonly id: string
  readonly siteId: string
  readonly type: SiteChannelType
  /** `{allowedChannels | allowedTeams | allowedRepositories: [...]}` as the type names it. */
  readonly setupSettings: Readonly<Record<string, ReadonlyArray<string>>>
  readonly role: SiteChannelRole
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A customization override for a site space: `null` removes a field (or a nested field) of the override. */
export type CustomizationPatch = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `base` with `patch` over it: objects merge field by field, `null` removes, anything else replaces. */
export const applyPatch = (base: Readonly<Record<string, unknown>>, patch: CustomizationPatch): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    if (value === null) delete out[key]
    else if (isRecord(value)) {
      const merged = applyPatch(isRecord(out[key]) ? out[key] : {}, value)
      if (Object.keys(merged).length === 0) delete out[key]
      else out[key] = merged
    } else out[key] = value
  }
  return out
}

/** The site's customization with a site space's override over it (objects merge, arrays replace). */
export const overlay = (site: SiteCustomization, override: SiteCustomization | undefined): SiteCustomization => {
  if (override === undefined) return site
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...a }
    for (const [key, value] of Object.entries(b)) {
      out[key] = isRecord(value) && isRecord(out[key]) ? merge(out[key], value) : value
    }
    return out
  }
  return merge(site as Record<string, unknown>, override as Record<string, unknown>) as SiteCustomization
}
