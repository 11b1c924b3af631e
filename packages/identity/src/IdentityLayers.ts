/** Layers that assemble the identity package: its ports, adapters and use cases. */
import { Effect, Layer } from "effect"
import { AuditLayers, AuditLog } from "@quire/audit"
import { IdentityMemory } from "./IdentityMemory.ts"
import { MemberInvites } from "./MemberInvites.ts"
import { Members } from "./Members.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { Organizations } from "./Organizations.ts"
import { OrganizationsRepo } from "./OrganizationsRepo.ts"
import * as SqlMembersRepo from "./SqlMembersRepo.ts"
import * as SqlOrganizationsRepo from "./SqlOrganizationsRepo.ts"
import * as SqlTeamsRepo from "./SqlTeamsRepo.ts"
import * as SqlUsersRepo from "./SqlUsersRepo.ts"
import { OidcProviders } from "./OidcProviders.ts"
import { OidcProvidersRepo } from "./OidcProvidersRepo.ts"
import { OidcSecrets } from "./OidcSecrets.ts"
import { SamlProviders } from "./SamlProviders.ts"
import { SamlProvidersRepo } from "./SamlProvidersRepo.ts"
import { SamlSignIn } from "./SamlSignIn.ts"
import { SamlSignInRepo } from "./SamlSignInRepo.ts"
import * as SqlSamlSignInRepo from "./SqlSamlSignInRepo.ts"
import * as SqlOidcProvidersRepo from "./SqlOidcProvidersRepo.ts"
import * as SqlSamlProvidersRepo from "./SqlSamlProvidersRepo.ts"
import { SignInSessions } from "./SignInSessions.ts"
import { InviteSignUp } from "./signin/InviteSignUp.ts"
import { OidcSignIn } from "./signin/OidcSignIn.ts"
import { SsoDirectory } from "./SsoDirectory.ts"
import { SsoProvisioning } from "./SsoProvisioning.ts"
import { Passwords } from "./signin/Passwords.ts"
import { PasswordSignIn } from "./signin/PasswordSignIn.ts"
import { SamlSessions } from "./signin/SamlSessions.ts"
import { SignInRepo } from "./signin/SignInRepo.ts"
import * as SqlSignInRepo from "./signin/SqlSignInRepo.ts"
import { Teams } from "./Teams.ts"
import { TeamsRepo } from "./TeamsRepo.ts"
import { Users } from "./Users.ts"
import { UsersRepo } from "./UsersRepo.ts"
import { EmailVerificationRepo } from "./EmailVerificationRepo.ts"
import * as SqlEmailVerificationRepo from "./SqlEmailVerificationRepo.ts"
import { EmailVerification } from "./signin/EmailVerification.ts"
import { NotificationSettings } from "./NotificationSettings.ts"
import { NotificationSettingsRepo } from "./NotificationSettingsRepo.ts"
import * as SqlNotificationSettingsRepo from "./SqlNotificationSettingsRepo.ts"
import { AgentInstructions } from "./AgentInstructions.ts"
import { AgentInstructionsRepo } from "./AgentInstructionsRepo.ts"
import * as SqlAgentInstructionsRepo from "./SqlAgentInstructionsRepo.ts"

/** All identity ports, in memory, sharing one store; with the audit log (and its use case) identity records its changes in. */
export const layerReposMemory = Layer.mergeAll(
  UsersRepo.layerMemory,
  OrganizationsRepo.layerMemory,
  MembersRepo.layerMemory,
  TeamsRepo.layerMemory,
  SamlProvidersRepo.layerMemory,
  OidcProvidersRepo.layerMemory,
  SamlSignInRepo.layerMemory,
  SignInRepo.layerMemory,
  EmailVerificationRepo.layerMemory,
  NotificationSettingsRepo.layerMemory,
  AgentInstructionsRepo.layerMemory
).pipe(Layer.provide(IdentityMemory.layer), Layer.merge(AuditLayers.layerMemory))

/** All identity ports on Postgres (needs only a SqlClient), with the audit log (the audit migrations applied). */
export const layerReposSql = Layer.mergeAll(
  SqlUsersRepo.layer,
  SqlOrganizationsRepo.layer,
  SqlMembersRepo.layer,
  SqlTeamsRepo.layer,
  SqlSamlProvidersRepo.layer,
  SqlOidcProvidersRepo.layer,
  SqlSamlSignInRepo.layer,
  SqlSignInRepo.layer,
  SqlEmailVerificationRepo.layer,
  SqlNotificationSettingsRepo.layer,
  SqlAgentInstructionsRepo.layer,
  AuditLayers.layerSql
)

/** Sign-in: passwords, sessions (password, SAML and OpenID Connect) and invitations' sign-up. */
const layerSignIn = Layer.mergeAll(InviteSignUp.layer, SamlSessions.layer, OidcSignIn.layer).pipe(
  Layer.provideMerge(PasswordSignIn.layer),
  Layer.provideMerge(Layer.mergeAll(SignInSessions.layer, SamlSignIn.layer, Passwords.layer, MemberInvites.layer)),
  Layer.provideMerge(SsoProvisioning.layer),
  Layer.provideMerge(EmailVerification.layer)
)

/** The audit log the repositories' layer holds, handed on as a use case of its own (the API reads it). */
const layerAuditLog = Layer.effect(AuditLog, Effect.service(AuditLog))

/** The use cases, over whichever ports are provided. */
export const layerServices = Layer.mergeAll(Members.layer, Teams.layer, layerSignIn, SsoDirectory.layer, NotificationSettings.layer, AgentInstructions.layer, layerAuditLog).pipe(
  Layer.provideMerge(Layer.mergeAll(SamlProviders.layer, OidcProviders.layer)),
  Layer.provideMerge(OidcSecrets.layer),
  Layer.provideMerge(Organizations.layer),
  Layer.provideMerge(Users.layer)
)
