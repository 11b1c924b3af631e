/**
 * `/o/<org>/settings/sso`: an organization's single sign-on, for its admins (docs/sso.md). SAML
 * providers (`SsoApi`): created or changed from the IdP's metadata XML (pasted or uploaded, read by
 * `saml-metadata.ts`) or its fields, with what the IdP needs of Quire (entity ID, ACS URL, metadata
 * URL, the SP certificate) to copy, a test sign-in and delete. OpenID Connect providers: discovery
 * URL, client id, a client secret sent once and never shown, scopes; test sign-in, delete.
 * Enforcement: the organization's `sso` switch, with its email domains.
 */
import type { OidcProvider, Organization, SamlProvider } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useId, useState } from "react"
import { ssoStartPath } from "../../api/auth.ts"
import { QuireApi } from "../../api/client.ts"
import { organizationAtom } from "../../api/queries.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { problemOf, roleName, roleOfValue, roleValue } from "./problems.ts"
import { oidcProvidersAtom, samlProvidersAtom, ssoKey } from "./queries.ts"
import { readIdpMetadata, spCertificateOf } from "./saml-metadata.ts"
import { Confirm, CopyButton, FormError, OrgTabs, roleOptions, SelectField, TextAreaField, useForm } from "./ui.tsx"

const updateOrganization = QuireApi.mutation("organizations", "updateOrganizationById")
const createSaml = QuireApi.mutation("sso", "createOrganizationSAMLProvider")
const updateSaml = QuireApi.mutation("sso", "updateOrganizationSAMLProvider")
const deleteSaml = QuireApi.mutation("sso", "deleteOrganizationSAMLProvider")
const createOidc = QuireApi.mutation("sso", "createOrganizationOIDCProvider")
const deleteOidc = QuireApi.mutation("sso", "deleteOrganizationOIDCProvider")
const updateOidc = QuireApi.mutation("sso", "updateOrganizationOIDCProvider")

/** Where a test sign-in lands: the page saying who is signed in. */
const testLanding = "/sso/signed-in"

/** A URL the identity provider needs, read-only with Copy. */
const CopyField = (props: { readonly label: string; readonly value: string; readonly copy: string }) => {
  const id = useId()
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{props.label}</label>
      <div className="copy-row">
        <input id={id} className="link-field" readOnly value={props.value} onFocus={(event) => event.target.select()} />
        <CopyButton text={props.value} label={props.copy} selectId={id} />
      </div>
    </div>
  )
}

/**
 * A provider's "Test sign-in", opening its sign-in in a new tab. The tab shares this browser's
 * cookies: a sign-in there makes this browser that person, which the link says before it is used.
 */
const TestSignIn = (props: { readonly startURL: string; readonly label: string }) => (
  <a
    className="button"
    href={ssoStartPath(props.startURL, testLanding)}
    target="_blank"
    rel="noopener"
    title="Opens a new tab. Signing in there replaces your session in this browser: test with another browser or a private window to stay signed in."
  >
    Test sign-in<span className="visually-hidden"> with {props.label} (opens a new tab; signing in there replaces your session in this browser)</span>
  </a>
)

/** Deletes a provider after a confirmation. */
const DeleteProvider = (props: { readonly label: string; readonly kind: string; readonly onDelete: () => Promise<void>; readonly children: ReactNode }) => {
  const [open, setOpen] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  return (
    <>
      <button type="button" className="danger" onClick={() => { setProblem(undefined); setOpen(true) }}>
        Delete<span className="visually-hidden"> {props.label}</span>
      </button>
      {open ? (
        <Confirm title={`Delete the ${props.kind} provider ${props.label}?`} action="Delete" busyAction="Deleting…" problem={problem} onClose={() => setOpen(false)}
          onConfirm={async () => {
            try {
              await props.onDelete()
              setOpen(false)
            } catch (error) {
              setProblem(problemOf(error, []).form)
            }
          }}>
          {props.children}
        </Confirm>
      ) : null}
    </>
  )
}

/** Quire's SP certificate, read from the provider's SP metadata (the same for every provider of the instance). */
const useSpCertificate = (metadataURL: string) => {
  const [certificate, setCertificate] = useState<string | undefined>()
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    fetch(new URL(metadataURL).pathname)
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
      .then((xml) => live && (spCertificateOf(xml) === undefined ? setFailed(true) : setCertificate(spCertificateOf(xml))), () => live && setFailed(true))
    return () => {
      live = false
    }
  }, [metadataURL])
  return { certificate, failed }
}

const SpCertificate = (props: { readonly metadataURL: string }) => {
  const { certificate, failed } = useSpCertificate(props.metadataURL)
  const id = useId()
  if (failed) return <p className="field-error">The SP certificate could not be read from the metadata URL. Reload the page, or give the IdP the metadata URL instead.</p>
  if (certificate === undefined) return <p className="muted">Reading the SP certificate…</p>
  return (
    <div className="copy-field">
      <TextAreaField id={id} label="SP signing certificate" name="spCertificate" value={certificate} readOnly rows={4}
        hint="Quire signs its sign-in requests with it; some identity providers ask for it to check them." />
      <div className="toolbar"><CopyButton text={certificate} label="Copy SP certificate" /></div>
    </div>
  )
}

const samlFields = ["label", "entityID", "ssoURL", "certificate", "defaultRole"] as const

/** Creates a SAML provider, or changes `provider`: from the IdP's metadata or its fields. */
const SamlForm = (props: { readonly org: Organization; readonly provider?: SamlProvider; readonly onDone: (message: string) => void; readonly onCancel?: () => void }) => {
  const { org, provider } = props
  const [label, setLabel] = useState(provider?.label ?? "")
  const [role, setRole] = useState<string>(roleValue(provider === undefined ? org.defaultRole : provider.defaultRole))
  const [metadata, setMetadata] = useState("")
  const [metadataError, setMetadataError] = useState<string | undefined>()
  const [metadataRead, setMetadataRead] = useState("")
  const [entityID, setEntityID] = useState(provider?.entityID ?? "")
  const [ssoURL, setSsoURL] = useState(provider?.ssoURL ?? "")
  const [certificate, setCertificate] = useState(provider?.certificate ?? "")
  const create = useMutation(createSaml)
  const update = useMutation(updateSaml)
  const { busy, errors, submit, check } = useForm(samlFields)
  const uploadId = useId()
  const read = (xml: string) => {
    setMetadataRead("")
    const found = readIdpMetadata(xml)
    if (typeof found === "string") {
      setMetadataError(found)
      return
    }
    setMetadataError(undefined)
    setEntityID(found.entityID)
    setSsoURL(found.ssoURL)
    setCertificate(found.certificate)
    setMetadataRead("Read the entity ID, sign-in URL and certificate from the metadata. Check them below, then save.")
  }
  const onUpload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    if (file === undefined) return
    void file.text().then((xml) => {
      setMetadata(xml)
      read(xml)
    }, () => setMetadataError("The file could not be read. Paste its text instead."))
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const name = label.trim()
    if (!check({
      ...(name === "" ? { label: "Give the provider a name, such as Okta." } : name.length > 30 ? { label: "The name can have at most 30 characters." } : {}),
      ...(ssoURL.trim() === "" || /^https?:\/\/\S+$/.test(ssoURL.trim()) ? {} : { ssoURL: "The sign-in URL is an address such as https://idp.example.com/sso." })
    })) return
    const fields = {
      label: name,
      defaultRole: roleOfValue(role),
      ...(entityID.trim() === "" ? {} : { entityID: entityID.trim() }),
      ...(ssoURL.trim() === "" ? {} : { ssoURL: ssoURL.trim() }),
      ...(certificate.trim() === "" ? {} : { certificate: certificate.trim() })
    }
    void submit(async () => {
      if (provider === undefined) {
        await create({ params: { organizationId: org.id }, payload: fields, reactivityKeys: [ssoKey(org.id)] })
        setLabel("")
        setMetadata("")
        setMetadataRead("")
        setEntityID("")
        setSsoURL("")
        setCertificate("")
        props.onDone(`Added the SAML provider ${name}.`)
      } else {
        await update({ params: { organizationId: org.id, samlProviderId: provider.id }, payload: fields, reactivityKeys: [ssoKey(org.id)] })
        props.onDone(`Saved the SAML provider ${name}.`)
      }
    })
  }
  return (
    <form onSubmit={onSubmit} noValidate className="admin-form sso-form" aria-label={provider === undefined ? "Add a SAML provider" : `Change ${provider.label}`}>
      <FormError errors={errors} />
      <Field label="Name" name="label" value={label} onChange={setLabel} error={errors.fields["label"]} hint="What people see on the sign-in screen: “Sign in with …”." autoComplete="off" />
      <SelectField label="Role of people it signs up" name="defaultRole" value={role} onChange={setRole} options={roleOptions(true)} error={errors.fields["defaultRole"]}
        hint="A person's pending invitation gives its role instead." />
      <fieldset className="sso-metadata">
        <legend>From the identity provider's metadata</legend>
        <TextAreaField label="IdP metadata XML" name="metadata" value={metadata} onChange={setMetadata} error={metadataError} rows={4}
          hint="Paste it, or upload the file your identity provider gives, to fill the fields below." />
        <div className="toolbar">
          <button type="button" onClick={() => read(metadata)}>Read metadata</button>
          <input id={uploadId} className="visually-hidden file-input" type="file" accept=".xml,application/xml,text/xml,application/samlmetadata+xml" onChange={onUpload} />
          <label className="button" htmlFor={uploadId}>Upload metadata file</label>
          <span className="status" role="status">{metadataRead}</span>
        </div>
      </fieldset>
      <Field label="IdP entity ID" name="entityID" value={entityID} onChange={setEntityID} error={errors.fields["entityID"]} autoComplete="off" />
      <Field label="IdP sign-in URL" name="ssoURL" type="url" value={ssoURL} onChange={setSsoURL} error={errors.fields["ssoURL"]} autoComplete="off"
        hint="Where Quire sends people to sign in (the SingleSignOnService with the HTTP-Redirect binding)." />
      <TextAreaField label="IdP signing certificate" name="certificate" value={certificate} onChange={setCertificate} error={errors.fields["certificate"]}
        hint="PEM, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----. Responses not signed with it are refused." />
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy}>{busy ? "Saving…" : provider === undefined ? "Add SAML provider" : "Save"}</button>
        {props.onCancel === undefined ? null : <button type="button" onClick={props.onCancel}>Cancel</button>}
      </div>
    </form>
  )
}

const SamlCard = (props: { readonly org: Organization; readonly provider: SamlProvider; readonly onStatus: (message: string) => void }) => {
  const { org, provider } = props
  const [editing, setEditing] = useState(false)
  const remove = useMutation(deleteSaml)
  const active = provider.status === "active"
  return (
    <li className="team-card sso-card">
      <div className="team-head">
        <h3>{provider.label}</h3>
        <span className={active ? "badge" : "badge warn"}>{active ? "Active" : "Incomplete"}</span>
        <span className="muted small">SAML · signs up people as {roleName(provider.defaultRole)}</span>
      </div>
      {active ? null : <p className="notice">Nobody can sign in with it yet: it needs the IdP's entity ID, sign-in URL and certificate. Give the IdP the details below, then add its metadata with “Change”.</p>}
      <div className="sso-for-idp">
        <h4>For your identity provider</h4>
        <CopyField label="SP entity ID (audience)" copy="Copy entity ID" value={provider.service.entityID} />
        <CopyField label="ACS URL (reply URL)" copy="Copy ACS URL" value={provider.service.acsURL} />
        <CopyField label="SP metadata URL" copy="Copy metadata URL" value={provider.service.metadataURL} />
        <SpCertificate metadataURL={provider.service.metadataURL} />
      </div>
      {active ? (
        <dl className="admin-facts">
          <dt>IdP entity ID</dt><dd>{provider.entityID}</dd>
          <dt>IdP sign-in URL</dt><dd>{provider.ssoURL}</dd>
        </dl>
      ) : null}
      {editing ? (
        <SamlForm org={org} provider={provider} onCancel={() => setEditing(false)} onDone={(message) => { setEditing(false); props.onStatus(message) }} />
      ) : (
        <div className="row-actions">
          {active ? <TestSignIn startURL={provider.service.startURL} label={provider.label} /> : null}
          <button type="button" onClick={() => setEditing(true)}>Change<span className="visually-hidden"> {provider.label}</span></button>
          <DeleteProvider label={provider.label} kind="SAML"
            onDelete={async () => {
              await remove({ params: { organizationId: org.id, samlProviderId: provider.id }, reactivityKeys: [ssoKey(org.id)] })
              props.onStatus(`Deleted the SAML provider ${provider.label}.`)
            }}>
            <p>People can no longer sign in with it. Accounts it created stay, and sign in with another provider or a password they set.</p>
          </DeleteProvider>
        </div>
      )}
    </li>
  )
}

const SamlSection = (props: { readonly org: Organization; readonly providers: ReadonlyArray<SamlProvider> }) => {
  const [status, setStatus] = useState("")
  return (
    <section aria-labelledby="saml-heading" className="admin-section">
      <h2 id="saml-heading">SAML providers</h2>
      <span className="status" role="status">{status}</span>
      {props.providers.length === 0 ? <p className="muted">No SAML provider yet.</p> : (
        <ul className="team-list">
          {props.providers.map((provider) => <SamlCard key={provider.id} org={props.org} provider={provider} onStatus={setStatus} />)}
        </ul>
      )}
      <h3>Add a SAML provider</h3>
      <p className="muted">Save it with a name first if your identity provider needs Quire's ACS URL before it gives you its metadata; add the metadata later with “Change”.</p>
      <SamlForm org={props.org} onDone={setStatus} />
    </section>
  )
}

const oidcFields = ["label", "discoveryURL", "clientId", "clientSecret", "scopes", "defaultRole"] as const

/** Adds an OpenID Connect provider, or changes `provider` (its secret kept unless a new one is typed). */
const OidcForm = (props: { readonly org: Organization; readonly provider?: OidcProvider; readonly onDone: (message: string) => void; readonly onCancel?: () => void }) => {
  const { org, provider } = props
  const [label, setLabel] = useState(provider?.label ?? "")
  const [discoveryURL, setDiscoveryURL] = useState(provider?.discoveryURL ?? "")
  const [clientId, setClientId] = useState(provider?.clientId ?? "")
  const [clientSecret, setClientSecret] = useState("")
  const [scopes, setScopes] = useState(provider?.scopes.join(" ") ?? "")
  const [role, setRole] = useState<string>(roleValue(provider === undefined ? org.defaultRole : provider.defaultRole))
  const create = useMutation(createOidc)
  const update = useMutation(updateOidc)
  const { busy, errors, submit, check } = useForm(oidcFields)
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const name = label.trim()
    // A new provider, or a changed issuer or client, needs the secret (the API says so too).
    const needsSecret = provider === undefined || discoveryURL.trim() !== provider.discoveryURL || clientId.trim() !== provider.clientId
    if (!check({
      ...(name === "" ? { label: "Give the provider a name, such as Google Workspace." } : name.length > 30 ? { label: "The name can have at most 30 characters." } : {}),
      ...(/^https?:\/\/\S+$/.test(discoveryURL.trim()) ? {} : { discoveryURL: "Enter the provider's issuer URL, such as https://accounts.example.com." }),
      ...(clientId.trim() === "" ? { clientId: "Enter the client ID the provider gave Quire." } : {}),
      ...(clientSecret === "" && needsSecret
        ? { clientSecret: provider === undefined ? "Enter the client secret the provider gave Quire." : "A new issuer or client ID needs its client secret again." }
        : {})
    })) return
    const scopeList = scopes.split(/[\s,]+/).filter((scope) => scope !== "")
    const fields = { label: name, discoveryURL: discoveryURL.trim(), clientId: clientId.trim(), defaultRole: roleOfValue(role) }
    void submit(async () => {
      if (provider === undefined) {
        await create({
          params: { organizationId: org.id },
          payload: { ...fields, clientSecret, ...(scopeList.length === 0 ? {} : { scopes: scopeList }) },
          reactivityKeys: [ssoKey(org.id)]
        })
        setLabel("")
        setDiscoveryURL("")
        setClientId("")
        setClientSecret("")
        setScopes("")
        props.onDone(`Added the OpenID Connect provider ${name}.`)
      } else {
        // Only what changed: an unchanged issuer or client needs no secret.
        await update({
          params: { organizationId: org.id, oidcProviderId: provider.id },
          payload: {
            ...(fields.label === provider.label ? {} : { label: fields.label }),
            ...(fields.discoveryURL === provider.discoveryURL ? {} : { discoveryURL: fields.discoveryURL }),
            ...(fields.clientId === provider.clientId ? {} : { clientId: fields.clientId }),
            ...(fields.defaultRole === provider.defaultRole ? {} : { defaultRole: fields.defaultRole }),
            ...(scopeList.join(" ") === provider.scopes.join(" ") ? {} : { scopes: scopeList }),
            ...(clientSecret === "" ? {} : { clientSecret })
          },
          reactivityKeys: [ssoKey(org.id)]
        })
        props.onDone(`Saved the OpenID Connect provider ${name}.`)
      }
    })
  }
  return (
    <form onSubmit={onSubmit} noValidate className="admin-form sso-form" aria-label={provider === undefined ? "Add an OpenID Connect provider" : `Change ${provider.label}`}>
      <FormError errors={errors} />
      <Field label="Name" name="label" value={label} onChange={setLabel} error={errors.fields["label"]} hint="What people see on the sign-in screen: “Sign in with …”." autoComplete="off" />
      <Field label="Issuer or discovery URL" name="discoveryURL" type="url" value={discoveryURL} onChange={setDiscoveryURL} error={errors.fields["discoveryURL"]} autoComplete="off"
        hint="The issuer (https://accounts.example.com) or its /.well-known/openid-configuration. Quire reads it when you save." />
      <Field label="Client ID" name="clientId" value={clientId} onChange={setClientId} error={errors.fields["clientId"]} autoComplete="off" />
      <Field label="Client secret" name="clientSecret" type="password" value={clientSecret} onChange={setClientSecret} error={errors.fields["clientSecret"]} autoComplete="new-password"
        hint={provider === undefined ? "Stored encrypted and never shown again, here or by the API." : "Leave it empty to keep the stored one; a new issuer or client ID needs it again."} />
      <Field label="Extra scopes" name="scopes" value={scopes} onChange={setScopes} error={errors.fields["scopes"]} autoComplete="off"
        hint="Besides openid, email and profile, which Quire always asks for. Separate them with spaces." />
      <SelectField label="Role of people it signs up" name="defaultRole" value={role} onChange={setRole} options={roleOptions(true)} error={errors.fields["defaultRole"]}
        hint="A person's pending invitation gives its role instead." />
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy}>{busy ? "Checking the provider…" : provider === undefined ? "Add OpenID Connect provider" : "Save provider"}</button>
        {props.onCancel === undefined ? null : <button type="button" onClick={props.onCancel} disabled={busy}>Cancel</button>}
      </div>
    </form>
  )
}

const OidcCard = (props: { readonly org: Organization; readonly provider: OidcProvider; readonly onStatus: (message: string) => void }) => {
  const { org, provider } = props
  const [editing, setEditing] = useState(false)
  const remove = useMutation(deleteOidc)
  return (
    <li className="team-card sso-card">
      <div className="team-head">
        <h3>{provider.label}</h3>
        <span className="muted small">OpenID Connect · signs up people as {roleName(provider.defaultRole)}</span>
      </div>
      <dl className="admin-facts">
        <dt>Discovery URL</dt><dd>{provider.discoveryURL}</dd>
        <dt>Client ID</dt><dd>{provider.clientId}</dd>
        <dt>Client secret</dt><dd>{provider.clientSecretSet ? "Stored (never shown)" : "None"}</dd>
        <dt>Scopes</dt><dd>{["openid", "email", "profile", ...provider.scopes].join(" ")}</dd>
      </dl>
      {editing ? (
        <OidcForm org={org} provider={provider} onCancel={() => setEditing(false)} onDone={(message) => { setEditing(false); props.onStatus(message) }} />
      ) : (
        <div className="row-actions">
          <TestSignIn startURL={provider.service.startURL} label={provider.label} />
          <button type="button" onClick={() => setEditing(true)}>Change<span className="visually-hidden"> {provider.label}</span></button>
          <DeleteProvider label={provider.label} kind="OpenID Connect"
            onDelete={async () => {
              await remove({ params: { organizationId: org.id, oidcProviderId: provider.id }, reactivityKeys: [ssoKey(org.id)] })
              props.onStatus(`Deleted the OpenID Connect provider ${provider.label}.`)
            }}>
            <p>People can no longer sign in with it, and its client secret is erased. Accounts it created stay.</p>
          </DeleteProvider>
        </div>
      )}
    </li>
  )
}

const OidcSection = (props: { readonly org: Organization; readonly providers: ReadonlyArray<OidcProvider> }) => {
  const { org, providers } = props
  const [status, setStatus] = useState("")
  const redirectURL = providers[0]?.service.redirectURL ?? `${window.location.origin}/sso/oidc/callback`
  return (
    <section aria-labelledby="oidc-heading" className="admin-section">
      <h2 id="oidc-heading">OpenID Connect providers</h2>
      <span className="status" role="status">{status}</span>
      <CopyField label="Redirect URL to register at the provider" copy="Copy redirect URL" value={redirectURL} />
      {providers.length === 0 ? <p className="muted">No OpenID Connect provider yet.</p> : (
        <ul className="team-list">
          {providers.map((provider) => <OidcCard key={provider.id} org={org} provider={provider} onStatus={setStatus} />)}
        </ul>
      )}
      <h3>Add an OpenID Connect provider</h3>
      <OidcForm org={org} onDone={setStatus} />
    </section>
  )
}

const Enforcement = (props: { readonly org: Organization; readonly providers: number }) => {
  const { org } = props
  const update = useMutation(updateOrganization)
  const toggle = useForm(["sso"], () => "sso")
  const errorId = useId()
  const onToggle = (required: boolean) => {
    if (required && props.providers === 0 && !toggle.check({ sso: "Add a provider below first: with none, members could not sign in at all." })) return
    void toggle.submit(async () => {
      await update({ params: { organizationId: org.id }, payload: { sso: required }, reactivityKeys: ["orgs"] })
    })
  }
  const error = toggle.errors.fields["sso"]
  return (
    <section aria-labelledby="enforce-heading" className="admin-section">
      <h2 id="enforce-heading">Enforcement</h2>
      <div className="field checkbox">
        <label>
          <input type="checkbox" checked={org.sso} disabled={toggle.busy} onChange={(event) => onToggle(event.target.checked)}
            aria-invalid={error === undefined ? undefined : true} aria-describedby={error === undefined ? `${errorId}-hint` : `${errorId}-hint ${errorId}-error`} />
          Require single sign-on
        </label>
        <span id={`${errorId}-hint`} className="hint">
          When on, members of {org.title} who are not administrators can no longer sign in with a password, and invitations are taken up by signing in through a provider.
          Administrators keep their passwords, so a broken provider cannot lock the organization out.
        </span>
        {error === undefined ? null : <p id={`${errorId}-error`} className="field-error" role="alert">{error}</p>}
      </div>
      {org.sso ? <p className="notice">Single sign-on is required: members sign in through a provider below.</p> : null}
      <p>
        {org.emailDomains.length === 0
          ? "No email domain: providers may sign in any address, and the sign-in screen cannot find the organization from a work email. "
          : `Email domains: ${org.emailDomains.join(", ")}. Providers sign in only these addresses, and the sign-in screen finds the organization from a work email at them. `}
        <Link href={`/o/${org.id}/settings`}>Change the email domains in Settings</Link>
      </p>
      <CopyField label="Sign-in link for your members" copy="Copy sign-in link" value={`${window.location.origin}/sign-in?org=${org.id}`} />
    </section>
  )
}

const Providers = (props: { readonly org: Organization }) => {
  const saml = useAtomValue(samlProvidersAtom(props.org.id))
  const oidc = useAtomValue(oidcProvidersAtom(props.org.id))
  if (AsyncResult.isFailure(saml)) return <Failure result={saml} />
  if (AsyncResult.isFailure(oidc)) return <Failure result={oidc} />
  if (!AsyncResult.isSuccess(saml) || !AsyncResult.isSuccess(oidc)) return <Loading what="the providers" />
  const usable = saml.value.items.filter((provider) => provider.status === "active").length + oidc.value.items.length
  return (
    <>
      <Enforcement org={props.org} providers={usable} />
      <SamlSection org={props.org} providers={saml.value.items} />
      <OidcSection org={props.org} providers={oidc.value.items} />
    </>
  )
}

export const SingleSignOn = (props: { readonly organizationId: string }) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  if (!AsyncResult.isSuccess(org)) return <Loading what="the organization" />
  return (
    <div className="admin">
      <OrgTabs organizationId={props.organizationId} current="settings/sso" title={org.value.title} admin={org.value.permissions.admin} />
      <h1>Single sign-on</h1>
      {org.value.permissions.admin
        ? <Providers org={org.value} />
        : <div className="panel"><p>Only administrators of {org.value.title} can set up single sign-on.</p></div>}
    </div>
  )
}

export default SingleSignOn
