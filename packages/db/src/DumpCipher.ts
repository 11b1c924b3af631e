/**
 * A dump sealed with a passphrase (`quire db dump --passphrase-file`, `QUIRE_DUMP_PASSPHRASE`):
 * one header line, `QUIRE-DUMP-ENCRYPTED 1 {json}`, whose JSON names the key derivation (scrypt,
 * its cost and salt), the AES-256-GCM nonce and a check of the key; then the gzipped lines under
 * AES-256-GCM (the header line authenticated with them), and the 16-byte tag last. A wrong
 * passphrase is refused at once (the check), an altered or cut file at the end (the tag), before
 * `restore` touches the database.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt } from "node:crypto"
import { open } from "node:fs/promises"
import { createReadStream } from "node:fs"
import type { Readable, Transform } from "node:stream"
import { sameSecret } from "@quire/kernel"

const magic = "QUIRE-DUMP-ENCRYPTED"
const version = 1
/** scrypt's cost: 2^15 × 8 × 128 bytes = 32 MiB and about 0.1 s a derivation. */
const cost = { N: 2 ** 15, r: 8, p: 1 } as const
const tagBytes = 16
/** The longest header line read back. */
const headerLimit = 4096

interface Header {
  readonly kdf: "scrypt"
  readonly N: number
  readonly r: number
  readonly p: number
  readonly salt: string
  readonly iv: string
  /** HMAC-SHA256 of a constant under the derived check key: a wrong passphrase is named as such. */
  readonly check: string
}

/** A passphrase that cannot open the dump, or a dump that was altered: in words for the person. */
export class DumpCipherError extends Error {
  override readonly name = "DumpCipherError"
}

/** 64 bytes of scrypt: the first 32 the cipher's key, the last 32 the check's. */
const derive = (passphrase: string, salt: Buffer, header: Pick<Header, "N" | "r" | "p">) =>
  new Promise<{ readonly key: Buffer; readonly check: Buffer }>((resolve, reject) =>
    scrypt(passphrase.normalize("NFC"), salt, 64, { N: header.N, r: header.r, p: header.p, maxmem: 256 * header.N * header.r }, (error, bytes) => {
      if (error !== null) reject(error)
      else resolve({ key: bytes.subarray(0, 32), check: createHmac("sha256", bytes.subarray(32)).update("quire dump passphrase check").digest() })
    })
  )

/** The header line and the cipher of a new encrypted dump: write the line, then the cipher's output, then its tag. */
export const encrypt = async (passphrase: string): Promise<{ readonly headerLine: Buffer; readonly cipher: Transform & { getAuthTag(): Buffer } }> => {
  if (passphrase === "") throw new DumpCipherError("The dump passphrase is empty")
  const salt = randomBytes(16)
  const iv = randomBytes(12)
  const { check, key } = await derive(passphrase, salt, cost)
  const header: Header = { kdf: "scrypt", ...cost, salt: salt.toString("base64"), iv: iv.toString("base64"), check: check.toString("base64") }
  const headerLine = Buffer.from(`${magic} ${version} ${JSON.stringify(header)}\n`, "utf8")
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(headerLine)
  return { headerLine, cipher }
}

/** The header line of `path` when it is an encrypted dump; none for any other file. */
const readHeader = async (path: string): Promise<{ readonly line: Buffer; readonly header: Header; readonly size: number } | undefined> => {
  const file = await open(path, "r")
  try {
    const size = (await file.stat()).size
    const buffer = Buffer.alloc(Math.min(headerLimit, size))
    await file.read(buffer, 0, buffer.length, 0)
    if (!buffer.subarray(0, magic.length).equals(Buffer.from(magic))) return undefined
    const end = buffer.indexOf(0x0a)
    if (end === -1) throw new DumpCipherError(`${path} is damaged: its encryption header has no end`)
    const line = buffer.subarray(0, end + 1)
    const [, v, json] = /^\S+ (\d+) (.*)\n$/s.exec(line.toString("utf8")) ?? []
    if (Number(v) !== version) throw new DumpCipherError(`${path} is encrypted in a format this quire does not read (${v}): use a newer Quire`)
    const header = JSON.parse(json ?? "") as Header
    if (header.kdf !== "scrypt" || !(header.N <= 2 ** 20 && header.r <= 16 && header.p <= 4)) {
      throw new DumpCipherError(`${path} names a key derivation this quire does not accept`)
    }
    return { line, header, size }
  } finally {
    await file.close()
  }
}

/** Whether the file at `path` is an encrypted dump. */
export const isEncrypted = async (path: string): Promise<boolean> => (await readHeader(path)) !== undefined

/**
 * The bytes of the dump at `path` as written before encryption (gzipped lines): the file itself
 * when it is not encrypted, else its body through the cipher of `passphrase`. Without a
 * passphrase, or with a wrong one, an encrypted dump is refused with a message saying so; an
 * altered one fails at its end.
 */
export const openDump = async (path: string, passphrase: string | undefined): Promise<{
  readonly stream: Readable
  /** Settles once the stream ended: rejected when the dump's tag does not authenticate what was read. */
  readonly verified: Promise<void>
}> => {
  const found = await readHeader(path)
  if (found === undefined) return { stream: createReadStream(path), verified: Promise.resolve() }
  if (passphrase === undefined || passphrase === "") {
    throw new DumpCipherError(`${path} is encrypted: give its passphrase (--passphrase-file FILE, or QUIRE_DUMP_PASSPHRASE)`)
  }
  const { header, line, size } = found
  if (size < line.length + tagBytes) throw new DumpCipherError(`${path} was cut short: it has no authentication tag`)
  const { check, key } = await derive(passphrase, Buffer.from(header.salt, "base64"), header)
  if (!sameSecret(header.check, check.toString("base64"))) {
    throw new DumpCipherError(`Wrong passphrase for ${path}: it does not open this dump`)
  }
  const tag = Buffer.alloc(tagBytes)
  const file = await open(path, "r")
  try {
    await file.read(tag, 0, tagBytes, size - tagBytes)
  } finally {
    await file.close()
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(header.iv, "base64"))
  decipher.setAAD(line)
  decipher.setAuthTag(tag)
  const body = createReadStream(path, { start: line.length, end: size - tagBytes - 1 })
  body.on("error", (error) => decipher.destroy(error))
  // A reader that stops early (one that only wanted the manifest) closes the file too.
  decipher.once("close", () => body.destroy())
  const verified = new Promise<void>((resolve, reject) => {
    decipher.once("end", resolve)
    decipher.once("error", () => reject(new DumpCipherError(`${path} was altered or cut short: its authentication tag does not match (nothing was restored)`)))
  })
  verified.catch(() => undefined)
  return { stream: body.pipe(decipher), verified }
}
