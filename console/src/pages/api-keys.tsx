import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { ConfirmButton, SecretOnce, Section, Table, usePages, when } from "../components/controls.tsx"
import { Check, Field, Form } from "../components/form.tsx"
import { ProblemAlert, useShowsOwnError } from "../components/problem-alert.tsx"
import { useAction, useLoad } from "../use-call.ts"

/** The permissions a new key holds, each box with its description. */
const PermissionChoice = (props: {
  readonly catalog: ReadonlyArray<{ readonly id: number; readonly key: string; readonly description: string }>
  readonly chosen: ReadonlyArray<number>
  readonly onChosen: (chosen: ReadonlyArray<number>) => void
  readonly error: string | undefined
}) => {
  useShowsOwnError("permissions")
  const { chosen } = props
  return (
    <fieldset>
      <legend>Permissions (at most your own)</legend>
      {props.catalog.map((permission) => (
        <div key={permission.id}>
          <Check
            label={`${permission.key}: ${permission.description}`}
            checked={chosen.includes(permission.id)}
            onChecked={(on) =>
              props.onChosen(on ? [...chosen, permission.id] : chosen.filter((id) => id !== permission.id))
            }
          />
        </div>
      ))}
      {props.error === undefined ? null : <small class="field-error">{props.error}</small>}
    </fieldset>
  )
}

/** API keys for programs: make one with some of the caller's permissions, rotate, revoke. */
export const ApiKeys = ({ me }: { readonly me: Me }) => {
  const catalog = useLoad(() => roster.team.listPermissions())
  const keys = usePages((cursor) =>
    roster.apiKeys.listApiKeys(cursor === undefined ? {} : { cursor }).firstPage()
  )
  const [name, setName] = useState("")
  const [chosen, setChosen] = useState<ReadonlyArray<number>>([])
  const [expires, setExpires] = useState("")
  const [secret, setSecret] = useState<string | null>(null)
  const shown = (made: { readonly key: string | null }) => {
    setSecret(made.key)
    keys.reload()
  }
  const create = useAction(
    () =>
      roster.apiKeys.createApiKey({
        name,
        permissions: chosen,
        ...(expires === "" ? {} : { expiresAt: new Date(expires).toISOString() })
      }),
    (made) => {
      setName("")
      setChosen([])
      shown(made)
    }
  )
  const rotate = useAction((id: string) => roster.apiKeys.rotateApiKey({ id }), shown)
  const revoke = useAction((id: string) => roster.apiKeys.revokeApiKey({ id }), keys.reload)
  const nameOf = (id: number) => catalog.data?.find((permission) => permission.id === id)?.key ?? String(id)
  return (
    <>
      {allows(me, "apiKeys.createApiKey") ? (
        <Section title="Make an API key">
          <Form label="Make an API key" outcome={create} submit="Make the key" onSubmit={create.run}>
            <Field label="Name" name="name" value={name} onValue={setName} outcome={create} required />
            <PermissionChoice
              catalog={catalog.data ?? []}
              chosen={chosen}
              onChosen={setChosen}
              error={create.errorFor("permissions")}
            />
            <Field
              label="Expires (optional)"
              name="expiresAt"
              type="datetime-local"
              value={expires}
              onValue={setExpires}
              outcome={create}
            />
          </Form>
        </Section>
      ) : null}
      <SecretOnce label="The API key" secret={secret} />
      <ProblemAlert outcome={keys} />
      <ProblemAlert outcome={rotate} />
      <ProblemAlert outcome={revoke} />
      <Table
        caption="API keys"
        columns={["Name", "Starts with", "Permissions", "Last used", "Expires"]}
        actions
        empty="none yet. Make one above for a program to call the API with some of your permissions; it is shown once."
      >
        {keys.items.map((key) => (
          <tr key={key.id}>
            <td>{key.name}</td>
            <td>
              <code>{key.start}</code>
            </td>
            <td>{key.permissions.map(nameOf).join(", ")}</td>
            <td>{when(key.lastUsedAt)}</td>
            <td>{when(key.expiresAt)}</td>
            <td class="actions">
              {allows(me, "apiKeys.rotateApiKey") ? (
                <ConfirmButton
                  label={`Rotate ${key.name}`}
                  question={`Rotate the API key ${key.name}?`}
                  consequence={`${key.name} gets a new secret, shown once. The old one is refused from its next request, so update the programs that use it.`}
                  action="Rotate the key"
                  onConfirm={() => rotate.run(key.id)}
                />
              ) : null}
              {allows(me, "apiKeys.revokeApiKey") ? (
                <ConfirmButton
                  label={`Revoke ${key.name}`}
                  question={`Revoke the API key ${key.name}?`}
                  consequence={`${key.name} goes: its next request is refused (401), and the programs that use it stop working until they are given another key.`}
                  action="Revoke the key"
                  onConfirm={() => revoke.run(key.id)}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      {keys.pager}
    </>
  )
}
