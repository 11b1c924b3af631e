/**
 * The platform's use cases as a server composes them for these tests: with live editing's
 * StoredLiveMarkdown on the editor's codec (`@quire/live`), which every composition must choose.
 */
import { Layer } from "effect"
import { CollabStoredMarkdown } from "@quire/live"
import * as Services from "../src/Services.ts"

export const layerMemory = Services.layerMemory.pipe(Layer.provide(CollabStoredMarkdown.layer))
export const layerSql = Services.layerSql.pipe(Layer.provide(CollabStoredMarkdown.layer))
