import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Field, Form, Select, TextArea } from "../components/form.tsx"
import { useAction } from "../use-call.ts"
import { type Connection, SamlValues } from "./sso-register.tsx"

const noIdp = { how: "metadata", metadata: "", entityId: "", ssoUrl: "", certificate: "" }

/** Step two of SAML: the draft's SP values to give the IdP, then the IdP's, which enable it. */
export const SamlStep = (props: { readonly connection: Connection; readonly onDone: () => void }) => {
  const [idp, setIdp] = useState(noIdp)
  const set = (field: keyof typeof noIdp) => (value: string) => setIdp({ ...idp, [field]: value })
  const { id } = props.connection
  const finish = useAction(
    () =>
      roster.sso.updateSsoConnection(
        idp.how === "metadata"
          ? { id, idpMetadataXml: idp.metadata }
          : {
              id,
              idpEntityId: idp.entityId.trim(),
              idpSsoUrl: idp.ssoUrl.trim(),
              idpCertificate: idp.certificate
            }
      ),
    props.onDone
  )
  return (
    <>
      <SamlValues connection={props.connection} />
      <Form label="The identity provider's values" outcome={finish} submit="Connect" onSubmit={finish.run}>
        <p>
          Step 2 of 2: once your provider's application is made, what it gives for {props.connection.name}.
        </p>
        <Select
          label="Your provider gives"
          name="how"
          value={idp.how}
          onValue={set("how")}
          options={[
            ["metadata", "Its metadata (XML)"],
            ["hand", "Its entity ID, sign-in URL and certificate"]
          ]}
        />
        {idp.how === "metadata" ? (
          <TextArea
            label="The provider's metadata (XML)"
            name="idpMetadataXml"
            value={idp.metadata}
            onValue={set("metadata")}
            outcome={finish}
            hint="Download it from your identity provider's SAML application."
            required
          />
        ) : (
          <>
            <Field
              label="IdP entity ID (issuer)"
              name="idpEntityId"
              value={idp.entityId}
              onValue={set("entityId")}
              outcome={finish}
              required
            />
            <Field
              label="IdP sign-in URL"
              name="idpSsoUrl"
              type="url"
              value={idp.ssoUrl}
              onValue={set("ssoUrl")}
              outcome={finish}
              required
            />
            <TextArea
              label="IdP signing certificate (PEM)"
              name="idpCertificate"
              value={idp.certificate}
              onValue={set("certificate")}
              outcome={finish}
              required
            />
          </>
        )}
        <button type="button" onClick={props.onDone}>
          Finish later
        </button>
      </Form>
    </>
  )
}
