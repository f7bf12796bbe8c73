import { serviceBase } from "../api.ts"

/**
 * What the identity provider's administrator registers first, before anything is saved here: the
 * addresses its answers come back to, the same for every connection of this service.
 */
export const ToRegister = ({ kind }: { readonly kind: "oidc" | "saml" }) => (
  <fieldset class="register">
    <legend>Register Roster with your identity provider first</legend>
    {kind === "oidc" ? (
      <dl>
        <dt>Redirect URI (sign-in redirect)</dt>
        <dd>
          <code>{`${serviceBase}/api/v1/sso/oidc/callback`}</code>
        </dd>
        <dt>Grant and scopes</dt>
        <dd>
          Authorization code, with <code>openid email profile</code>
        </dd>
      </dl>
    ) : (
      <dl>
        <dt>ACS URL (single sign-on URL, HTTP-POST)</dt>
        <dd>
          <code>{`${serviceBase}/api/v1/sso/saml/acs`}</code>
        </dd>
        <dt>Name ID</dt>
        <dd>The person's e-mail address (format emailAddress), and an email attribute</dd>
        <dt>SP entity ID (audience) and metadata</dt>
        <dd>
          Shown here once the connection is made (they name it); until then your provider may take the ACS URL
          alone, and you set the audience after.
        </dd>
      </dl>
    )}
  </fieldset>
)
