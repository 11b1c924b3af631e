/** Enforcement: the organization's `sso` switch (members sign in only through its providers), with the email domains it claims. */
import type { Organization } from "@quire/api"
import { useId } from "react"
import { useMutation } from "../../../api/react.ts"
import { Link } from "../../../ui/Link.tsx"
import { useForm } from "../ui.tsx"
import { updateOrganization } from "./mutations.ts"
import { CopyField } from "./CopyField.tsx"

export interface EnforcementProps {
  readonly org: Organization
  readonly providers: number
}

export const Enforcement = (props: EnforcementProps) => {
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
