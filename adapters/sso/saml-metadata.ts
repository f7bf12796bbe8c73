import type { Element, DOMParser as Parser } from "@xmldom/xmldom"
import { Effect } from "effect"
import { ConnectionInvalid, type SamlProvider } from "../../core/index.ts"
import { loadedOnFirstUse } from "../runtime/loaded-on-first-use.ts"
import { certificateDer } from "./certificates.ts"

const xmldom = loadedOnFirstUse(() => import("@xmldom/xmldom"))

const metadataNs = "urn:oasis:names:tc:SAML:2.0:metadata"
const signatureNs = "http://www.w3.org/2000/09/xmldsig#"
const redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"

const invalid = (message: string) => new ConnectionInvalid({ field: "idpMetadataXml", message })

const elements = (parent: Element, ns: string, name: string): ReadonlyArray<Element> =>
  Array.from(parent.getElementsByTagNameNS(ns, name))

/** The IdP an IdP's metadata describes: its entity id, its HTTP-Redirect sign-in, its signing certificates. */
const providerOf = (xml: string, DOMParser: typeof Parser): SamlProvider | ConnectionInvalid => {
  let document: ReturnType<Parser["parseFromString"]>
  try {
    // No entity is ever resolved: the parser reads the text it is given and nothing else.
    document = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new Error(message)
      }
    }).parseFromString(xml, "text/xml")
  } catch {
    return invalid("The metadata is not well-formed XML")
  }
  const root = document.documentElement
  if (root === null) return invalid("The metadata is not well-formed XML")
  const entities =
    root.localName === "EntityDescriptor" ? [root] : elements(root, metadataNs, "EntityDescriptor")
  const entity = entities.find((candidate) => elements(candidate, metadataNs, "IDPSSODescriptor").length > 0)
  if (entity === undefined) return invalid("The metadata describes no identity provider (IDPSSODescriptor)")
  const idp = elements(entity, metadataNs, "IDPSSODescriptor")[0] as Element
  const entityId = entity.getAttribute("entityID") ?? ""
  if (entityId === "") return invalid("The metadata's EntityDescriptor has no entityID")
  const ssoUrl = elements(idp, metadataNs, "SingleSignOnService")
    .find((service) => service.getAttribute("Binding") === redirectBinding)
    ?.getAttribute("Location")
  if (ssoUrl === undefined || ssoUrl === null || ssoUrl === "") {
    return invalid("The metadata offers no SingleSignOnService with the HTTP-Redirect binding")
  }
  const certificates = elements(idp, metadataNs, "KeyDescriptor")
    .filter((key) => {
      const use = key.getAttribute("use")
      return use === null || use === "" || use === "signing"
    })
    .flatMap((key) => elements(key, signatureNs, "X509Certificate").map((node) => node.textContent ?? ""))
  const ders = certificates.map(certificateDer)
  if (ders.length === 0) return invalid("The metadata names no signing certificate")
  if (ders.some((der) => der === undefined)) return invalid("A certificate in the metadata is not one")
  return { entityId, ssoUrl, certificates: [...new Set(ders as ReadonlyArray<string>)] }
}

export const readMetadata = (xml: string) =>
  Effect.flatMap(
    Effect.promise(() => xmldom()),
    ({ DOMParser }) => {
      const provider = providerOf(xml, DOMParser)
      return provider instanceof ConnectionInvalid ? Effect.fail(provider) : Effect.succeed(provider)
    }
  )
