import { Duration } from "effect"
import type { AuthSettings } from "../../ports/auth-settings.ts"

/** How long an access token lives when the settings do not say: five minutes. */
export const defaultAccessTokenLifetime = Duration.seconds(300)

/** The audience of access tokens when the settings do not say. */
export const defaultTokenAudience = "roster"

export const accessTokenLifetime = (settings: typeof AuthSettings.Service) =>
  settings.accessTokenLifetime ?? defaultAccessTokenLifetime
