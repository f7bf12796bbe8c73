import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { ConfirmButton, SecretOnce, Section, Table, usePages, when } from "../components/controls.tsx"
import { Field, Form, Select } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useRoles } from "../roles-data.ts"
import { useAction } from "../use-call.ts"

const statuses = ["pending", "accepted", "revoked", "expired"] as const

/** Invitations: send one, list them by status, revoke one still pending. */
export const Invitations = ({ me }: { readonly me: Me }) => {
  const roles = useRoles()
  const [status, setStatus] = useState("")
  const [email, setEmail] = useState("")
  const [roleId, setRoleId] = useState("")
  const [link, setLink] = useState<string | null>(null)
  const invitations = usePages(
    (cursor) =>
      roster.team
        .listInvitations({
          ...(cursor === undefined ? {} : { cursor }),
          ...(status === "" ? {} : { status: status as (typeof statuses)[number] })
        })
        .firstPage(),
    [status]
  )
  const send = useAction(
    () =>
      roster.team.createInvitation({
        email,
        roleId: Number(roleId === "" ? roles.options[0]?.[0] : roleId)
      }),
    (invitation) => {
      setEmail("")
      // Without mail the token comes back, for the inviter to pass on as the console's link.
      const token = invitation.token
      setLink(
        token === undefined || token === null
          ? null
          : `${location.origin}/console/#/accept?token=${encodeURIComponent(token)}`
      )
      invitations.restart()
    }
  )
  const revoke = useAction((id: string) => roster.team.revokeInvitation({ id }), invitations.reload)
  return (
    <>
      {allows(me, "team.createInvitation") ? (
        <Section title="Invite someone">
          <Form label="Invite someone" outcome={send} submit="Send the invitation" onSubmit={send.run}>
            <Field
              label="E-mail"
              name="email"
              type="email"
              value={email}
              onValue={setEmail}
              outcome={send}
              required
            />
            <Select
              label="Role"
              name="roleId"
              value={roleId}
              onValue={setRoleId}
              outcome={send}
              options={roles.options}
            />
          </Form>
          <SecretOnce label="The invitation's link (no mail is sent by this service)" secret={link} />
        </Section>
      ) : null}
      <Select
        label="Status"
        name="status"
        value={status}
        onValue={setStatus}
        options={[["", "Any status"], ...statuses.map((value) => [value, value] as const)]}
      />
      <ProblemAlert outcome={invitations} />
      <ProblemAlert outcome={revoke} />
      <Table
        caption="Invitations"
        columns={["E-mail", "Role", "Status", "Expires"]}
        actions
        empty="none yet. Invite someone by e-mail above: they choose their own password."
      >
        {invitations.items.map((invitation) => (
          <tr key={invitation.id}>
            <td>{invitation.email}</td>
            <td>{roles.nameOf(invitation.roleId)}</td>
            <td>{invitation.status}</td>
            <td>{when(invitation.expiresAt)}</td>
            <td>
              {invitation.status === "pending" && allows(me, "team.revokeInvitation") ? (
                <ConfirmButton
                  label={`Revoke ${invitation.email}`}
                  question={`Revoke the invitation for ${invitation.email}?`}
                  consequence={`Its link stops working: ${invitation.email} can no longer join with it. Invite them again to send a new one.`}
                  action="Revoke the invitation"
                  onConfirm={() => revoke.run(invitation.id)}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      {invitations.pager}
    </>
  )
}
