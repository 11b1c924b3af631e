/**
 * The one HTML escape of the server and the published site: text and attribute values (double-
 * or single-quoted) of HTML, and of XML (the sitemap), where `&#39;` is as valid as `&apos;`.
 * Pure and browser-safe.
 */

const entities: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;"
}

/** Escapes the five characters that matter in HTML or XML text and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c] ?? c)
