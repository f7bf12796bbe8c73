import { createHmac } from "node:crypto"

/**
 * A value the protocol binds to a sign-in, made of its secret `state`, so that nothing of it is
 * stored: PKCE's verifier, the nonce, the AuthnRequest's id. Nobody without the state can make it.
 */
export const derivedFrom = (state: string, purpose: "pkce" | "nonce" | "saml-request") =>
  createHmac("sha256", state).update(purpose).digest("base64url")

/** The AuthnRequest's id for a sign-in: an XML id (a letter first). */
export const samlRequestIdOf = (state: string) =>
  `_${Buffer.from(derivedFrom(state, "saml-request"), "base64url").toString("hex")}`
