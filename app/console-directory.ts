import { fileURLToPath } from "node:url"
import { isConsoleBuilt } from "../adapters/http/index.ts"

/**
 * Where `npm run build` put the console: beside the running code in the installed package
 * (`dist/app` → `dist/console`), or in `dist/` when running from the sources or `build/`.
 */
export const consoleDirectory = (): string | undefined =>
  ["../console/", "../dist/console/"]
    .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
    .find(isConsoleBuilt)
