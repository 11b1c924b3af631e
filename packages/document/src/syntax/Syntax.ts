/**
 * GitBook's syntax beyond CommonMark, read the same way by the editor and the server: its
 * liquid-style tags and the frontmatter fences.
 */
export * from "./Fences.ts"
export * from "./Liquid.ts"
export * from "./Tags.ts"
