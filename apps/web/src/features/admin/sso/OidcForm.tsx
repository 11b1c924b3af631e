/** Adds an OpenID Connect provider, or changes `provider` (its secret kept unless a new one is typed). */
import type { OidcProvider, Organization } from "@quire/api"
import { type FormEvent, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { Field } from "../../../ui/Field.tsx"
import { roleOfValue, roleValue } from "../problems.ts"
import { ssoKey } from "../queries.ts"
import { FormError, roleOptions, SelectField, useForm } from "../ui.tsx"
import { createOidc, updateOidc } from "./mutations.ts"

export const oidcFields = ["label", "discoveryURL", "clientId", "clientSecret", "scopes", "defaultRole"] as const

export interface OidcFormProps {
  readonly org: Organization
  readonly provider?: OidcProvider
  readonly onDone: (message: string) => void
  readonly onCancel?: () => void
}

export const OidcForm = (props: OidcFormProps) => {
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
