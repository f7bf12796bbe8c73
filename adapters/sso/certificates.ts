import { generateKeyPair, X509Certificate } from "node:crypto"
import { promisify } from "node:util"
import { Effect, Redacted } from "effect"
import { ConnectionInvalid } from "../../core/index.ts"
import { loadedOnFirstUse } from "../runtime/loaded-on-first-use.ts"

const pair = promisify(generateKeyPair)

// Only a new SAML connection's key needs it.
const nodeForge = loadedOnFirstUse(() => import("node-forge").then((loaded) => loaded.default))

/** A certificate's DER as base64, from PEM or bare base64 DER; none when it is not a certificate. */
export const certificateDer = (text: string): string | undefined => {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/gu, "").replace(/\s+/gu, "")
  if (!/^[A-Za-z0-9+/]+={0,2}$/u.test(body)) return undefined
  try {
    const certificate = new X509Certificate(Buffer.from(body, "base64"))
    return certificate.raw.toString("base64")
  } catch {
    return undefined
  }
}

export const readCertificate = (text: string, field: string) => {
  const der = certificateDer(text)
  return der === undefined
    ? Effect.fail(
        new ConnectionInvalid({ field, message: "Expected an X.509 certificate, PEM or base64 DER" })
      )
    : Effect.succeed(der)
}

/** PEM armour around base64 DER. */
export const pemOf = (der: string, label = "CERTIFICATE") =>
  `-----BEGIN ${label}-----\n${der.match(/.{1,64}/gu)?.join("\n") ?? ""}\n-----END ${label}-----\n`

/**
 * A new RSA key (2048 bits, PKCS #8 PEM) and a certificate of it, self-signed, for ten years: what
 * signs one SAML connection's AuthnRequests, and what its IdP checks them by.
 */
export const newServiceProviderKey = Effect.promise(async () => {
  const { privateKey, publicKey } = await pair("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" }
  })
  const forge = await nodeForge()
  const certificate = forge.pki.createCertificate()
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey)
  certificate.serialNumber = `01${Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex")}`
  certificate.validity.notBefore = new Date()
  certificate.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000)
  const name = [{ name: "commonName", value: "Roster SAML service provider" }]
  certificate.setSubject(name)
  certificate.setIssuer(name)
  certificate.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create())
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes()
  return { privateKey: Redacted.make(privateKey), certificate: Buffer.from(der, "binary").toString("base64") }
})
