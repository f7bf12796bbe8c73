import { Option, Redacted } from "effect"
import { noAccountMailLayer } from "../adapters/mail/no-account-mail.ts"
import { noInvitationMailLayer } from "../adapters/mail/no-invitation-mail.ts"
import { noPaymentProviderLayer } from "../adapters/payments/no-payment-provider.ts"
import { stripeProviderLayer } from "../adapters/payments/stripe-provider-layer.ts"
import { loadedWhenBuilt } from "../adapters/runtime/loaded-when-built.ts"
import { corePortsOn } from "./roster-layer.ts"
import type { Settings } from "./settings.ts"
import { chosenStores } from "./store-choice.ts"

/** Invitations and account mail: one SMTP transport for both, or none. */
const mail = (settings: Settings) =>
  Option.match(settings.mail.smtp, {
    onNone: () => ({ invitationMail: noInvitationMailLayer, accountMail: noAccountMailLayer }),
    onSome: (smtp) => {
      // One layer value for both options: it is built once, with one pool of connections.
      const both = loadedWhenBuilt(
        () => import("../adapters/mail/smtp-mail.ts"),
        ({ smtpMailLayer }) => smtpMailLayer(smtp),
        { name: "nodemailer", feature: "Mail (ROSTER_SMTP_URL)" }
      )
      return { invitationMail: both, accountMail: both }
    }
  })

/**
 * Every port of the core as the settings choose them (store, hasher, provider, mail): what the
 * service runs on, and what the operator's commands (`npm run roster`) run on too.
 */
export const coreServices = (settings: Settings) =>
  corePortsOn(chosenStores(settings), {
    plans: settings.plans,
    sessionTtl: settings.sessionTtl,
    signupOpen: settings.signupOpen,
    invitationTtl: settings.mail.invitationTtl,
    resetTtl: settings.mail.resetTtl,
    secretsKeys: settings.secretsKeys,
    webhooks: settings.outboundEvents,
    sso: { servers: settings.sso.dnsServers, returnUrls: settings.sso.returnUrls },
    passkeys: "off" in settings.passkeys ? "off" : settings.passkeys,
    accessTokens: settings.accessTokens,
    verificationTtl: settings.mail.verificationTtl,
    ...mail(settings),
    paymentProvider: Option.match(settings.stripe, {
      onNone: () => noPaymentProviderLayer,
      // Stripe's package is loaded only when it is used, as the MongoDB driver is.
      onSome: stripeProviderLayer
    }),
    ...Option.match(settings.masterKey, {
      onNone: () => ({}),
      onSome: (key) => ({ masterKey: Redacted.value(key) })
    })
  })
