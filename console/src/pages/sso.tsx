import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { ConfirmButton, Section, Table } from "../components/controls.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useAction, useLoad } from "../use-call.ts"
import { Connect } from "./sso-connect.tsx"
import { Domains } from "./sso-domains.tsx"
import type { Connection } from "./sso-register.tsx"

/** How a connection stands, in words. */
const standing = {
  draft: "Waiting for its IdP's values",
  enabled: "Signs people in",
  disabled: "Off"
} as const

/** The organisation's identity providers: OIDC or SAML, enabled or not, and what to give each. */
const Connections = () => {
  const connections = useLoad(() => roster.sso.listSsoConnections({ limit: 200 }).firstPage())
  const [resume, setResume] = useState<Connection | null>(null)
  const changed = () => {
    setResume(null)
    connections.reload()
  }
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
            <td>{standing[connection.status]}</td>
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
              {connection.status === "draft" ? (
                <button type="button" onClick={() => setResume(connection)}>
                  {`Finish setting up ${connection.name}`}
                </button>
              ) : (
                <button
                  type="button"
                  disabled={toggle.busy}
                  onClick={() => toggle.run(connection.id, connection.status === "enabled")}
                >
                  {connection.status === "enabled"
                    ? `Turn ${connection.name} off`
                    : `Turn ${connection.name} on`}
                </button>
              )}
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
      <Connect resume={resume} onChange={changed} />
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
