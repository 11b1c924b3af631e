/**
 * What an include names: a reusable content by id (`/reusable-content/<id>`, GitBook's own form), and
 * whether a page's markdown includes one. Pure and light, so screens outside the editor use it too.
 */
import * as Syntax from "@quire/document/syntax"

/** The id a path names, when it names a reusable content (GitBook's other includes are files). */
export const reusableIdOf = (path: string): string | undefined => /^\/?reusable-content\/([^/]+)\/?$/.exec(path)?.[1]

/** Whether `markdown` has an include of reusable content `id` (read with the one tag grammar). */
export const includesReusable = (markdown: string, id: string): boolean =>
  Syntax.tagsIn(markdown).some((tag) => tag.name === "include" && tag.params?.some((param) => param.key === null && reusableIdOf(param.value) === id) === true)
