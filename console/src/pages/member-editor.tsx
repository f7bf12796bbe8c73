import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { ConfirmButton, Section } from "../components/controls.tsx"
import { Check, Field, Form, PasswordField, Select } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useAction, useLoad } from "../use-call.ts"

type Member = Awaited<ReturnType<typeof roster.team.getMember>>

/** One member: change them, their password or account, or remove them; what is allowed is offered. */
export const MemberEditor = (props: {
  readonly me: Me
  readonly member: Member
  readonly roles: ReadonlyArray<readonly [string, string]>
  readonly onChanged: () => void
  readonly onRemoved: () => void
}) => {
  const { me, member } = props
  const [username, setUsername] = useState(member.username)
  const [email, setEmail] = useState(member.email)
  const [roleId, setRoleId] = useState(String(member.roleId))
  const [active, setActive] = useState(member.activestatus)
  const [password, setPassword] = useState("")
  const [done, setDone] = useState("")
  const update = useAction(
    () =>
      roster.team.updateMember({
        id: member.id,
        username,
        email,
        roleId: Number(roleId),
        activestatus: active
      }),
    () => {
      setDone("Saved.")
      props.onChanged()
    }
  )
  const setMemberPassword = useAction(
    () => roster.admin.setMemberPassword({ id: member.id, newPassword: password }),
    () => {
      setPassword("")
      setDone("Password set.")
    }
  )
  const other = useAction(async (step: () => Promise<unknown>, message: string) => {
    await step()
    setDone(message)
    props.onChanged()
  })
  const remove = useAction(() => roster.team.removeMember({ id: member.id }), props.onRemoved)
  // A reset is offered only where there is a TOTP to clear, and never on oneself.
  const mayReset = allows(me, "admin.resetMemberMfa") && me.member?.id !== member.id
  const mfa = useLoad(
    () => (mayReset ? roster.admin.memberMfaStatus({ id: member.id }) : Promise.resolve({ totp: false })),
    [member.id, mayReset]
  )
  return (
    <Section title={`Member ${member.username}`}>
      {done === "" ? null : <p role="status">{done}</p>}
      {allows(me, "team.updateMember") ? (
        <Form label="Change the member" outcome={update} submit="Save" onSubmit={update.run}>
          <Field label="Username" name="username" value={username} onValue={setUsername} outcome={update} />
          <Field label="E-mail" name="email" type="email" value={email} onValue={setEmail} outcome={update} />
          <Select
            label="Role"
            name="roleId"
            value={roleId}
            onValue={setRoleId}
            outcome={update}
            options={props.roles}
          />
          <Check label="Active" checked={active} onChecked={setActive} />
        </Form>
      ) : null}
      {allows(me, "admin.setMemberPassword") ? (
        <>
          <Form
            label="Set the member's password"
            outcome={setMemberPassword}
            submit="Set the password"
            onSubmit={setMemberPassword.run}
          >
            <PasswordField
              label="New password"
              name="newPassword"
              value={password}
              onValue={setPassword}
              outcome={setMemberPassword}
              fresh
              required
            />
          </Form>
          <p class="actions">
            {member.accountActiveStatus ? (
              <ConfirmButton
                label="Disable the account"
                question={`Disable the account of ${member.username}?`}
                consequence={`${member.username} can no longer sign in, here or in any other organisation, and every session of theirs ends at once. Enable the account again to let them back in.`}
                action="Disable the account"
                onConfirm={() =>
                  other.run(
                    () =>
                      roster.admin.toggleAccountStatus({ user_id: member.id, accountActiveStatus: false }),
                    "Account disabled."
                  )
                }
              />
            ) : (
              <button
                type="button"
                onClick={() =>
                  other.run(
                    () => roster.admin.toggleAccountStatus({ user_id: member.id, accountActiveStatus: true }),
                    "Account enabled."
                  )
                }
              >
                Enable the account
              </button>
            )}
            {mfa.data?.totp === true ? (
              <ConfirmButton
                label="Reset two-step sign-in"
                question={`Reset two-step sign-in of ${member.username}?`}
                consequence={`${member.username}'s TOTP and recovery codes are cleared: they sign in with their password alone until they set TOTP up again (at their next sign-in, where this organisation requires it).`}
                action="Reset two-step sign-in"
                onConfirm={() =>
                  other.run(async () => {
                    await roster.admin.resetMemberMfa({ id: member.id })
                    mfa.reload()
                  }, "Two-step sign-in reset.")
                }
              />
            ) : null}
          </p>
          <ProblemAlert outcome={other} />
        </>
      ) : null}
      {allows(me, "team.removeMember") ? (
        <p class="actions">
          <ConfirmButton
            label="Remove the member"
            question={`Remove ${member.username} from the organisation?`}
            consequence={`${member.username}'s sessions here end at once and their seat is freed. Their account stays for the other organisations they belong to; with none left, it goes too. Nothing they changed is undone.`}
            action="Remove the member"
            onConfirm={remove.run}
            disabled={remove.busy}
          />
          <ProblemAlert outcome={remove} />
        </p>
      ) : null}
    </Section>
  )
}
