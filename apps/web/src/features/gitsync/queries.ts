/**
 * The Git sync screen's reads and writes. Reactivity key `git:<space>`: the sync state and the
 * webhook, named by every write of the screen.
 */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const gitKey = (spaceId: string) => `git:${spaceId}`

/** The space's repository and last runs (`getSpaceGitInfo`; a 404 when it has none). */
export const gitInfoAtom = Atom.family((spaceId: string) =>
  QuireApi.query("git", "getSpaceGitInfo", { params: { spaceId }, reactivityKeys: [gitKey(spaceId)] }))

/** The push webhook's URL and secret, for the space's admins (`getSpaceGitWebhook`). */
export const gitWebhookAtom = Atom.family((spaceId: string) =>
  QuireApi.query("git", "getSpaceGitWebhook", { params: { spaceId }, reactivityKeys: [gitKey(spaceId)] }))

export const connectGit = QuireApi.mutation("git", "connectSpaceGitRepository")
export const disconnectGit = QuireApi.mutation("git", "disconnectSpaceGitRepository")
export const importGit = QuireApi.mutation("git", "importGitRepository")
export const exportGit = QuireApi.mutation("git", "exportToGitRepository")
