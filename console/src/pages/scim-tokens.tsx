import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { ConfirmButton, SecretOnce, Section, Table, when } from "../components/controls.tsx"
import { Field, Form } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useAction, useLoad } from "../use-call.ts"

/** SCIM tokens for an identity provider: make one (shown once), list them, revoke one. */
export const ScimTokens = ({ me }: { readonly me: Me }) => {
  const tokens = useLoad(() => roster.organizations.listScimTokens())
  const [name, setName] = useState("")
  const [secret, setSecret] = useState<string | null>(null)
  const create = useAction(
    () => roster.organizations.createScimToken({ name }),
    (made) => {
      setName("")
      setSecret(made.token)
      tokens.reload()
    }
  )
  const revoke = useAction((id: string) => roster.organizations.revokeScimToken({ id }), tokens.reload)
  return (
    <>
      {allows(me, "organizations.createScimToken") ? (
        <Section title="Make a SCIM token">
          <Form label="Make a SCIM token" outcome={create} submit="Make the token" onSubmit={create.run}>
            <Field label="Name" name="name" value={name} onValue={setName} outcome={create} required />
          </Form>
          <SecretOnce label="The SCIM token" secret={secret} />
        </Section>
      ) : null}
      <ProblemAlert outcome={tokens} />
      <ProblemAlert outcome={revoke} />
      <Table
        caption="SCIM tokens"
        columns={["Name", "Permissions", "Made"]}
        actions
        empty="none yet. Make one above for your identity provider (Okta, Entra) to provision people."
      >
        {(tokens.data ?? []).map((token) => (
          <tr key={token.id}>
            <td>{token.name}</td>
            <td>{token.permissionIds.length}</td>
            <td>{when(token.createdAt)}</td>
            <td>
              {allows(me, "organizations.revokeScimToken") ? (
                <ConfirmButton
                  label={`Revoke ${token.name}`}
                  question={`Revoke the SCIM token ${token.name}?`}
                  consequence={`The identity provider holding ${token.name} is refused from its next request: it provisions no one until it is given a new token. The people it provisioned stay.`}
                  action="Revoke the token"
                  onConfirm={() => revoke.run(token.id)}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
    </>
  )
}
