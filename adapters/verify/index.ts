export { type AuthorizeOptions, authorizeRequest, requirePermission } from "./middleware.ts"
export {
  createRosterVerifier,
  type RosterClaims,
  RosterTokenError,
  type RosterVerifier,
  type RosterVerifierOptions
} from "./verifier.ts"
