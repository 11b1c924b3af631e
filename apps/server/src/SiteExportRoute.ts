/**
 * A published site as a zip of static files (docs/sites.md, "Exporting a site"). `exportSite`
 * (handlers/SiteExportHandlers.ts) checks the caller and answers a signed link to
 * `/~exports/<token>`, which this route serves: the files of `SiteExports` zipped as they come, so
 * that a large site streams rather than being held whole. The token names the organization and the
 * site, and expires as file links do (FileLinks.ts).
 */
import { Context, Effect, Layer, Option, Schema, Stream } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Zip, ZipDeflate, ZipPassThrough } from "fflate"
import { SignedToken } from "@quire/kernel"
import { type ExportFile, PublishedSites, SiteExports, siteRoot } from "@quire/sites"
import { envelope } from "./ErrorEnvelope.ts"
import { expiryOf } from "./FileLinks.ts"
import { PublicUrl } from "./PublicUrl.ts"

/** The path of the download route; the token follows. */
export const exportsPrefix = "/~exports/"

const Grant = Schema.Struct({ organizationId: Schema.String, siteId: Schema.String })

/** Signed links of site exports, with a key of their own purpose. */
export class SiteExportLinks extends Context.Service<SiteExportLinks, {
  /** The download URL of the site's export, valid for at least an hour. */
  readonly sign: (organizationId: string, siteId: string) => Effect.Effect<string>
  readonly verify: (token: string) => Effect.Effect<Option.Option<typeof Grant.Type>>
}>()("@quire/server/SiteExportLinks") {
  static readonly layer = Layer.effect(
    SiteExportLinks,
    Effect.gen(function*() {
      const key = yield* SignedToken.keyFor("site-exports")
      const urls = yield* PublicUrl
      return SiteExportLinks.of({
        sign: (organizationId, siteId) =>
          Effect.map(SignedToken.nowSeconds, (now) =>
            urls.app(`${exportsPrefix}${SignedToken.sign(key, Grant, { organizationId, siteId }, { expiresAt: expiryOf(now) })}`)),
        verify: (token) =>
          Effect.map(SignedToken.nowSeconds, (now) => Option.map(SignedToken.verify(key, Grant, token, now), ({ value }) => value))
      })
    })
  )
}

/** Compressed types are stored as they are; text is deflated. */
const storedAsIs = (path: string) => /\.(?:png|jpe?g|gif|webp|avif|woff2?|zip|gz|mp4|webm|pdf)$/i.test(path) || path.startsWith("~files/")

/** `files` as a zip, made as they come: each file's bytes (or stream) pushed through fflate, its output passed on. */
export const zipStream = <E, R>(files: Stream.Stream<ExportFile, E, R>): Stream.Stream<Uint8Array, E, R> =>
  Stream.suspend(() => {
    const out: Array<Uint8Array> = []
    const zip = new Zip((error, chunk) => {
      if (error !== null) throw error
      out.push(chunk)
    })
    const drain = () => out.splice(0, out.length)
    const entry = (file: ExportFile): Stream.Stream<Uint8Array> => {
      const member = storedAsIs(file.path) ? new ZipPassThrough(file.path) : new ZipDeflate(file.path, { level: 6 })
      zip.add(member)
      if ("bytes" in file) {
        member.push(file.bytes, true)
        return Stream.fromIterable(drain())
      }
      return Stream.concat(
        Stream.flatMap(file.stream, (chunk) => {
          member.push(chunk, false)
          return Stream.fromIterable(drain())
        }),
        Stream.suspend(() => {
          member.push(new Uint8Array(0), true)
          return Stream.fromIterable(drain())
        })
      )
    }
    return Stream.concat(
      Stream.flatMap(files, entry),
      Stream.suspend(() => {
        zip.end()
        return Stream.fromIterable(drain())
      })
    )
  })

/** A file name of the site's title: characters file systems refuse become spaces. */
export const exportName = (title: string, fallback: string): string =>
  `${[...title].map((c) => (c < " " || '\\/:*?"<>|'.includes(c) ? " " : c)).join("").trim() || fallback}.zip`

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const links = yield* SiteExportLinks
  const exports = yield* SiteExports
  const published = yield* PublishedSites
  const publicUrl = yield* PublicUrl
  const notFound = envelope(404, "This export link is not valid, or has expired: ask for a new one")
  // A wildcard, not `:token`: the router caps named parameters.
  yield* router.add("GET", `${exportsPrefix}*`, Effect.gen(function*() {
    const { "*": token } = yield* HttpRouter.params
    const grant = token === undefined ? Option.none() : yield* links.verify(token)
    if (Option.isNone(grant)) return notFound
    const found = yield* published.byId(grant.value.siteId)
    if (Option.isNone(found) || found.value.site.organizationId !== grant.value.organizationId || !found.value.site.published) return notFound
    const site = found.value
    const name = exportName(site.site.title, site.site.id)
    return HttpServerResponse.stream(zipStream(exports.files(site, siteRoot(site.site, publicUrl.base))), {
      contentType: "application/zip",
      headers: {
        "cache-control": "private, no-store",
        "content-disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`
      }
    })
  }))
}))
