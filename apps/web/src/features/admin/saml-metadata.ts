/**
 * SAML metadata read in the browser (DOMParser): the identity provider's entity id, its
 * HTTP-Redirect sign-in URL and signing certificate from the IdP metadata an admin pastes or
 * uploads, and Quire's own SP certificate from its `metadataURL`. The API takes the fields, never
 * the XML (GitBook's shape), so the screen fills them from it.
 */
const md = "urn:oasis:names:tc:SAML:2.0:metadata"
const ds = "http://www.w3.org/2000/09/xmldsig#"
const redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"

export interface IdpMetadata {
  readonly entityID: string
  readonly ssoURL: string
  readonly certificate: string
}

/** A certificate's base64 (as metadata holds it, with any spaces) as PEM, 64 characters a line. */
export const pemOf = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${(base64.replace(/\s+/g, "").match(/.{1,64}/g) ?? []).join("\n")}\n-----END CERTIFICATE-----`

const parse = (xml: string): Document | undefined => {
  const document = new DOMParser().parseFromString(xml, "application/xml")
  return document.getElementsByTagName("parsererror").length > 0 ? undefined : document
}

/** The first signing certificate under `element` (a KeyDescriptor without `use`, or `use="signing"`). */
const signingCertificate = (element: Element): string | undefined => {
  const keys = Array.from(element.getElementsByTagNameNS(md, "KeyDescriptor")).filter((key) => (key.getAttribute("use") ?? "signing") === "signing")
  const text = keys.map((key) => key.getElementsByTagNameNS(ds, "X509Certificate")[0]?.textContent ?? "").find((value) => value.trim() !== "")
  return text === undefined ? undefined : pemOf(text)
}

/** The fields of an IdP's metadata, or the words saying what is missing from it. */
export const readIdpMetadata = (xml: string): IdpMetadata | string => {
  if (xml.trim() === "") return "Paste the identity provider's metadata XML, or upload its file."
  const document = parse(xml)
  if (document === undefined) return "This is not XML. Paste the whole metadata file, from <EntityDescriptor> to its end."
  const idp = document.getElementsByTagNameNS(md, "IDPSSODescriptor")[0]
  if (idp === undefined) return "This metadata describes no identity provider (it has no IDPSSODescriptor): is it the service provider's metadata?"
  const entityID = idp.parentElement?.getAttribute("entityID") ?? ""
  if (entityID === "") return "This metadata names no entity ID (the entityID of its EntityDescriptor)."
  const services = Array.from(idp.getElementsByTagNameNS(md, "SingleSignOnService"))
  const ssoURL = services.find((service) => service.getAttribute("Binding") === redirectBinding)?.getAttribute("Location") ?? ""
  if (ssoURL === "") return "This identity provider offers no sign-in URL with the HTTP-Redirect binding, which Quire uses."
  const certificate = signingCertificate(idp)
  if (certificate === undefined) return "This metadata holds no signing certificate (an X509Certificate in a KeyDescriptor)."
  return { entityID, ssoURL, certificate }
}

/** Quire's SP certificate, from the SP metadata XML its `metadataURL` answers. */
export const spCertificateOf = (xml: string): string | undefined => {
  const document = parse(xml)
  const descriptor = document?.getElementsByTagNameNS(md, "SPSSODescriptor")[0]
  return descriptor === undefined ? undefined : signingCertificate(descriptor)
}
