/**
 * Content's one document codec (markdown to GitBook's JSON document and back), through its
 * browser-safe subpath; loaded with `import()` by the instructions fields.
 */
export { documentText, markdownDocument } from "@quire/content/markdown/DocumentCodec"
