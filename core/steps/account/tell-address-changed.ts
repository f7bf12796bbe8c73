import { Effect } from "effect"
import { AccountMail } from "../../ports/account-mail.ts"
import { offThePath } from "../auth/off-the-path.ts"

/**
 * Tells an account's old address that the account's address is now `newEmail` (another), off the
 * request's path: a takeover through the address is seen by the one it was taken from. A mail
 * server that does not take it is logged; the change stands.
 */
export const tellAddressChanged = (oldEmail: string, newEmail: string) =>
  AccountMail.use((mail) => Effect.asVoid(offThePath(mail.tell({ to: oldEmail, newEmail }))))
