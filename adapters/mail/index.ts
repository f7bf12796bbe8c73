export { noInvitationMailLayer } from "./no-invitation-mail.ts"
export { type SmtpOptions, smtpInvitationMailLayer } from "./smtp-invitation-mail.ts"
