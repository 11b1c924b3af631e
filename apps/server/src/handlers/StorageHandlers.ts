/** Handlers of the storage group: signed URLs a client sends one file's bytes to. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Organizations } from "@quire/identity"
import { CustomFonts } from "@quire/sites"
import { Actor, Errors, Ids, Roles, SignedToken } from "@quire/kernel"
import * as DomainErrors from "../DomainErrors.ts"
import { describeLimit, MaxUploadBytes } from "../FileUploadRoute.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as StorageUploads from "../StorageUploads.ts"

export const layer = HttpApiBuilder.group(Api, "storage", Effect.fn(function*(handlers) {
  const organizations = yield* Organizations
  const urls = yield* PublicUrl
  const max = yield* Effect.orDie(MaxUploadBytes)
  const key = yield* StorageUploads.key
  const fonts = yield* CustomFonts
  return handlers.handle("generateStorageUploadURL", ({ params, payload }) =>
    Effect.gen(function*() {
      // A font's file goes where custom fonts keep theirs (a WOFF2 or WOFF, admins only): its key is a face's `storageKey`.
      if (payload.kind === "customization_font") {
        const { storageKey, token } = yield* fonts.signUpload(params.organizationId, payload.file)
        return { object: "storage-signed-url" as const, url: `${urls.api(`/orgs/${params.organizationId}/fonts/files`)}?upload=${encodeURIComponent(token)}`, key: storageKey }
      }
      const actor = yield* Actor.Actor
      const { membership } = yield* organizations.access(params.organizationId)
      // An import's file is an editor's to give, as the import itself; the organization's own files an admin's.
      const required = payload.kind === "import_file" ? "edit" : "admin"
      if (!Roles.atLeast(membership.role, required)) {
        return yield* new Errors.Forbidden({ reason: `Uploading a ${payload.kind} needs the ${required} role in the organization` })
      }
      if (payload.file.size > max) {
        return yield* new Errors.InvalidInput({ field: "file.size", reason: `the file is larger than ${describeLimit(max)}, the largest file this server takes` })
      }
      const fileKey = Ids.randomId(20)
      const token = yield* SignedToken.issue(key, StorageUploads.UploadClaims, {
        organization: params.organizationId,
        user: actor.userId,
        kind: payload.kind,
        name: payload.file.name,
        type: payload.file.type,
        size: payload.file.size,
        key: fileKey
      }, { expiresIn: StorageUploads.uploadUrlSeconds })
      return { object: "storage-signed-url" as const, url: `${urls.base.replace(/\/$/, "")}${StorageUploads.uploadPath(token)}`, key: fileKey }
    }).pipe(DomainErrors.api))
}))
