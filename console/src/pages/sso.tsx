import { useState } from "preact/hooks"
import { roster, serviceBase } from "../api.ts"
import { ConfirmButton, Section, Table, when } from "../components/controls.tsx"
import { Field, Form, Select, TextArea } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { operatorMust, useDeployment } from "../deployment.ts"
import { useAction, useLoad } from "../use-call.ts"

/** The domains the organisation proves by DNS: add one, publish its TXT record, verify, remove. */
const Domains = () => {
  const domains = useLoad(() => roster.sso.listDomains({ limit: 200 }).firstPage())
  const [domain, setDomain] = useState("")
  const add = useAction(
    () => roster.sso.addDomain({ domain: domain.trim() }),
    () => {
      setDomain("")
      domains.reload()
    }
  )
  const verify = useAction((id: string) => roster.sso.verifyDomain({ id }), domains.reload)
  const remove = useAction((id: string) => roster.sso.removeDomain({ id }), domains.reload)
  return (
    <Section title="Domains">
      <p>
        People whose e-mail is in a verified domain sign in through your identity provider, and may join just
        in time. Prove a domain by publishing the TXT record shown, then verify it.
      </p>
      <ProblemAlert outcome={domains} />
      <ProblemAlert outcome={verify} />
      <ProblemAlert outcome={remove} />
      <Table
        caption="Domains"
        columns={["Domain", "Status", "TXT record"]}
        actions
        empty="none yet. Add your company's domain below."
      >
        {(domains.data?.items ?? []).map((item) => (
          <tr key={item.id}>
            <td>{item.domain}</td>
            <td>{item.status === "verified" ? `Verified ${when(item.verifiedAt)}` : "Waiting for DNS"}</td>
            <td>
              <code>{item.txtName}</code> = <code>{item.txtValue}</code>
            </td>
            <td class="actions">
              {item.status === "verified" ? null : (
                <button type="button" disabled={verify.busy} onClick={() => verify.run(item.id)}>
                  Verify {item.domain}
                </button>
              )}
              <ConfirmButton
                label={`Remove ${item.domain}`}
                question={`Remove the domain ${item.domain}?`}
                consequence={`People with an e-mail at ${item.domain} are no longer sent to your identity provider by it, nor held to it; proving it again takes a new TXT record.`}
                action="Remove the domain"
                onConfirm={() => remove.run(item.id)}
              />
            </td>
          </tr>
        ))}
      </Table>
      <Form label="Add a domain" outcome={add} submit="Add the domain" onSubmit={add.run}>
        <Field label="Domain" name="domain" value={domain} onValue={setDomain} outcome={add} required />
      </Form>
    </Section>
  )
}

const noConnection = { name: "", issuer: "", clientId: "", clientSecret: "", metadata: "" }

/**
 * What the identity provider's administrator registers first, before anything is saved here: the
 * addresses its answers come back to, the same for every connection of this service.
 */
const ToRegister = ({ kind }: { readonly kind: "oidc" | "saml" }) => (
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

/** The organisation's identity providers: OIDC or SAML, enabled or not, and what to give each. */
const Connections = () => {
  const connections = useLoad(() => roster.sso.listSsoConnections({ limit: 200 }).firstPage())
  const deployment = useDeployment()
  const [kind, setKind] = useState<"oidc" | "saml">("oidc")
  const [draft, setDraft] = useState(noConnection)
  const set = (field: keyof typeof noConnection) => (value: string) => setDraft({ ...draft, [field]: value })
  const create = useAction(
    () =>
      roster.sso.createSsoConnection(
        kind === "oidc"
          ? {
              kind,
              name: draft.name.trim(),
              issuer: draft.issuer.trim(),
              clientId: draft.clientId.trim(),
              clientSecret: draft.clientSecret
            }
          : { kind, name: draft.name.trim(), idpMetadataXml: draft.metadata }
      ),
    () => {
      setDraft(noConnection)
      connections.reload()
    }
  )
  const toggle = useAction(
    (id: string, enabled: boolean) =>
      roster.sso.updateSsoConnection({ id, status: enabled ? "disabled" : "enabled" }),
    connections.reload
  )
  const remove = useAction((id: string) => roster.sso.deleteSsoConnection({ id }), connections.reload)
  return (
    <Section title="Identity providers">
      <ProblemAlert outcome={connections} />
      <ProblemAlert outcome={toggle} />
      <ProblemAlert outcome={remove} />
      <Table
        caption="Connections"
        columns={["Name", "Protocol", "Status", "Give your provider"]}
        actions
        empty="none yet. Connect your identity provider below (OIDC or SAML 2.0)."
      >
        {(connections.data?.items ?? []).map((connection) => (
          <tr key={connection.id}>
            <td>{connection.name}</td>
            <td>{connection.kind === "oidc" ? "OpenID Connect" : "SAML 2.0"}</td>
            <td>{connection.status === "enabled" ? "Signs people in" : "Off"}</td>
            <td>
              {connection.kind === "oidc" ? (
                <>
                  Redirect URI <code>{connection.redirectUri}</code>
                </>
              ) : (
                <>
                  ACS URL <code>{connection.acsUrl}</code>, entity ID <code>{connection.spEntityId}</code>,{" "}
                  <a href={connection.spMetadataUrl}>metadata</a>
                </>
              )}
            </td>
            <td class="actions">
              <button
                type="button"
                disabled={toggle.busy}
                onClick={() => toggle.run(connection.id, connection.status === "enabled")}
              >
                {connection.status === "enabled"
                  ? `Turn ${connection.name} off`
                  : `Turn ${connection.name} on`}
              </button>
              <ConfirmButton
                label={`Delete ${connection.name}`}
                question={`Delete the connection ${connection.name}?`}
                consequence={`Nobody signs in through ${connection.name} any more, and the identities linked to it go with it; its members stay, and sign in another way.`}
                action="Delete the connection"
                onConfirm={() => remove.run(connection.id)}
              />
            </td>
          </tr>
        ))}
      </Table>
      <Form
        label="Connect an identity provider"
        outcome={create}
        submit="Connect"
        onSubmit={create.run}
        unavailable={deployment.data?.keepsSecrets === false ? operatorMust.secrets : undefined}
      >
        <Select
          label="Protocol"
          name="kind"
          value={kind}
          onValue={(value) => setKind(value === "saml" ? "saml" : "oidc")}
          options={[
            ["oidc", "OpenID Connect"],
            ["saml", "SAML 2.0"]
          ]}
        />
        <ToRegister kind={kind} />
        <Field label="Name" name="name" value={draft.name} onValue={set("name")} outcome={create} required />
        {kind === "oidc" ? (
          <>
            <Field
              label="Issuer"
              name="issuer"
              type="url"
              value={draft.issuer}
              onValue={set("issuer")}
              outcome={create}
              hint="Its discovery document is at /.well-known/openid-configuration under it."
              required
            />
            <Field
              label="Client ID"
              name="clientId"
              value={draft.clientId}
              onValue={set("clientId")}
              outcome={create}
              required
            />
            <Field
              label="Client secret"
              name="clientSecret"
              type="password"
              value={draft.clientSecret}
              onValue={set("clientSecret")}
              outcome={create}
              required
            />
          </>
        ) : (
          <TextArea
            label="The provider's metadata (XML)"
            name="idpMetadataXml"
            value={draft.metadata}
            onValue={set("metadata")}
            outcome={create}
            hint="Download it from your identity provider's SAML application."
            required
          />
        )}
      </Form>
    </Section>
  )
}

/** Single sign-on: verified domains and identity providers. */
export const SingleSignOn = () => (
  <>
    <Domains />
    <Connections />
  </>
)
