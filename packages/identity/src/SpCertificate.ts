/**
 * A self-signed X.509 certificate for the SP signing key, so that the SP metadata can carry
 * it (node:crypto parses certificates but cannot issue one). Deterministic from the key: the
 * serial is a hash of the public key, the validity fixed (2020-01-01 to 2049-12-31), and
 * RSA PKCS#1 v1.5 signatures are deterministic, so every replica publishes the same certificate.
 */
import { createHash, createPrivateKey, createPublicKey, sign } from "node:crypto"

const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n])
  const bytes: Array<number> = []
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}
const tlv = (tag: number, content: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), length(content.length), content])
const sequence = (...items: ReadonlyArray<Buffer>) => tlv(0x30, Buffer.concat(items))
const oid = (dotted: string): Buffer => {
  const [a = 0, b = 0, ...rest] = dotted.split(".").map(Number)
  const bytes = [40 * a + b]
  for (const value of rest) {
    const chunk = [value & 0x7f]
    for (let v = value >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80)
    bytes.push(...chunk)
  }
  return tlv(0x06, Buffer.from(bytes))
}
const sha256WithRsa = sequence(oid("1.2.840.113549.1.1.11"), Buffer.from([0x05, 0x00]))
const name = (commonName: string) =>
  sequence(tlv(0x31, sequence(oid("2.5.4.3"), tlv(0x0c, Buffer.from(commonName, "utf8")))))

/**
 * The certificate's serial: 16 bytes of the key's hash as a positive DER INTEGER in its minimal
 * form. A leading zero byte before a byte below 0x80 is not minimal and strict parsers (OpenSSL's
 * DER reader) refuse the whole certificate, so such a zero becomes 1 (1 key in 256 had it).
 */
export const serialOf = (spki: Buffer): Buffer => {
  const serial = createHash("sha256").update(spki).digest().subarray(0, 16)
  serial[0] = serial[0]! & 0x7f
  if (serial[0] === 0 && serial[1]! < 0x80) serial[0] = 1
  return serial
}

/** The PEM certificate of `privateKeyPem` (RSA), named `commonName`. */
export const selfSignedCertificate = (privateKeyPem: string, commonName: string): string => {
  const privateKey = createPrivateKey(privateKeyPem)
  const spki = createPublicKey(privateKey).export({ type: "spki", format: "der" })
  const serial = serialOf(spki)
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    sha256WithRsa,
    name(commonName),
    sequence(tlv(0x17, Buffer.from("200101000000Z")), tlv(0x17, Buffer.from("491231235959Z"))),
    name(commonName),
    spki
  )
  const signature = sign("sha256", tbs, privateKey)
  const der = sequence(tbs, sha256WithRsa, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])))
  const base64 = der.toString("base64").replace(/.{1,64}/g, "$&\n")
  return `-----BEGIN CERTIFICATE-----\n${base64}-----END CERTIFICATE-----\n`
}
