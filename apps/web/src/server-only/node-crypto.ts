/**
 * Stands in for `node:crypto` in the browser build (vite.config.ts): the API contract's domain
 * modules import it for ids, hashes and signed tokens, which only the server makes. The app never
 * calls these (a call is a bug and says so), except `randomBytes`, which one module calls as it loads.
 */
const serverOnly = (name: string) => () => {
  throw new Error(`node:crypto ${name} is server-only and was called in the browser`)
}

export const createCipheriv = serverOnly("createCipheriv")
export const createDecipheriv = serverOnly("createDecipheriv")
export const createHash = serverOnly("createHash")
export const createHmac = serverOnly("createHmac")
export const hkdfSync = serverOnly("hkdfSync")
/** Random bytes from the browser's generator: the kernel's signed tokens draw a process secret when loaded. */
export const randomBytes = (size: number): Uint8Array => crypto.getRandomValues(new Uint8Array(size))
export const timingSafeEqual = serverOnly("timingSafeEqual")
