/** Marks NFKD splits off letters (é becomes e and an accent): names keep their letters, plain. */
const marks = /[\u0300-\u036f]/gu

const plain = (text: string) => text.normalize("NFKD").replace(marks, "")

/**
 * A username for an identity provider's `userName` that is none (an e-mail address or a UPN):
 * `ada@example.com` becomes `ada.example.com`. What the pattern refuses becomes `-`.
 */
export const usernameFrom = (userName: string): string => {
  const base = plain(userName)
    .replace(/@/gu, ".")
    .replace(/[^A-Za-z0-9._-]+/gu, "-")
    .replace(/^[-.]+|[-.]+$/gu, "")
    .slice(0, 64)
  return base.length >= 3 ? base : `user-${base}`
}

/** `name` with `-suffix`, cut so the whole stays within `max` characters. */
export const withSuffix = (name: string, suffix: string, max = 64): string =>
  `${name.slice(0, max - suffix.length - 1)}-${suffix}`

/** A role key for a group's display name: `Sales (EMEA)` becomes `sales-emea`. */
export const roleKeyFrom = (displayName: string): string => {
  const key = plain(displayName)
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, "-")
    .slice(0, 64)
    // Runs are one dash already: only an end's single dash is left to trim.
    .replace(/^-|-$/gu, "")
  return key.length > 0 ? key : "group"
}
