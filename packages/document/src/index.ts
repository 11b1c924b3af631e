/**
 * A page's document, browser-safe (no Node module, no DOM at load): what the editor and the
 * server must agree on byte for byte.
 */
export * as Syntax from "./syntax/Syntax.ts"
