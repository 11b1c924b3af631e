/**
 * The translations screen's queries and writes. Reactivity key: `translations:<org>` (the list);
 * creating one also touches `org:<org>` (its result space is a new space of the organization).
 */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const translationsKey = (organizationId: string) => `translations:${organizationId}`

export const translationsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("translations", "listTranslations", { params: { organizationId }, query: { limit: 100 }, reactivityKeys: [translationsKey(organizationId)] }))

/** Whether this server has a translation provider, else the setting that enables one (Quire's). */
export const providerAtom = Atom.family((organizationId: string) =>
  QuireApi.query("translations", "getTranslationsProvider", { params: { organizationId } }))

export const createTranslation = QuireApi.mutation("translations", "createTranslation")
export const updateTranslation = QuireApi.mutation("translations", "updateTranslation")
export const runTranslation = QuireApi.mutation("translations", "runTranslation")
export const deleteTranslation = QuireApi.mutation("translations", "deleteTranslation")
