import { describe, expect, it } from "@effect/vitest"
import { createHash, createPrivateKey, generateKeyPairSync, X509Certificate } from "node:crypto"
import { selfSignedCertificate, serialOf } from "../src/SpCertificate.ts"

/** A key-like buffer whose hash starts as `test` wants (a few hundred tries at most). */
const spkiWhoseHash = (test: (hash: Buffer) => boolean) => {
  for (let i = 0; ; i++) {
    const spki = Buffer.from(`key ${i}`)
    if (test(createHash("sha256").update(spki).digest())) return spki
  }
}

describe("the SP certificate", () => {
  it("has a serial every DER parser reads: positive and minimal whatever the key's hash", () => {
    // Hashes starting 0x00 or 0x80 then a byte below 0x80 gave a non-minimal INTEGER, refused by OpenSSL.
    for (const first of [0x00, 0x80]) {
      const serial = serialOf(spkiWhoseHash((hash) => hash[0] === first && hash[1]! < 0x80))
      expect(serial[0]).toBe(1)
    }
    // A zero that the next byte needs (it is 0x80 or above) stays: the INTEGER is positive and minimal.
    const needed = serialOf(spkiWhoseHash((hash) => hash[0] === 0x80 && hash[1]! >= 0x80))
    expect(needed[0]).toBe(0)
    // Otherwise the serial is the hash's first 16 bytes, top bit cleared, as before: published certificates do not change.
    const spki = spkiWhoseHash((hash) => hash[0] === 0xc3)
    expect(serialOf(spki).toString("hex")).toBe(Buffer.concat([Buffer.from([0x43]), createHash("sha256").update(spki).digest().subarray(1, 16)]).toString("hex"))
  })

  it("is a certificate node:crypto reads, from PEM and from the DER the SP metadata carries", () => {
    const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    const pem = selfSignedCertificate(key, "Quire SAML service provider")
    const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s/g, ""), "base64")
    expect(new X509Certificate(der).subject).toBe("CN=Quire SAML service provider")
    // The certificate is of the key it was made from.
    expect(new X509Certificate(pem).checkPrivateKey(createPrivateKey(key))).toBe(true)
  })
})
