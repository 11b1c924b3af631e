/** Quire's SP signing certificate, to copy for an identity provider that checks signed requests. */
import { useEffect, useId, useState } from "react"
import { getSpMetadata } from "../../../api/auth.ts"
import { spCertificateOf } from "../saml-metadata.ts"
import { CopyButton, TextAreaField } from "../ui.tsx"

/** Quire's SP certificate, read from the provider's SP metadata (the same for every provider of the instance). */
export const useSpCertificate = (metadataURL: string) => {
  const [certificate, setCertificate] = useState<string | undefined>()
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    getSpMetadata(metadataURL).then((xml) => live && (spCertificateOf(xml) === undefined ? setFailed(true) : setCertificate(spCertificateOf(xml))), () => live && setFailed(true))
    return () => {
      live = false
    }
  }, [metadataURL])
  return { certificate, failed }
}

export interface SpCertificateProps {
  readonly metadataURL: string
}

export const SpCertificate = (props: SpCertificateProps) => {
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
