/**
 * A provider's "Test sign-in", opening its sign-in in a new tab. The tab shares this browser's
 * cookies: a sign-in there makes this browser that person, which the link says before it is used.
 */
import { ssoStartPath } from "../../../api/auth.ts"
import { testLanding } from "./mutations.ts"

export interface TestSignInProps {
  readonly startURL: string
  readonly label: string
}

export const TestSignIn = (props: TestSignInProps) => (
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
