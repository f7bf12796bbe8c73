import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { ConfirmButton, Section, Table, when } from "../components/controls.tsx"
import { Field, Form } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useAction, useLoad } from "../use-call.ts"

/** The domains the organisation proves by DNS: add one, publish its TXT record, verify, remove. */
export const Domains = () => {
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
