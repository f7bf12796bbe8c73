import type { RosterPromiseClient } from "../../../adapters/http/promise-client-types.ts"
import { serviceBase } from "../api.ts"
import { CopyValue } from "../components/copy-value.tsx"

export type Connection = Awaited<ReturnType<RosterPromiseClient["sso"]["createSsoConnection"]>>

/**
 * What the identity provider's administrator registers first, before anything is saved here: the
 * addresses its answers come back to, the same for every connection of this service.
 */
export const ToRegister = ({ kind }: { readonly kind: "oidc" | "saml" }) => (
  <fieldset class="register">
    <legend>Register Roster with your identity provider first</legend>
    {kind === "oidc" ? (
      <dl>
        <CopyValue
          label="Redirect URI (sign-in redirect)"
          short="redirect URI"
          value={`${serviceBase}/api/v1/sso/oidc/callback`}
        />
        <dt>Grant and scopes</dt>
        <dd>
          Authorization code, with <code>openid email profile</code>
        </dd>
      </dl>
    ) : (
      <dl>
        <CopyValue
          label="ACS URL (single sign-on URL, HTTP-POST)"
          short="ACS URL"
          value={`${serviceBase}/api/v1/sso/saml/acs`}
        />
        <dt>Name ID</dt>
        <dd>The person's e-mail address (format emailAddress), and an email attribute</dd>
        <dt>SP entity ID (audience), metadata and certificate</dt>
        <dd>
          At the next step: it makes the connection, as a draft that signs nobody in yet, and they name it.
        </dd>
      </dl>
    )}
  </fieldset>
)

/** A SAML connection's own values, its draft's included: what its IdP's application is made with. */
export const SamlValues = ({ connection }: { readonly connection: Connection }) => (
  <fieldset class="register">
    <legend>Give these to your identity provider for {connection.name}</legend>
    <dl>
      <CopyValue label="SP entity ID (audience)" short="SP entity ID" value={connection.spEntityId} />
      <CopyValue label="ACS URL (single sign-on URL, HTTP-POST)" short="ACS URL" value={connection.acsUrl} />
      <CopyValue
        label="SP metadata URL (for a provider that imports it)"
        short="SP metadata URL"
        value={connection.spMetadataUrl}
      />
      <CopyValue
        label="SP certificate (signs Roster's requests)"
        short="SP certificate"
        value={connection.spCertificate ?? ""}
        block
      />
    </dl>
  </fieldset>
)
