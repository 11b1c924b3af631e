/**
 * A SAML identity provider on 127.0.0.1 for the browser tests: its sign-in URL takes Quire's
 * AuthnRequest (HTTP-Redirect), asks for an email, and answers a page whose form POSTs the signed
 * response (the server tests' TestIdp, under its committed test key) to the ACS the request named,
 * as a real IdP's auto-posting page does (a button here: the page runs no script). `metadata` is
 * its IdP metadata XML, as an admin downloads it from their IdP.
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { inflateRawSync } from "node:zlib"
import * as Idp from "../../../../packages/identity/test/support/TestIdp.ts"

export interface SamlIdp {
  readonly ssoURL: string
  readonly entityID: string
  readonly metadata: string
  readonly close: () => Promise<void>
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`).join("")

const formOf = (req: IncomingMessage) =>
  new Promise<URLSearchParams>((resolve, reject) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (text += chunk))
    req.on("end", () => resolve(new URLSearchParams(text)))
    req.on("error", reject)
  })

/** What the response must answer: the AuthnRequest's ID, our SP's entity id and ACS. */
const authnRequestOf = (samlRequest: string) => {
  const xml = inflateRawSync(Buffer.from(samlRequest, "base64")).toString("utf8")
  return {
    id: /\sID="([^"]+)"/.exec(xml)?.[1] ?? "",
    acs: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1] ?? "",
    issuer: /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(xml)?.[1] ?? ""
  }
}

export const startSamlIdp = async (): Promise<SamlIdp> => {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://idp")
    if (url.pathname !== "/sso") return void res.writeHead(404).end()
    void (async () => {
      const form = req.method === "POST" ? await formOf(req) : url.searchParams
      const samlRequest = form.get("SAMLRequest") ?? ""
      const relayState = form.get("RelayState") ?? ""
      const email = form.get("email")
      res.setHeader("content-type", "text/html; charset=utf-8")
      if (email === null) {
        res.end(page("Test IdP", `<form method="post" action="/sso">${hidden({ SAMLRequest: samlRequest, RelayState: relayState })}` +
          `<label for="email">Email</label> <input id="email" name="email" type="email" required> <button type="submit">Sign in</button></form>`))
        return
      }
      const request = authnRequestOf(samlRequest)
      const response = Idp.response({ email, audience: request.issuer, destination: request.acs, inResponseTo: request.id })
      res.end(page("Test IdP", `<form method="post" action="${escapeHtml(request.acs)}">${hidden({ SAMLResponse: response, RelayState: relayState })}` +
        `<button type="submit">Continue to Quire</button></form>`))
    })().catch((error: unknown) => res.writeHead(500).end(String(error)))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const ssoURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sso`
  const base64 = Idp.idpCertificate.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "")
  const metadata = `<?xml version="1.0"?>\n<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${Idp.idpEntityID}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${base64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoURL}"/>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoURL}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>\n`
  return {
    ssoURL,
    entityID: Idp.idpEntityID,
    metadata,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
