/**
 * "Edit": the person's own change request in the space, open or in draft (the most recently
 * updated), else a new one; answers its number.
 */
import { v1 } from "./api.ts"

interface Listed { readonly items: ReadonlyArray<{ readonly number: number; readonly status: string }> }

export const openOrReuseChangeRequest = async (spaceId: string): Promise<number> => {
  const me = await v1<{ readonly id: string }>("GET", "/user")
  const space = encodeURIComponent(spaceId)
  const mine = await v1<Listed>("GET", `/spaces/${space}/change-requests?creator=${encodeURIComponent(me.id)}&status=draft&status=open&orderBy=updatedAt&limit=1`)
  const found = mine.items[0]
  if (found !== undefined) return found.number
  const created = await v1<{ readonly number: number }>("POST", `/spaces/${space}/change-requests`, { subject: "Edits" })
  return created.number
}
