/** The writes of the single sign-on screen (organization settings, SAML and OpenID Connect providers), and where a test sign-in lands. */
import { QuireApi } from "../../../api/client.ts"

export const updateOrganization = QuireApi.mutation("organizations", "updateOrganizationById")
export const createSaml = QuireApi.mutation("sso", "createOrganizationSAMLProvider")
export const updateSaml = QuireApi.mutation("sso", "updateOrganizationSAMLProvider")
export const deleteSaml = QuireApi.mutation("sso", "deleteOrganizationSAMLProvider")
export const createOidc = QuireApi.mutation("sso", "createOrganizationOIDCProvider")
export const deleteOidc = QuireApi.mutation("sso", "deleteOrganizationOIDCProvider")
export const updateOidc = QuireApi.mutation("sso", "updateOrganizationOIDCProvider")

/** Where a test sign-in lands: the page saying who is signed in. */
export const testLanding = "/sso/signed-in"
