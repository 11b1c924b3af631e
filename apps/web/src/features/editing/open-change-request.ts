/**
 * "Edit": the person's own change request in the space, open or in draft (the most recently
 * updated), else a new one; answers its number.
 */
import { v1 } from "./api.ts"

interface Listed { readonly items: ReadonlyArray<{ readonly number: number; readonly status: string; readonly updatedAt: string }> }

export const openOrReuseChangeRequest = async (spaceId: string): Promise<number> => {
  const me = await v1<{ readonly id: string }>("GET", "/user")
  const space = encodeURIComponent(spaceId)
  // The space's listing takes one status at a time (GitBook's listChangeRequestsForSpace).
  const [drafts, open] = await Promise.all(["draft", "open"].map((status) =>
    v1<Listed>("GET", `/spaces/${space}/change-requests?creator=${encodeURIComponent(me.id)}&status=${status}`)
  ))
  const found = [...drafts!.items, ...open!.items].toSorted((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]
  if (found !== undefined) return found.number
  const created = await v1<{ readonly number: number }>("POST", `/spaces/${space}/change-requests`, { subject: "Edits" })
  return created.number
}
