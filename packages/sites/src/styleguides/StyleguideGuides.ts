/** The use cases on a site's guide: the templates, the organization's guides, making a site's guide and reading its rules. */
import { Effect, Option } from "effect"
import { documentHash, type PageNode, type SpaceAccess } from "@quire/content"
import { Actor, Errors } from "@quire/kernel"
import type { SiteAccess } from "../SiteAccess.ts"
import type { StyleguideContext } from "./StyleguideContext.ts"
import { withoutModel } from "./StyleguideModel.ts"
import { styleguideTemplate, styleguideTemplates } from "./StyleguideTemplates.ts"

const bad = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

export const guides = (ctx: StyleguideContext) => {
  const { guard, repo, spaces, content, model, ids, transactor, now, spaceOf, rulesOf, guideOf } = ctx

  const templates = Effect.fn("Styleguides.templates")(function*(organizationId: string) {
    yield* guard.member(organizationId)
    return styleguideTemplates
  })

  const listForOrganization = Effect.fn("Styleguides.listForOrganization")(function*(organizationId: string) {
    yield* guard.member(organizationId)
    const bySpace = new Map<string, { space: SpaceAccess; sites: Array<SiteAccess> }>()
    for (const guide of yield* repo.guidesOf(organizationId)) {
      const site = yield* guard.site(organizationId, guide.siteId).pipe(Effect.option)
      const space = bySpace.get(guide.spaceId)?.space ?? Option.getOrUndefined(yield* spaceOf(guide))
      if (space === undefined) continue
      const entry = bySpace.get(guide.spaceId) ?? { space, sites: [] }
      if (Option.isSome(site)) entry.sites.push(site.value)
      bySpace.set(guide.spaceId, entry)
    }
    return Array.from(bySpace.values())
  })

  const ensure = Effect.fn("Styleguides.ensure")(function*(organizationId: string, siteId: string, template: string | undefined) {
    const { site } = yield* guard.editor(organizationId, siteId, "make this site's style guide")
    const chosen = template === undefined ? undefined : styleguideTemplate(template)
    if (template !== undefined && chosen === undefined) {
      return yield* bad("template", `is not a style guide template; the templates are ${styleguideTemplates.map((t) => t.id).join(", ")}`)
    }
    const existing = yield* repo.guideOf(siteId)
    if (Option.isSome(existing)) {
      const space = yield* spaceOf(existing.value)
      if (Option.isSome(space)) return space.value
    }
    const made = yield* spaces.create(organizationId, { title: `${site.title} style guide`, emoji: chosen?.emoji ?? "✍️" })
    const markdown = chosen?.markdown ?? "# Style guide\n\nWrite each rule under a `##` heading. A line such as `Avoid: \"simply\".`, `Use \"sign in\", not \"log in\".` or `Sentences: at most 25 words.` is checked without a model.\n"
    yield* content.commit(made.space.id, (parent) =>
      Effect.gen(function*() {
        const at = (yield* now).toISOString()
        const document = documentHash(markdown)
        const page: PageNode = { id: yield* ids.make, type: "document", title: "Style guide", slug: "style-guide", document, createdAt: at, updatedAt: at, pages: [] }
        return { pages: [...parent.pages, page], documents: new Map([[document, markdown]]) }
      }))
    const { userId } = yield* Actor.Actor
    yield* repo.putGuide({ siteId, organizationId, spaceId: made.space.id, template: chosen?.id ?? null, createdAt: yield* now, createdBy: userId })
    return yield* spaces.get(made.space.id)
  }, transactor.transaction)

  const get = Effect.fn("Styleguides.get")(function*(organizationId: string, siteId: string) {
    yield* guard.site(organizationId, siteId)
    const { guide, space } = yield* guideOf(siteId)
    const rules = yield* rulesOf(space.space.id)
    return { guide, space, rules, model: Option.isSome(model), withoutModel: Option.isSome(model) ? null : withoutModel }
  })

  return { templates, listForOrganization, ensure, get }
}
