/**
 * A test SAML identity provider: builds responses and signs their assertion (or nothing) with
 * xml-crypto, under the committed test key (test/fixtures, NOT a secret) or a key of the caller.
 */
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { SignedXml } from "xml-crypto"

export const idpKey = readFileSync(new URL("../fixtures/test-idp-key.pem", import.meta.url), "utf8")
export const idpCertificate = readFileSync(new URL("../fixtures/test-idp-certificate.pem", import.meta.url), "utf8")
export const idpEntityID = "https://idp.quire.test/saml"
export const idpSsoURL = "https://idp.quire.test/sso"

export interface ResponseOptions {
  readonly email: string
  readonly audience: string
  readonly destination: string
  readonly inResponseTo?: string | undefined
  /** Signing key of the assertion; `null` leaves it unsigned. Defaults to the test key. */
  readonly key?: string | null | undefined
  /** When the assertion was issued (its window is issue - 1 min .. issue + 5 min). */
  readonly issuedAt?: Date | undefined
  readonly assertionId?: string | undefined
  readonly displayName?: string | undefined
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z")

/** A base64 `SAMLResponse` as an IdP would POST it. */
export const response = (options: ResponseOptions): string => {
  const issued = options.issuedAt ?? new Date()
  const notBefore = new Date(issued.getTime() - 60_000)
  const notAfter = new Date(issued.getTime() + 5 * 60_000)
  const assertionId = options.assertionId ?? `_a${randomUUID()}`
  const inResponseTo = options.inResponseTo === undefined ? "" : ` InResponseTo="${options.inResponseTo}"`
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(issued)}">` +
    `<saml:Issuer>${idpEntityID}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(notAfter)}" Recipient="${options.destination}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notAfter)}"><saml:AudienceRestriction><saml:Audience>${options.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(issued)}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (options.displayName === undefined ? "" : `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${options.displayName}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`) +
    `</saml:Assertion>`
  const key = options.key === undefined ? idpKey : options.key
  const signed = key === null ? assertion : sign(assertion, key)
  const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(issued)}" Destination="${options.destination}"${inResponseTo}>` +
    `<saml:Issuer>${idpEntityID}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signed +
    `</samlp:Response>`
  return Buffer.from(xml, "utf8").toString("base64")
}

const sign = (assertion: string, key: string): string => {
  const signer = new SignedXml({
    privateKey: key,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#"
  })
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256"
  })
  signer.computeSignature(assertion, {
    location: { reference: "//*[local-name(.)='Issuer']", action: "after" }
  })
  return signer.getSignedXml()
}

/** The AuthnRequest ID inside a redirect URL's `SAMLRequest` (deflated, base64). */
export const requestIdOf = async (redirectUrl: string): Promise<string> => {
  const { inflateRawSync } = await import("node:zlib")
  const request = new URL(redirectUrl).searchParams.get("SAMLRequest") ?? ""
  const xml = inflateRawSync(Buffer.from(request, "base64")).toString("utf8")
  return /\sID="([^"]+)"/.exec(xml)?.[1] ?? ""
}
