/** Ask's model port lives in content, beside the retrieval every Ask shares; sites answers with it. */
export { AskModel, AskModelError, type AskModelShape, notConfigured } from "@quire/content"
