/** Creates a SAML provider, or changes `provider`: from the IdP's metadata or its fields. */
import type { Organization, SamlProvider } from "@quire/api"
import { type ChangeEvent, type FormEvent, useId, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { Field } from "../../../ui/Field.tsx"
import { roleOfValue, roleValue } from "../problems.ts"
import { ssoKey } from "../queries.ts"
import { readIdpMetadata } from "../saml-metadata.ts"
import { FormError, roleOptions, SelectField, TextAreaField, useForm } from "../ui.tsx"
import { createSaml, updateSaml } from "./mutations.ts"

export const samlFields = ["label", "entityID", "ssoURL", "certificate", "defaultRole"] as const

export interface SamlFormProps {
  readonly org: Organization
  readonly provider?: SamlProvider
  readonly onDone: (message: string) => void
  readonly onCancel?: () => void
}

export const SamlForm = (props: SamlFormProps) => {
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
