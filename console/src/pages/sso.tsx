import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { ConfirmButton, Section, Table } from "../components/controls.tsx"
import { Field, Form, Select, TextArea } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { operatorMust, useDeployment } from "../deployment.ts"
import { useAction, useLoad } from "../use-call.ts"
import { Domains } from "./sso-domains.tsx"
import { ToRegister } from "./sso-register.tsx"

const noConnection = { name: "", issuer: "", clientId: "", clientSecret: "", metadata: "" }

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
